"""New accounts per client address are limited, in the shared cache (accounts.throttle)."""

from __future__ import annotations

import time
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from accounts import throttle
from tests.accounts.conftest import PASSWORD

User = get_user_model()
URL = reverse("accounts:signup")
REFUSED = "Too many new accounts from your network. Please try again in an hour."

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def three_per_hour(settings) -> None:
    settings.SIGNUPS_PER_ADDRESS_PER_HOUR = 3


def sign_up(username: str, address: str = "203.0.113.5"):
    data = {"username": username, "password1": PASSWORD, "password2": PASSWORD}
    return Client().post(URL, data, REMOTE_ADDR=address)


def test_it_refuses_a_new_account_past_the_limit_for_one_address_and_says_so() -> None:
    for number in range(3):
        assert sign_up(f"player{number}").status_code == 302

    response = sign_up("player3")

    assert response.status_code == 200
    assert response.context["form"].non_field_errors() == [REFUSED]
    assert not User.objects.filter(username="player3").exists()


def test_another_address_may_still_sign_up() -> None:
    for number in range(3):
        sign_up(f"player{number}")

    assert sign_up("elsewhere", address="198.51.100.8").status_code == 302


def test_a_form_with_mistakes_does_not_use_up_the_limit() -> None:
    for _ in range(5):
        sign_up("x")  # too short: no account made

    assert sign_up("player0").status_code == 302


def test_the_address_may_sign_up_again_after_an_hour(settings) -> None:
    settings.CACHES = IN_MEMORY_CACHE  # whose clock is mocked below, REDIS_URL set or not
    for number in range(3):
        sign_up(f"player{number}")
    later = time.time() + throttle.SIGNUP_WINDOW_SECONDS + 1

    with mock.patch("django.core.cache.backends.locmem.time.time", return_value=later):
        response = sign_up("player3")

    assert response.status_code == 302


IN_MEMORY_CACHE = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
