"""The moderation screens: tables, games and the append-only move log."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Game, Move, Table
from games.services import moves, tables
from tests.play import unkeyed

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator_client(client: Client, moderator) -> Client:
    client.force_login(moderator)
    return client


@pytest.fixture
def running(alice, bob, make_table) -> Table:
    table = make_table(name="Running", players=[bob], start=True)
    game = Game.objects.get(table=table)
    seat = game.engine().seats_to_act()[0]
    moves.submit_action(table.pk, [alice, bob][seat], {"type": "draw", "version": 0})
    return table


@pytest.fixture
def finished_game(alice) -> Game:
    table = tables.create_table(alice, name="Done", seat_count=2, bot_seats=1, turn_seconds=5)
    game = tables.start_game(table.pk, alice)
    now = timezone.now()
    while not game.finished:
        now = max(now, game.next_due)
        moves.advance(game.pk, now=now)
        game.refresh_from_db()
    return game


def test_it_lists_the_tables_with_their_seats_taken(moderator_client, running, make_table) -> None:
    make_table(name="Waiting", seat_count=4, bot_seats=1)

    page = moderator_client.get(reverse("admin:games_table_changelist")).content.decode()

    assert "Running" in page and "Waiting" in page
    assert "2/2" in page and "2/4" in page


def test_it_finds_tables_by_the_hosts_name(moderator_client, bob, make_table) -> None:
    make_table(name="Alice's table")
    make_table(name="Bob's table", host=bob)

    response = moderator_client.get(reverse("admin:games_table_changelist"), {"q": "bob"})

    assert list(response.context["cl"].result_list.values_list("name", flat=True)) == [
        "Bob's table"
    ]


def test_aborting_tables_stops_their_games(
    moderator_client, running, told, django_capture_on_commit_callbacks
) -> None:

    with django_capture_on_commit_callbacks(execute=True):
        response = moderator_client.post(
            reverse("admin:games_table_changelist"),
            {"action": "abort_games", "_selected_action": [running.pk], "reason": "stuck"},
            follow=True,
        )

    assert "1 table aborted." in response.content.decode()
    running.refresh_from_db()
    assert running.status == Table.Status.ABORTED
    assert Game.objects.get(table=running).next_due is None
    assert ("lobby", {"type": "lobby.update"}) in sent(told)
    assert (
        f"table-{running.pk}",
        {"type": "table.update", "table": running.pk, "version": None},
    ) in sent(told)


def test_the_move_log_cannot_be_changed_from_the_admin(moderator_client, running) -> None:
    move = Move.objects.get()

    change = moderator_client.get(reverse("admin:games_move_change", args=[move.pk]))
    add = moderator_client.get(reverse("admin:games_move_add"))
    delete = moderator_client.post(reverse("admin:games_move_delete", args=[move.pk]))

    assert change.status_code == 200  # to read
    assert 'name="_save"' not in change.content.decode()
    assert add.status_code == 403
    assert delete.status_code == 403
    assert Move.objects.filter(pk=move.pk).exists()


def test_a_game_is_read_only_and_shows_its_last_verification(moderator_client, running) -> None:
    game = Game.objects.get(table=running)
    moderator_client.post(
        reverse("admin:games_game_changelist"),
        {"action": "verify_games", "_selected_action": [game.pk]},
    )

    response = moderator_client.get(reverse("admin:games_game_change", args=[game.pk]))

    page = response.content.decode()
    assert response.status_code == 200
    assert 'name="_save"' not in page
    assert "the log holds (1 moves, by moderator" in page
    # Neither the deck nor the snapshot (every hand) is shown.
    assert "draw_pile" not in page and "Deck:" not in page


def test_the_verify_action_reports_a_tampered_game(moderator_client, running) -> None:
    game = Game.objects.get(table=running)
    Move.objects.filter(game=game).update(digest="0" * 64)

    response = moderator_client.post(
        reverse("admin:games_game_changelist"),
        {"action": "verify_games", "_selected_action": [game.pk]},
        follow=True,
    )

    assert f"does not match the state of games: {game.pk}" in response.content.decode()


def test_the_record_of_a_running_game_is_refused(moderator_client, running) -> None:
    game = Game.objects.get(table=running)

    response = moderator_client.get(reverse("admin:games_game_record", args=[game.pk]))

    assert response.status_code == 403
    assert response.json()["error"] == "forbidden"


def test_a_finished_games_record_is_linked_and_exported(moderator_client, finished_game) -> None:
    url = reverse("admin:games_game_record", args=[finished_game.pk])

    listing = moderator_client.get(reverse("admin:games_game_changelist")).content.decode()
    record = moderator_client.get(url).json()

    assert f'href="{url}"' in listing
    assert record["game_id"] == finished_game.pk
    assert len(record["actions"]) == finished_game.version


def test_players_cannot_open_the_admin(client: Client, alice, running) -> None:
    client.force_login(alice)
    game = Game.objects.get(table=running)

    response = client.get(reverse("admin:games_game_record", args=[game.pk]))

    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]


def sent(told) -> list[tuple[str, dict]]:
    """What the services sent, each message without its random key."""
    return [(group, unkeyed(message)) for group, message in told.sent]
