from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.accounts.conftest import PASSWORD

User = get_user_model()
URL = reverse("accounts:signup")

pytestmark = pytest.mark.django_db


def sign_up(client: Client, username: str, **extra: str):
    data = {"username": username, "password1": PASSWORD, "password2": PASSWORD, **extra}
    return client.post(URL, data)


def test_it_shows_the_form(client: Client) -> None:
    response = client.get(URL)

    assert response.status_code == 200
    assert response.templates[0].name == "accounts/signup.html"
    assert 'name="password2"' in response.content.decode()


def test_it_creates_the_user_logs_them_in_and_sends_them_to_the_lobby(client: Client) -> None:
    response = sign_up(client, "dana_7", email="dana@example.com")

    assert response.status_code == 302
    assert response.url == reverse("games:home")
    user = User.objects.get(username="dana_7")
    assert user.email == ""  # sent a link to verify it (tests/accounts/test_email.py)
    assert user.check_password(PASSWORD)
    assert client.session["_auth_user_id"] == str(user.pk)


def test_it_does_not_need_an_email_address(client: Client) -> None:
    response = sign_up(client, "ben-the-bold")

    assert response.status_code == 302
    assert User.objects.get(username="ben-the-bold").email == ""


def test_it_trims_spaces_around_the_name_as_every_form_field_does(client: Client) -> None:
    sign_up(client, " dana \n")

    assert User.objects.filter(username="dana").exists()


def test_it_keeps_the_case_the_player_chose(client: Client) -> None:
    sign_up(client, "DaNa")

    assert User.objects.filter(username="DaNa").exists()


def test_it_rejects_duplicate_username_ignoring_case(client: Client, dana) -> None:
    response = sign_up(client, "dANA")

    assert response.status_code == 200
    assert "is taken" in response.context["form"].errors["username"][0]
    assert User.objects.filter(username__iexact="dana").count() == 1


def test_it_rejects_passwords_that_differ(client: Client) -> None:
    response = client.post(
        URL, {"username": "dana", "password1": PASSWORD, "password2": PASSWORD + "x"}
    )

    assert response.status_code == 200
    assert response.context["form"].errors["password2"]
    assert not User.objects.exists()


@pytest.mark.parametrize(
    ("username", "says"),
    [
        ("ab", "at least 3 characters"),
        ("a" * 21, "at most 20 characters"),
        ("x" * 10_000, "at most 20 characters"),
        ("two words", "no spaces"),
        ("<script>x</script>", "Use only the letters"),
        ('"><b>', "Use only the letters"),
        ("dana@example.com", "Use only the letters"),
        ("dana.k", "Use only the letters"),
        ("adm\u0456n", "Use only the letters"),  # Cyrillic і
        ("\uff41\uff44\uff4d\uff49\uff4e", "Use only the letters"),  # full-width ａｄｍｉｎ
        ("admin\u200b", "Use only visible characters"),  # zero-width space
        ("\u202eadmin", "Use only visible characters"),  # right-to-left override
        ("jos\u00e9", "Use only the letters"),
        ("da\nna", "Use only visible characters"),
        ("da\tna", "Use only visible characters"),
        ("da\x00na", "Null characters"),
    ],
)
def test_it_rejects_a_bad_username_with_a_clear_error(
    client: Client, username: str, says: str
) -> None:
    response = sign_up(client, username)

    assert response.status_code == 200
    errors = response.context["form"].errors["username"]
    assert any(says in error for error in errors), errors
    assert not User.objects.exists()
    assert client.session.get("_auth_user_id") is None


def test_it_never_echoes_a_hostile_username_as_html(client: Client) -> None:
    page = sign_up(client, "<script>alert(1)</script>").content.decode()

    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_it_accepts_names_at_the_length_limits(client: Client) -> None:
    sign_up(client, "abc")
    Client().post(URL, {"username": "a" * 20, "password1": PASSWORD, "password2": PASSWORD})

    assert set(User.objects.values_list("username", flat=True)) == {"abc", "a" * 20}


def test_it_sends_a_logged_in_player_to_the_lobby(client: Client, dana) -> None:
    client.force_login(dana)

    response = client.get(URL)

    assert response.status_code == 302
    assert response.url == reverse("games:home")


@pytest.mark.parametrize(
    "username",
    [
        "Guest-7827",
        "guest-7827",
        "GUEST_7827",
        "Guest7827",
        "Guestl234",  # a small L for the one
        "GuestO12",  # a capital O for the zero
        "Guest",
        "Invitado-4879",
        "Tamu-4879",
        "gasto_4879",
    ],
)
def test_it_keeps_names_like_a_guests_for_guests_in_every_language(
    client: Client, username: str
) -> None:
    response = sign_up(client, username)

    errors = response.context["form"].errors["username"]
    assert any("are kept for guest accounts" in error for error in errors), errors
    assert not User.objects.exists()


@pytest.mark.parametrize("username", ["Guesthouse", "Tamura", "Gastos", "my-guest-1"])
def test_it_allows_names_that_merely_begin_or_end_like_the_guest_word(
    client: Client, username: str
) -> None:
    sign_up(client, username)

    assert User.objects.filter(username=username).exists()


def test_it_says_which_names_are_kept_in_the_visitors_language(client: Client) -> None:
    response = client.post(
        URL,
        {"username": "Guest-1", "password1": PASSWORD, "password2": PASSWORD},
        HTTP_ACCEPT_LANGUAGE="es",
    )

    errors = response.context["form"].errors["username"]
    assert any("«Invitado-1234»" in error for error in errors), errors
