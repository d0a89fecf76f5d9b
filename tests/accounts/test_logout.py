from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

URL = reverse("accounts:logout")

pytestmark = pytest.mark.django_db


def test_it_logs_the_player_out_and_sends_them_to_the_lobby(client: Client, dana) -> None:
    client.force_login(dana)

    response = client.post(URL)

    assert response.status_code == 302
    assert response.url == reverse("games:home")
    assert "_auth_user_id" not in client.session


def test_it_rejects_get(client: Client, dana) -> None:
    client.force_login(dana)

    response = client.get(URL)

    assert response.status_code == 405
    assert client.session["_auth_user_id"] == str(dana.pk)


def test_it_needs_the_csrf_token(dana) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(dana)

    response = client.post(URL)

    assert response.status_code == 403
    assert client.session["_auth_user_id"] == str(dana.pk)
