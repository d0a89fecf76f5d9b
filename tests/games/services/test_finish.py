"""Every way a game ends goes through games.services.finish, and every page says the same about
it: the live table (its result, seats and log), the finished game's page and its replay, the
profiles and the statistics."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import presenters
from games.models import Game, Seat, Table
from games.services import abandon, finish, history, moves, stats, tables
from moderation import actions
from tests.play import WINNING_RUN

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("nobody_connected")]


def play(table: Table, user, card: str) -> None:
    version = Game.objects.get(table=table).version
    moves.submit_action(
        table.pk, user, {"type": "play", "card": card, "version": version, "last_card": True}
    )


def pushed_to(table: Table, user) -> str:
    """What the table's socket pushes to ``user``: result, seats, board, log, hand."""
    return presenters.table_fragments(presenters.read_table(table.pk), user)


def profile(client: Client, username: str) -> str:
    return client.get(reverse("games:profile", args=[username])).content.decode()


def game_page(client: Client, game: Game, step: int | None = None) -> str:
    url = reverse("games:finished_game", args=[game.pk])
    return client.get(url if step is None else f"{url}?move={step}").content.decode()


def test_a_seat_a_bot_took_over_wins_for_the_bot_and_the_game_counts_as_left(
    client: Client, alice, bob, make_table, rig
) -> None:
    table = make_table(players=[bob], start=True, turn_seconds=None)
    rig(table, WINNING_RUN, leading="red:9")
    for card in WINNING_RUN[0][:7]:
        play(table, alice, card)
    tables.leave_table(table.pk, alice)  # one card from winning
    moves.advance(Game.objects.get(table=table).pk, timezone.now() + timedelta(hours=1))

    game = Game.objects.get(table=table)
    table.refresh_from_db()
    assert (table.status, game.winner, game.version) == (Table.Status.FINISHED, 0, 8)
    assert game.finished_at is not None and game.next_due is None
    assert history.verify_game(game)  # the move log holds no takeover: still the record
    seat = Seat.objects.get(table=table, position=0)
    assert (seat.replaced_user, seat.replaced_because, seat.replaced_at) == (alice, "left", 7)
    live = pushed_to(table, bob)
    assert "Bot (for alice) wins!" in live and "alice wins!" not in live
    assert '<span class="seat__name">Bot (for alice)</span>' in live
    assert '<li value="7" class="events__takeover">alice left; a bot plays for them</li>' in live
    assert '<li value="8">Bot (for alice) played red 8 — ' in live
    assert "Bot (for alice) wins the game</li>" in live
    assert "alice played red 7" in live
    page = game_page(client, game)
    assert "Bot (for alice) won." in page
    assert '<li class="moves__takeover">alice left; a bot plays for them</li>' in page
    assert "Bot (for alice) played red 8 — " in page
    assert "Bot (for alice) wins the game</a>" in page
    assert "alice wins" not in page
    assert "Move 8:</strong> Bot (for alice) played red 8" in game_page(client, game, 8)
    assert "Move 7:</strong> alice played red 7" in game_page(client, game, 7)
    alice_stats = stats.player_stats(alice)
    assert (alice_stats["played"], alice_stats["won"], alice_stats["left"]) == (1, 0, 1)
    assert stats.leaver_stats(alice) == {"left": 1, "timeouts": 0, "aborted": 0}
    assert (stats.player_stats(bob)["played"], stats.player_stats(bob)["won"]) == (1, 0)
    alice_page = profile(client, "alice")
    assert '<dd data-stat="won">0</dd>' in alice_page
    assert '<dd data-stat="left">1</dd>' in alice_page
    assert 'data-result="left"' in alice_page
    assert '<a href="/players/alice/">Bot (for alice)</a>' in alice_page
    assert 'data-result="lost"' in profile(client, "bob")


def test_the_last_person_leaving_abandons_the_game(client: Client, alice, bob, make_table) -> None:
    table = make_table(players=[bob], start=True, turn_seconds=None)

    tables.leave_table(table.pk, alice)
    tables.leave_table(table.pk, bob)

    game = Game.objects.get(table=table)
    table.refresh_from_db()
    assert table.status == Table.Status.ABANDONED
    assert game.winner is None and game.finished_at is not None and game.next_due is None
    live = pushed_to(table, None)
    assert "This game was abandoned: its players all left." in live
    assert '<span class="seat__name">Bot (for alice)</span>' in live
    assert '<span class="seat__name">Bot (for bob)</span>' in live
    assert "alice left; a bot plays for them" in live
    assert "bob left; a bot plays for them" in live
    assert client.get(reverse("games:finished_game", args=[game.pk])).status_code == 404
    for person in (alice, bob):
        assert stats.player_stats(person)["played"] == 0
        assert stats.leaver_stats(person) == {"left": 1, "timeouts": 0, "aborted": 0}
        assert stats.games_left(person) == 1
        page = profile(client, person.get_username())
        assert '<dd data-stat="left">1</dd>' in page and '<dd data-stat="played">0</dd>' in page


def test_an_untimed_game_left_alone_is_abandoned_by_the_clock(
    client: Client, alice, bob, make_table
) -> None:
    table = make_table(players=[bob], start=True, turn_seconds=None)
    later = timezone.now() + abandon.ABANDON_AFTER + timedelta(minutes=1)

    assert abandon.end_abandoned(later) == [table.pk]

    game = Game.objects.get(table=table)
    table.refresh_from_db()
    assert table.status == Table.Status.ABANDONED
    assert game.winner is None and game.finished_at == later and game.next_due is None
    live = pushed_to(table, alice)
    assert "This game was abandoned: its players all left." in live
    assert '<span class="seat__name">alice</span>' in live
    assert "a bot plays for them" not in live
    for person in (alice, bob):
        assert stats.player_stats(person)["played"] == 0
        assert stats.leaver_stats(person) == {"left": 0, "timeouts": 0, "aborted": 0}
        assert '<dd data-stat="left">0</dd>' in profile(client, person.get_username())


def test_a_moderators_abort_ends_the_game_as_aborted(
    client: Client, alice, bob, moderator, make_table
) -> None:
    table = make_table(players=[bob], start=True)

    assert actions.abort(moderator, table, "cheating")

    game = Game.objects.get(table=table)
    table.refresh_from_db()
    assert table.status == Table.Status.ABORTED
    assert game.winner is None and game.finished_at is not None
    assert (game.next_due, game.turn_deadline) == (None, None)
    assert "This table was closed." in pushed_to(table, bob)
    assert client.get(reverse("games:finished_game", args=[game.pk])).status_code == 404
    for person in (alice, bob):
        assert stats.player_stats(person)["played"] == 0
        assert stats.leaver_stats(person) == {"left": 0, "timeouts": 0, "aborted": 1}
    assert not actions.abort(moderator, table, "again")  # it has ended already


def test_a_ban_of_the_last_person_forfeits_the_game(
    client: Client, alice, moderator, make_table
) -> None:
    table = tables.play_against_bots(alice, opponents=1)

    actions.ban(moderator, alice, "abuse")

    game = Game.objects.get(table=table)
    table.refresh_from_db()
    assert table.status == finish.STATUS[finish.Ending.FORFEITED] == Table.Status.ABANDONED
    assert game.winner is None and game.finished_at is not None and game.next_due is None
    seat = Seat.objects.get(table=table, position=0)
    assert (seat.replaced_user, seat.replaced_because, seat.replaced_at) == (alice, "banned", 0)
    live = pushed_to(table, None)
    assert '<span class="seat__name">Bot (for alice)</span>' in live
    assert "alice was banned; a bot plays for them" in live
    assert "This game was abandoned: its players all left." in live
    assert stats.player_stats(alice)["played"] == 0
    assert stats.leaver_stats(alice) == {"left": 1, "timeouts": 0, "aborted": 0}
    assert '<dd data-stat="left">1</dd>' in profile(client, "alice")


def test_three_timeouts_say_why_a_bot_took_the_seat(alice, bob, make_table) -> None:
    table = make_table(players=[bob], start=True, turn_seconds=15)
    game = Game.objects.get(table=table)
    now = timezone.now()
    while not Seat.objects.filter(table=table, replaced_because="timeouts").exists():
        now += timedelta(seconds=16)
        moves.advance(game.pk, now=now)

    seat = Seat.objects.get(table=table, replaced_because="timeouts")
    assert seat.replaced_at == Game.objects.get(table=table).moves.filter(source="timeout").count()
    name = seat.replaced_user.get_username()
    assert f"{name} timed out three times; a bot plays for them" in pushed_to(table, None)
    assert stats.leaver_stats(seat.replaced_user)["timeouts"] == 1
    assert stats.games_left(seat.replaced_user) == 1


def test_a_win_needs_a_winning_seat_and_only_a_win_has_one(alice, make_table) -> None:
    table = make_table()
    with pytest.raises(ValueError):
        finish.finish(table, finish.Ending.WON, now=timezone.now())
    with pytest.raises(ValueError):
        finish.finish(table, finish.Ending.ABORTED, now=timezone.now(), winner=0)
