from __future__ import annotations

import time
from unittest import mock

import pytest
from django.test import Client
from django.urls import reverse

from accounts import throttle
from tests.accounts.conftest import PASSWORD

URL = reverse("accounts:login")

pytestmark = pytest.mark.django_db


def log_in(client: Client, username: str, password: str = PASSWORD, **extra):
    return client.post(URL, {"username": username, "password": password}, **extra)


def logged_in_as(client: Client) -> str | None:
    return client.session.get("_auth_user_id")


def errors_of(response) -> list[str]:
    return response.context["form"].non_field_errors()


def test_it_shows_the_form(client: Client) -> None:
    response = client.get(URL)

    assert response.status_code == 200
    assert response.templates[0].name == "registration/login.html"


def test_it_logs_the_player_in_and_sends_them_to_the_lobby(client: Client, dana) -> None:
    response = log_in(client, "Dana")

    assert response.status_code == 302
    assert response.url == reverse("games:home")
    assert logged_in_as(client) == str(dana.pk)


def test_it_sends_the_player_back_where_they_were_going(client: Client, dana) -> None:
    response = client.post(
        URL, {"username": "Dana", "password": PASSWORD, "next": "/players/Dana/"}
    )

    assert response.url == "/players/Dana/"


@pytest.mark.parametrize("typed", ["dana", "DANA", "dAnA"])
def test_it_ignores_the_case_of_the_username(client: Client, dana, typed: str) -> None:
    response = log_in(client, typed)

    assert response.status_code == 302
    assert logged_in_as(client) == str(dana.pk)


def test_it_rejects_a_wrong_password_with_a_clear_error(client: Client, dana) -> None:
    response = log_in(client, "Dana", "not-the-password")

    assert response.status_code == 200
    assert errors_of(response) == ["That username and password do not match. Please try again."]
    assert logged_in_as(client) is None


def test_it_rejects_an_unknown_username_with_the_same_error(client: Client) -> None:
    response = log_in(client, "nobody")

    assert errors_of(response) == ["That username and password do not match. Please try again."]


def test_it_refuses_a_banned_player_and_says_so(client: Client, dana) -> None:
    dana.is_active = False
    dana.save()

    response = log_in(client, "dana")

    assert response.status_code == 200
    assert errors_of(response) == ["This account has been banned. You cannot log in."]
    assert logged_in_as(client) is None


def test_it_does_not_tell_a_stranger_that_an_account_is_banned(client: Client, dana) -> None:
    dana.is_active = False
    dana.save()

    response = log_in(client, "dana", "a-guess")

    assert errors_of(response) == ["That username and password do not match. Please try again."]


def test_it_ends_the_session_of_a_player_who_is_banned(client: Client, dana) -> None:
    log_in(client, "Dana")
    dana.is_active = False
    dana.save()

    response = client.get(reverse("games:home"))

    assert not response.wsgi_request.user.is_authenticated


def test_it_throttles_after_five_failures_and_says_so(client: Client, dana) -> None:
    for _ in range(throttle.MAX_FAILURES_PER_USERNAME):
        log_in(client, "Dana", "wrong")

    # Even the right password is refused now, in any case of the username.
    response = log_in(client, "DANA")

    assert response.status_code == 200
    assert errors_of(response) == [
        "Too many failed log-ins for this username or from your network. "
        "Please wait 15 minutes and try again."
    ]
    assert logged_in_as(client) is None


def test_it_does_not_throttle_before_the_limit(client: Client, dana) -> None:
    for _ in range(throttle.MAX_FAILURES_PER_USERNAME - 1):
        log_in(client, "Dana", "wrong")

    assert log_in(client, "Dana").status_code == 302


def test_it_lets_another_player_log_in_while_one_username_is_throttled(
    client: Client, dana, ben
) -> None:
    for _ in range(throttle.MAX_FAILURES_PER_USERNAME):
        log_in(client, "Dana", "wrong")

    response = log_in(Client(), "ben")

    assert response.status_code == 302


def test_it_throttles_an_address_that_tries_many_usernames(client: Client, dana) -> None:
    for number in range(throttle.MAX_FAILURES_PER_ADDRESS):
        log_in(client, f"guess{number}", "wrong", REMOTE_ADDR="203.0.113.9")

    refused = log_in(client, "Dana", REMOTE_ADDR="203.0.113.9")
    elsewhere = log_in(Client(), "Dana", REMOTE_ADDR="198.51.100.1")

    assert "Too many failed log-ins" in errors_of(refused)[0]
    assert elsewhere.status_code == 302


def test_it_lets_the_player_in_again_when_the_window_has_passed(
    client: Client, dana, settings
) -> None:
    settings.CACHES = IN_MEMORY_CACHE  # whose clock is mocked below, REDIS_URL set or not
    for _ in range(throttle.MAX_FAILURES_PER_USERNAME):
        log_in(client, "Dana", "wrong")
    later = time.time() + throttle.WINDOW_SECONDS + 1

    # The in-memory cache reads the clock to expire its keys.
    with mock.patch("django.core.cache.backends.locmem.time.time", return_value=later):
        response = log_in(client, "Dana")

    assert response.status_code == 302


def test_it_forgets_a_usernames_failures_after_a_good_log_in(client: Client, dana) -> None:
    for _ in range(throttle.MAX_FAILURES_PER_USERNAME - 1):
        log_in(client, "Dana", "wrong")
    log_in(client, "Dana")
    client.post(reverse("accounts:logout"))

    for _ in range(throttle.MAX_FAILURES_PER_USERNAME - 1):
        log_in(client, "Dana", "wrong")

    assert log_in(client, "Dana").status_code == 302


IN_MEMORY_CACHE = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
