"""moves.advance: the bots' moves and the R23 timeouts, played when they fall due."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import presenters
from games.engine import replay
from games.engine.record import Record
from games.models import Game, Move, Table
from games.services import history, moves, tables

pytestmark = pytest.mark.django_db

# Seat 0 starts on red:5. Seat 1 holds a Breaker, seat 2 a King.
HANDS = [
    ["red:1", "red:3", "red:taki", "red:plus2", "plus3", "blue:1", "green:1", "yellow:1"],
    ["red:6", "red:7", "blue:6", "blue:7", "green:6", "green:7", "yellow:6", "breaker"],
    ["red:8", "red:9", "blue:8", "blue:9", "green:8", "green:9", "yellow:8", "king"],
]


def game_of(table: Table) -> Game:
    return Game.objects.get(table=table)


def submit(table: Table, user, **action) -> None:
    moves.submit_action(table.pk, user, {**action, "version": game_of(table).version})


def last_move(table: Table) -> Move:
    return game_of(table).moves.order_by("-seq").first()


@pytest.fixture
def two_people(alice, bob, make_table, rig) -> Table:
    """alice (seat 0, to play) and bob, 30 s a turn."""
    table = make_table(players=[bob], start=True)
    rig(table, HANDS[:2])
    return table


@pytest.fixture
def three_people(alice, bob, carol, make_table, rig) -> Table:
    table = make_table(seat_count=3, players=[bob, carol], start=True)
    rig(table, HANDS)
    return table


def test_nothing_is_played_before_it_is_due(alice, make_table, rig) -> None:
    table = make_table(bot_seats=1, start=True)
    game = rig(table, HANDS[:2], first_player=1)

    due = moves.advance(game.pk, now=game.next_due - timedelta(milliseconds=1))

    assert due == game.next_due
    assert game_of(table).version == 0


def test_a_bot_plays_when_due_and_the_next_bot_waits_its_turn(alice, make_table, rig) -> None:
    table = make_table(seat_count=3, bot_seats=2, start=True)
    game = rig(table, HANDS, first_player=1)
    now = game.next_due

    due = moves.advance(game.pk, now=now)

    move = last_move(table)
    assert (move.seq, move.seat, move.source) == (0, 1, Move.Source.BOT)
    # Seat 2 is a bot too: it moves only after the pause people need to follow.
    assert due == game_of(table).next_due == now + moves.BOT_DELAY
    assert game_of(table).version == 1


def test_after_a_bot_a_person_gets_the_full_turn_time(alice, make_table, rig) -> None:
    table = make_table(bot_seats=1, turn_seconds=20, start=True)
    game = rig(table, HANDS[:2], first_player=1)
    now = game.next_due

    moves.advance(game.pk, now=now)

    game = game_of(table)
    assert game.engine().seats_to_act() == [0]
    assert game.turn_deadline == game.next_due == now + timedelta(seconds=20)


def test_a_late_player_draws_a_card(two_people) -> None:
    deadline = game_of(two_people).turn_deadline

    moves.advance(game_of(two_people).pk, now=deadline)

    move = last_move(two_people)
    assert (move.seat, move.source, move.action) == (0, "timeout", {"type": "draw", "player": 0})
    assert two_people.seats.get(position=0).timeouts == 1
    game = game_of(two_people)
    assert game.turn_deadline == deadline + timedelta(seconds=30)  # bob's turn, from then


def test_a_late_player_takes_the_plus2_stack(two_people, alice) -> None:
    submit(two_people, alice, type="play", card="red:plus2")

    moves.advance(game_of(two_people).pk, now=game_of(two_people).turn_deadline)

    move = last_move(two_people)
    assert move.action == {"type": "draw", "player": 1}
    assert {"kind": "drew", "seat": 1, "count": 2, "reason": "plus2"} in move.events


def test_late_players_accept_a_pending_plus3(three_people, alice) -> None:
    submit(three_people, alice, type="play", card="plus3")

    moves.advance(game_of(three_people).pk, now=game_of(three_people).turn_deadline)

    answers = list(game_of(three_people).moves.filter(seq__gte=1).order_by("seq"))
    assert [(m.seat, m.source, m.action["type"]) for m in answers] == [
        (1, "timeout", "accept"),
        (2, "timeout", "accept"),
    ]
    assert [len(hand) for hand in game_of(three_people).engine().hands] == [7, 11, 11]
    assert [s.timeouts for s in three_people.seats.order_by("position")] == [0, 1, 1]


def test_a_bot_answers_a_plus3_while_a_person_still_may(alice, bob, make_table, rig) -> None:
    table = make_table(seat_count=3, bot_seats=1, players=[bob], start=True)  # bot on seat 2
    rig(table, HANDS)
    submit(table, alice, type="play", card="plus3")
    game = game_of(table)
    deadline = game.turn_deadline
    assert game.next_due < deadline

    moves.advance(game.pk, now=game.next_due)

    move = last_move(table)
    assert (move.seat, move.source, move.action["type"]) == (2, "bot", "accept")
    game = game_of(table)
    assert game.engine().seats_to_act() == [1]
    assert game.turn_deadline == game.next_due == deadline  # bob's clock did not restart


def test_a_late_player_passes_after_a_lone_taki(two_people, alice) -> None:
    submit(two_people, alice, type="play", card="red:taki")

    moves.advance(game_of(two_people).pk, now=game_of(two_people).turn_deadline)

    assert last_move(two_people).action == {"type": "pass", "player": 0}
    assert game_of(two_people).engine().seats_to_act() == [1]


def test_a_late_player_closes_their_taki_run(two_people, alice) -> None:
    submit(two_people, alice, type="play", card="red:taki")
    submit(two_people, alice, type="play", card="red:3")

    moves.advance(game_of(two_people).pk, now=game_of(two_people).turn_deadline)

    assert last_move(two_people).action == {"type": "close_taki", "player": 0}
    assert game_of(two_people).engine().taki_run is None


def test_three_timeouts_in_a_row_give_the_seat_to_a_bot(two_people, alice, bob) -> None:
    for turn in range(3):
        moves.advance(game_of(two_people).pk, now=game_of(two_people).turn_deadline)
        if turn < 2:
            assert two_people.seats.get(position=0).timeouts == turn + 1
            submit(two_people, bob, type="draw")

    seat = two_people.seats.get(position=0)
    assert (seat.user, seat.bot, seat.replaced_user, seat.timeouts) == (None, "greedy", alice, 0)
    assert game_of(two_people).version == 5
    two_people.refresh_from_db()
    assert two_people.status == Table.Status.PLAYING


def test_a_move_of_ones_own_between_timeouts_starts_the_count_again(two_people, alice, bob) -> None:
    moves.advance(game_of(two_people).pk, now=game_of(two_people).turn_deadline)
    moves.advance(game_of(two_people).pk, now=game_of(two_people).turn_deadline)
    submit(two_people, alice, type="draw")

    assert [s.timeouts for s in two_people.seats.order_by("position")] == [0, 1]


def test_a_game_with_bots_runs_to_its_end_and_its_log_replays(alice, make_table) -> None:
    table = make_table(seat_count=3, bot_seats=2, turn_seconds=15, start=True)
    now = timezone.now()
    for _ in range(3000):
        game = game_of(table)
        if game.finished:
            break
        now = max(now, game.next_due)
        moves.advance(game.pk, now=now)
        assert history.verify_game(game_of(table))

    game = game_of(table)
    assert game.finished
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert set(game.moves.values_list("source", flat=True)) <= {"bot", "timeout"}
    seat = table.seats.get(position=0)
    assert seat.replaced_user == alice or game.moves.filter(source="timeout").count() < 3
    result = replay(Record.from_json(history.export_record(game)))
    assert result.ok and result.applied == game.version
    assert result.game.to_snapshot() == game.state


def test_a_game_that_is_not_running_is_left_alone(alice, make_table) -> None:
    table = make_table(bot_seats=1, start=True)
    game = game_of(table)
    tables.abort_table(table.pk)

    assert moves.advance(game.pk, now=game.started_at + timedelta(hours=1)) is None
    assert moves.advance(12345) is None
    assert game_of(table).version == 0


def test_the_deadline_is_kept_in_the_database(two_people, alice) -> None:
    game = game_of(two_people)
    assert game.turn_deadline == game.next_due

    # A fresh process reads the time left from the row alone.
    view = presenters.read_table(two_people.pk)

    assert view.deadline == game.turn_deadline
    assert 25 <= view.seconds_left <= 30
    assert view.seats[0].seconds_left == view.seconds_left
    assert view.seats[1].seconds_left is None
