from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.test import Client
from django.urls import reverse

from accounts.signals import password_changed
from tests.accounts.conftest import PASSWORD

URL = reverse("accounts:password_change")
NEW_PASSWORD = "another-long-passphrase"

pytestmark = pytest.mark.django_db


@pytest.fixture
def told() -> Iterator[list]:
    """The people ``accounts.signals.password_changed`` was sent for, in order."""
    people = []

    def receive(sender, user, **kwargs) -> None:
        people.append(user)

    password_changed.connect(receive)
    yield people
    password_changed.disconnect(receive)


def change(client: Client, old: str = PASSWORD, new: str = NEW_PASSWORD, again: str | None = None):
    data = {"old_password": old, "new_password1": new, "new_password2": again or new}
    return client.post(URL, data)


def test_it_asks_a_visitor_to_log_in_first(client: Client) -> None:
    response = client.get(URL)

    assert response.status_code == 302
    assert response.url == f"{reverse('accounts:login')}?next={URL}"


def test_it_shows_the_form(client: Client, dana) -> None:
    client.force_login(dana)

    response = client.get(URL)

    assert response.status_code == 200
    assert response.templates[0].name == "accounts/password_change.html"


def test_it_changes_the_password_and_keeps_the_player_logged_in(client: Client, dana) -> None:
    client.force_login(dana)

    response = change(client)

    assert response.status_code == 302
    assert response.url == reverse("accounts:password_change_done")
    dana.refresh_from_db()
    assert dana.check_password(NEW_PASSWORD)
    assert client.get(response.url).wsgi_request.user == dana


def test_it_says_the_password_was_changed(client: Client, dana) -> None:
    client.force_login(dana)

    response = client.get(reverse("accounts:password_change_done"))

    assert response.status_code == 200
    assert "Your password has been changed" in response.content.decode()


def test_it_rejects_a_wrong_old_password(client: Client, dana) -> None:
    client.force_login(dana)

    response = change(client, old="not-it")

    assert response.status_code == 200
    assert response.context["form"].errors["old_password"]
    dana.refresh_from_db()
    assert dana.check_password(PASSWORD)


def test_it_rejects_new_passwords_that_differ(client: Client, dana) -> None:
    client.force_login(dana)

    response = change(client, again=NEW_PASSWORD + "!")

    assert response.context["form"].errors["new_password2"]
    dana.refresh_from_db()
    assert dana.check_password(PASSWORD)


def test_it_tells_the_site_once_the_password_changed(client: Client, dana, told) -> None:
    client.force_login(dana)

    change(client)

    assert told == [dana]
    assert told[0].check_password(NEW_PASSWORD)


def test_a_refused_change_tells_the_site_nothing(client: Client, dana, told) -> None:
    client.force_login(dana)

    change(client, old="not-it")

    assert told == []


def test_saving_a_player_for_another_reason_tells_nothing_and_reads_nothing_more(
    dana, told, django_assert_num_queries
) -> None:
    dana.first_name = "Dana"

    with django_assert_num_queries(1):  # the UPDATE alone
        dana.save()

    assert told == []
