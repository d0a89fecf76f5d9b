"""Guests try a game against bots without signing up (games.views.players.try_as_guest), play
bot tables only, and may keep the account with its games (accounts.guests)."""

from __future__ import annotations

import io
import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import guests
from accounts.models import Guest
from games.models import Table
from games.services import tables
from tests.accounts.conftest import PASSWORD

User = get_user_model()
pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_signup_limit(settings) -> None:
    # The sign-up throttle counts in the cache, which outlives a test's database.
    cache.clear()
    settings.SIGNUPS_PER_ADDRESS_PER_HOUR = 2


@pytest.fixture
def dana(db):
    return User.objects.create_user("Dana", "dana@example.com", PASSWORD)


def try_as_guest(client: Client, address: str = "198.51.100.7"):
    return client.post(reverse("games:guest"), REMOTE_ADDR=address)


def test_a_visitor_is_logged_in_as_a_readable_guest_at_a_started_bot_table(client) -> None:
    response = try_as_guest(client)

    user = User.objects.get()
    assert re.fullmatch(r"Guest-\d{4}", user.get_username())
    assert not user.has_usable_password()
    table = Table.objects.get(host=user)
    assert response.url == reverse("games:table", args=[table.pk])
    assert table.status == Table.Status.PLAYING and table.against_bots and not table.public
    assert client.get(reverse("games:my_games")).status_code == 200  # logged in


def test_the_guests_message_at_the_table_links_the_page_that_keeps_the_account(client) -> None:
    table_page = client.get(try_as_guest(client).url).content.decode()

    message = table_page[table_page.index('<ul class="messages">') :]
    message = message[: message.index("</ul>")]
    assert "a guest. Keep your games: claim the account" in message
    assert f'<a href="{reverse("accounts:claim")}">Keep your account</a>' in message


def test_a_guests_table_is_marked_to_show_them_the_way_to_keep_their_games(client, dana) -> None:
    guest_page = client.get(try_as_guest(client).url).content.decode()
    client.force_login(dana)
    table = tables.play_against_bots(dana, opponents=1)
    person_page = client.get(reverse("games:table", args=[table.pk])).content.decode()

    assert '<div class="table-page table-page--guest"' in guest_page
    assert '<div class="table-page"' in person_page and "table-page--guest" not in person_page


def test_guests_count_against_an_allowance_of_their_address(settings) -> None:
    settings.GUESTS_PER_ADDRESS_PER_HOUR = 2
    for _ in range(2):
        try_as_guest(Client())

    response = try_as_guest(Client(), "198.51.100.7")

    assert User.objects.count() == 2
    assert response.status_code == 429
    assert try_as_guest(Client(), "198.51.100.8").status_code == 302
    assert User.objects.count() == 3


def test_a_classroom_behind_one_address_tries_the_game_past_the_signup_limit() -> None:
    # The fixture allows two sign-ups an hour; guests are not sign-ups.
    for _ in range(12):
        assert try_as_guest(Client()).status_code == 302

    assert Guest.objects.count() == 12
    assert Table.objects.filter(status=Table.Status.PLAYING).count() == 12


def test_guests_leave_the_signups_of_their_address_untouched(client) -> None:
    for _ in range(3):
        try_as_guest(Client())

    response = Client().post(
        reverse("accounts:signup"),
        {"username": "ana", "password1": PASSWORD, "password2": PASSWORD},
        REMOTE_ADDR="198.51.100.7",
    )

    assert response.status_code == 302
    assert User.objects.filter(username="ana").exists()


def test_a_refused_visitor_is_offered_to_watch_log_in_or_sign_up(settings) -> None:
    settings.GUESTS_PER_ADDRESS_PER_HOUR = 1
    try_as_guest(Client())

    response = try_as_guest(Client())

    page = response.content.decode()
    assert response.status_code == 429
    assert "no more guest accounts can be made from it for now" in page
    for name in ("games:watch", "accounts:login", "accounts:signup"):
        assert f'href="{reverse(name)}"' in page
    assert f'action="{reverse("games:guest")}"' not in page  # no button that cannot work
    assert Guest.objects.count() == 1


def test_the_refusal_is_in_the_visitors_language(settings) -> None:
    settings.GUESTS_PER_ADDRESS_PER_HOUR = 1
    try_as_guest(Client())

    response = Client().post(
        reverse("games:guest"), REMOTE_ADDR="198.51.100.7", HTTP_ACCEPT_LANGUAGE="es"
    )

    assert "Mucha gente de tu red" in response.content.decode()


def test_keeping_a_guest_account_counts_as_a_signup(client) -> None:
    for name in ("ana", "bea"):
        Client().post(
            reverse("accounts:signup"),
            {"username": name, "password1": PASSWORD, "password2": PASSWORD},
            REMOTE_ADDR="198.51.100.7",
        )
    try_as_guest(client)

    response = client.post(
        reverse("accounts:claim"),
        {"username": "carla", "password1": PASSWORD, "password2": PASSWORD},
        REMOTE_ADDR="198.51.100.7",
    )

    assert response.status_code == 200
    assert "Too many new accounts from your network" in response.content.decode()
    assert not User.objects.filter(username="carla").exists()
    assert Guest.objects.count() == 1


def test_a_guest_may_neither_open_nor_join_a_table_with_people(client, dana) -> None:
    try_as_guest(client)
    table = tables.create_table(dana, name="Open one", seat_count=3)

    opened = client.get(reverse("games:create_table"))
    joined = client.post(reverse("games:join", args=[table.pk]))

    assert opened.url == reverse("accounts:claim")
    assert joined.url == reverse("accounts:claim")
    assert table.seats.filter(user__guest__isnull=False).count() == 0


def test_a_claimed_guest_keeps_the_account_its_games_and_may_log_in(client) -> None:
    try_as_guest(client)
    guest = User.objects.get()
    table = Table.objects.get(host=guest)

    response = client.post(
        reverse("accounts:claim"),
        {"username": "ana", "password1": PASSWORD, "password2": PASSWORD},
    )

    assert response.url == reverse("games:profile", args=["ana"])
    guest.refresh_from_db()
    assert guest.get_username() == "ana" and guest.check_password(PASSWORD)
    assert not guests.is_guest(guest)
    assert table.seats.filter(user=guest).exists()
    assert client.get(reverse("games:create_table")).status_code == 200  # still logged in
    assert Client().login(username="ana", password=PASSWORD)


def test_a_claim_refuses_a_taken_name(client, dana) -> None:
    try_as_guest(client)

    response = client.post(
        reverse("accounts:claim"),
        {"username": "DANA", "password1": PASSWORD, "password2": PASSWORD},
    )

    assert response.status_code == 200
    assert "taken" in response.context["form"].errors["username"][0]
    assert guests.is_guest(User.objects.exclude(pk=dana.pk).get())


def test_stale_unclaimed_guests_are_deleted_with_their_bot_tables(client, dana) -> None:
    try_as_guest(client)
    old = User.objects.exclude(pk=dana.pk).get()
    Guest.objects.filter(user=old).update(created_at=timezone.now() - timedelta(days=30))
    User.objects.filter(pk=old.pk).update(last_login=timezone.now() - timedelta(days=30))
    Table.objects.filter(host=old).update(created_at=timezone.now() - timedelta(days=30))
    fresh = guests.create_guest()

    call_command("delete_stale_guests", "--days", "7", stdout=io.StringIO())

    assert set(User.objects.values_list("pk", flat=True)) == {dana.pk, fresh.pk}
    assert not Table.objects.filter(host_id=old.pk).exists()
