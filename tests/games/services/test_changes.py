"""``taki-change/1``: what a move changed at a table, as the processes send it to each other.

Every kind of change goes through JSON and comes back the same (as zulip checks every event
it sends): moves of every action type, by a person, a bot and a timeout, a seat a bot took
over, a turn clock running, the move that wins a rated game with its rating changes. A message
of another format, or one that does not read, is refused cleanly.
"""

from __future__ import annotations

import json
import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games.engine import GameState, make_bot
from games.engine.actions import ACTION_TYPES
from games.engine.record import new_record
from games.models import Game, Seat
from games.services import moves
from games.services.changes import FORMAT, SeatState, TableChange, UnreadableChange
from tests.play import WINNING_RUN, play_to_the_end


def through_json(change: TableChange) -> TableChange:
    """``change`` as another process reads it: written as JSON text, and read back."""
    return TableChange.from_json(json.loads(json.dumps(change.to_json())))


def engine_changes(players: int, seed: int) -> list[TableChange]:
    """The change of every action of a game random bots play, built as the move path builds
    them, without a table: every action type comes up in a few such games."""
    rng = random.Random(seed)
    record = new_record([f"p{seat}" for seat in range(players)], rng)
    game = record.new_game()
    bots = [make_bot("random", random.Random(rng.getrandbits(32))) for _ in range(players)]
    seats = tuple(SeatState(seat, None, None, "random", 0, "", None) for seat in range(players))
    changes, digest = [], ""
    while game.winner is None and len(changes) < 3000:
        seat = game.seats_to_act()[0]
        action = bots[seat].choose(game, seat)
        events = game.apply(action)
        move = {
            "seq": len(changes),
            "seat": seat,
            "source": "bot",
            "events": [event.to_json() for event in events],
            "action": action.to_json(),
        }
        changes.append(
            TableChange(
                table_id=1,
                status="finished" if game.winner is not None else "playing",
                game_id=1,
                version=len(changes) + 1,
                digest=f"{len(changes) + 1:064x}",
                previous_digest=digest,
                players=tuple(record.players),
                turn_deadline=None,
                winner=game.winner,
                seats=seats,
                move=move,
                snapshot=game.to_snapshot(),
            )
        )
        digest = changes[-1].digest
    return changes


def test_a_move_of_every_action_type_comes_back_from_json_the_same() -> None:
    seen: set[str] = set()
    for seed in range(6):
        for change in engine_changes(players=2 + seed % 3, seed=seed):
            assert through_json(change) == change
            seen.add(change.move["action"]["type"])
    assert seen == ACTION_TYPES


def test_the_game_read_from_a_change_is_the_game_after_the_move() -> None:
    change = engine_changes(players=3, seed=11)[40]

    read = through_json(change).game_state()

    assert isinstance(read, GameState)
    assert read.to_snapshot() == change.snapshot
    assert read.legal_actions(read.current) == change.game_state().legal_actions(read.current)


@pytest.mark.django_db
def test_the_changes_of_a_table_s_moves_come_back_from_json_the_same(
    make_table, alice, bob, states
) -> None:
    # A timed table: alice plays, bob times out until a bot takes his seat, a bot plays.
    table = make_table(seat_count=3, players=[bob], bot_seats=1, turn_seconds=30, start=True)
    later = timezone.now()
    for _ in range(60):
        game = Game.objects.get(table=table)
        if game.finished:
            break
        engine = game.engine()
        seat = engine.seats_to_act()[0]
        if seat == 0:
            action = make_bot("greedy", random.Random(seat)).choose(engine, seat).to_json()
            moves.submit_action(table.pk, alice, {**action, "version": game.version})
        else:  # the bot's move, or bob's turn running out
            later += timedelta(seconds=31)
            moves.advance(game.pk, later)

    for change in states:
        assert through_json(change) == change
    sources = {change.move["source"] for change in states}
    assert sources == {"player", "bot", "timeout"}
    assert any(change.turn_deadline is not None for change in states)
    taken = [seat for seat in states[-1].seats if seat.replaced_because]
    assert [seat.replaced_because for seat in taken] == [Seat.Takeover.TIMEOUTS]


@pytest.mark.django_db
def test_the_move_that_wins_a_rated_game_comes_back_with_its_rating_changes(
    make_table, alice, bob, rig, states
) -> None:
    table = make_table(players=[bob], start=True, turn_seconds=None, rated=True)
    rig(table, WINNING_RUN, leading="red:9")

    play_to_the_end(table)

    last = states[-1]
    assert last.winner == 0 and last.status == "finished" and last.rating_changes
    assert through_json(last) == last


@pytest.mark.parametrize(
    "message",
    [
        {"format": "taki-change/2"},
        {"format": "taki-record/1"},
        {"table": {"id": 1}},
        ["taki-change/1"],
        None,
    ],
)
def test_a_message_of_another_format_is_refused(message) -> None:
    with pytest.raises(UnreadableChange, match="not a taki-change/1 message"):
        TableChange.from_json(message)


def bent(change: TableChange, path: tuple[str, ...], value) -> dict:
    """The JSON of ``change`` with the field at ``path`` set to ``value`` (or removed)."""
    data = json.loads(json.dumps(change.to_json()))
    *parents, last = path
    holder = data
    for key in parents:
        holder = holder[key]
    if value is KeyError:
        del holder[last]
    else:
        holder[last] = value
    return data


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("table", "id"), "7"),
        (("table", "id"), True),
        (("game",), KeyError),
        (("game", "version"), 4.5),
        (("game", "players"), [1, 2]),
        (("game", "turn_deadline"), "soon"),
        (("game", "winner"), "0"),
        (("seats",), [{"position": 0}]),
        (("move",), []),
        (("snapshot",), "secret"),
        (("rating_changes",), [{"user_id": 1}]),
    ],
)
def test_a_taki_change_that_does_not_read_is_refused(path, value) -> None:
    change = engine_changes(players=2, seed=1)[0]

    with pytest.raises(UnreadableChange, match="does not read"):
        TableChange.from_json(bent(change, path, value))


def test_the_format_is_named_with_its_version() -> None:
    change = engine_changes(players=2, seed=2)[0]

    assert change.to_json()["format"] == FORMAT == "taki-change/1"
