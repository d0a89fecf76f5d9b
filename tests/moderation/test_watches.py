"""A moderator's watch of private play is logged, whichever way they see it: the table's page,
its socket opened directly, the finished game and its record; once per moderator and table in
an hour, not once per push or page."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.services import access
from moderation import watches
from moderation.models import ModerationLog
from tests.games.live.test_consumers_table import connect
from tests.play import play_to_the_end

pytestmark = pytest.mark.django_db
# The sockets' tests see what their database thread commits.
sockets_db = pytest.mark.django_db(transaction=True)


@pytest.fixture
def socket_mod(db):
    """A moderator for the sockets' tests, which empty the database after each test and so
    the Moderators group its migration made: staff who may see the tables in the admin."""
    user = get_user_model().objects.create_user("mia", password="mia-password-1", is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="view_table"))
    return user


@pytest.fixture
def private(make_table, bob):
    return make_table(players=[bob], start=True, turn_seconds=None, public=False)


def watch_rows() -> list[tuple[int, int | None, str]]:
    return list(
        ModerationLog.objects.filter(action="watch").values_list("actor", "target", "reason")
    )


@sockets_db
async def test_a_moderator_opening_a_private_tables_socket_directly_is_logged(
    private, socket_mod, alice
) -> None:
    mod = socket_mod
    socket = await connect(private, mod)
    await socket.receive_from(timeout=2)  # every push reaches them…

    rows = await database_sync_to_async(watch_rows)()
    # …and the watch is in the log, about the table's host.
    assert rows == [(mod.pk, alice.pk, str(access.ON_THE_SOCKET))]
    await socket.disconnect()


@sockets_db
async def test_a_second_socket_and_a_page_within_the_hour_write_no_second_row(
    private, socket_mod
) -> None:
    mod, mod_client = socket_mod, Client()
    await database_sync_to_async(mod_client.force_login)(mod)
    first = await connect(private, mod)
    second = await connect(private, mod)
    page = await database_sync_to_async(mod_client.get)(reverse("games:table", args=[private.pk]))

    assert page.status_code == 200
    assert len(await database_sync_to_async(watch_rows)()) == 1
    await first.disconnect()
    await second.disconnect()


def test_a_watch_is_logged_again_after_the_hour(private, mod, mod_client) -> None:
    url = reverse("games:table", args=[private.pk])
    mod_client.get(url)
    earlier = timezone.now() - watches.WATCH_LOGGED_EVERY - timedelta(minutes=1)
    ModerationLog.objects.filter(action="watch").update(created_at=earlier)

    mod_client.get(url)

    assert len(watch_rows()) == 2


def test_a_player_at_their_own_private_table_is_not_logged(private, alice, bob) -> None:
    client = Client()
    client.force_login(bob)

    client.get(reverse("games:table", args=[private.pk]))

    assert watch_rows() == []


def test_a_moderator_who_sits_at_the_table_is_not_logged(make_table, mod) -> None:
    table = make_table(players=[mod], start=True, turn_seconds=None, public=False)
    client = Client()
    client.force_login(mod)

    client.get(reverse("games:table", args=[table.pk]))

    assert watch_rows() == []


def test_a_moderator_on_a_public_table_is_not_logged(make_table, bob, mod_client) -> None:
    table = make_table(players=[bob], start=True, turn_seconds=None)

    mod_client.get(reverse("games:table", args=[table.pk]))

    assert watch_rows() == []


def test_a_moderator_opening_another_players_private_finished_game_is_logged(
    private, mod, mod_client
) -> None:
    game = play_to_the_end(private)

    page = mod_client.get(reverse("games:finished_game", args=[game.pk]))

    assert page.status_code == 200
    assert watch_rows() == [(mod.pk, private.host_id, str(access.AS_A_FINISHED_GAME))]


def test_a_moderator_downloading_a_private_games_record_is_logged(private, mod, mod_client) -> None:
    game = play_to_the_end(private)

    record = mod_client.get(reverse("games:record_json", args=[game.pk]))

    assert record.status_code == 200
    assert watch_rows() == [(mod.pk, private.host_id, str(access.AS_A_FINISHED_GAME))]
