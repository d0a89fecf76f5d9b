"""moves.submit_action: the one place a player's move is applied."""

from __future__ import annotations

import hashlib
import threading
from typing import Any

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games.engine import make_bot
from games.models import Game, Move, Table
from games.services import history, moves
from games.services.errors import ServiceError
from tests.side_by_side import side_by_side

pytestmark = pytest.mark.django_db

# Seat 0 starts on red:5. Seat 1 holds a Breaker, seat 2 a King.
HANDS = [
    ["red:1", "red:3", "red:taki", "red:plus2", "plus3", "blue:1", "green:1", "yellow:1"],
    ["red:6", "red:7", "blue:6", "blue:7", "green:6", "green:7", "yellow:6", "breaker"],
    ["red:8", "red:9", "blue:8", "blue:9", "green:8", "green:9", "yellow:8", "king"],
]


@pytest.fixture
def table(alice, bob, make_table, rig) -> Table:
    """alice (seat 0, to play) and bob (seat 1), 30 s a turn."""
    table = make_table(players=[bob], start=True)
    rig(table, HANDS[:2])
    return table


@pytest.fixture
def table_of_three(alice, bob, carol, make_table, rig) -> Table:
    table = make_table(seat_count=3, players=[bob, carol], start=True)
    rig(table, HANDS)
    return table


def submit(table: Table, user, version: int | None = None, **action: Any):
    if version is None:
        version = Game.objects.get(table=table).version
    return moves.submit_action(table.pk, user, {**action, "version": version})


def refused(table: Table, user, payload: Any) -> str:
    """Submit a payload that must be refused; check nothing changed; return the error code."""
    game = Game.objects.get(table=table)
    before = (game.version, game.state, game.moves.count())
    with pytest.raises(ServiceError) as caught:
        moves.submit_action(table.pk, user, payload)
    game.refresh_from_db()
    assert (game.version, game.state, game.moves.count()) == before
    assert caught.value.message  # a message to show the player
    return caught.value.code


def test_it_applies_a_legal_move_and_logs_it(table, alice) -> None:
    events = submit(table, alice, type="play", card="red:3")

    assert [e.kind for e in events] == ["played"]
    game = Game.objects.get(table=table)
    assert game.version == 1
    assert sorted(c.code for c in game.engine().hands[0]) == sorted(
        code for code in HANDS[0] if code != "red:3"
    )
    move = game.moves.get()
    assert (move.seq, move.seat, move.source) == (0, 0, Move.Source.PLAYER)
    assert move.action == {"type": "play", "player": 0, "card": "red:3"}
    assert move.events == [{"kind": "played", "seat": 0, "card": "red:3", "color": "red"}]
    assert move.digest == Move.chain("", move.action)


def test_every_move_is_chained_to_the_one_before(table, alice, bob) -> None:
    submit(table, alice, type="play", card="red:3")
    submit(table, bob, type="play", card="red:6")
    submit(table, alice, type="draw")

    first, second, third = Game.objects.get(table=table).moves.order_by("seq")
    assert second.digest == Move.chain(first.digest, second.action)
    assert third.digest == Move.chain(second.digest, third.action)
    assert third.action == {"type": "draw", "player": 0}
    assert history.verify_game(Game.objects.get(table=table))


def test_a_digest_is_sha256_of_the_previous_digest_and_the_canonical_json_of_the_action() -> None:
    # The form every stored log was chained with: keys sorted, no spaces, ASCII only.
    action = {"type": "play", "player": 1, "card": "red:3", "color": "grün"}
    canonical = '{"card":"red:3","color":"gr\\u00fcn","player":1,"type":"play"}'
    previous = "ab" * 32

    assert (
        Move.chain(previous, action) == hashlib.sha256((previous + canonical).encode()).hexdigest()
    )
    assert Move.chain("", action) == hashlib.sha256(canonical.encode()).hexdigest()


def test_it_refuses_a_move_out_of_turn(table, bob) -> None:
    code = refused(table, bob, {"type": "play", "card": "red:6", "version": 0})

    assert code == "not_your_turn"


def test_it_takes_the_seat_from_the_user_never_from_the_browser(table, alice, bob) -> None:
    # bob claims to be seat 0, whose turn it is.
    code = refused(table, bob, {"type": "draw", "player": 0, "version": 0})
    assert code == "not_your_turn"

    # alice claims to be seat 1: she still plays her own seat.
    submit(table, alice, type="play", card="red:3", player=1)
    assert Game.objects.get(table=table).moves.get().seat == 0


def test_it_refuses_a_card_the_player_does_not_hold(table, alice) -> None:
    code = refused(table, alice, {"type": "play", "card": "red:6", "version": 0})

    assert code == "card_not_in_hand"


def test_it_refuses_a_stale_version(table, alice) -> None:
    code = refused(table, alice, {"type": "play", "card": "red:3", "version": 3})

    assert code == "stale"


def test_a_stale_version_is_refused_under_the_game_s_lock_and_writes_nothing(table, alice) -> None:
    submit(table, alice, type="play", card="red:3")

    with CaptureQueriesContext(connection) as queries, pytest.raises(ServiceError) as caught:
        moves.submit_action(table.pk, alice, {"type": "draw", "version": 0})

    assert caught.value.code == "stale"
    statements = [query["sql"] for query in queries if "SAVEPOINT" not in query["sql"]]
    assert [sql.split()[0] for sql in statements] == ["SELECT"]  # the lock, then the refusal
    assert Game.objects.get(table=table).version == 1


def test_storing_a_move_takes_three_queries_and_keeps_the_last_digest_on_the_game(
    table, alice
) -> None:
    with CaptureQueriesContext(connection) as queries:
        moves.submit_action(table.pk, alice, {"type": "play", "card": "red:3", "version": 0})

    statements = [query["sql"] for query in queries if "SAVEPOINT" not in query["sql"]]
    # Lock the game and read its seats, log the move, save the game.
    assert [sql.split()[0] for sql in statements] == ["SELECT", "INSERT", "UPDATE"]
    game = Game.objects.get(table=table)
    assert game.last_digest == game.moves.get(seq=0).digest


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        ("play red:3", "bad_request"),
        (["play", "red:3"], "bad_request"),
        ({"type": "play", "card": "red:3"}, "bad_request"),
        ({"type": "play", "card": "red:3", "version": "0"}, "bad_request"),
        ({"type": "play", "card": "red:3", "version": True}, "bad_request"),
        ({"type": "dance", "version": 0}, "bad_action"),
        ({"type": "play", "version": 0}, "bad_action"),
        ({"type": "play", "card": "red:2", "version": 0}, "bad_action"),
        ({"type": "play", "card": "red:3", "last_card": "yes", "version": 0}, "bad_action"),
        ({"type": "play", "card": "red:3", "color": "red", "version": 0}, "color_required"),
        ({"type": "play", "card": "blue:1", "version": 0}, "illegal_card"),
    ],
)
def test_it_refuses_a_malformed_or_illegal_payload(table, alice, payload, code) -> None:
    assert refused(table, alice, payload) == code


def test_it_refuses_someone_who_does_not_sit_at_the_table(table, carol) -> None:
    code = refused(table, carol, {"type": "draw", "version": 0})

    assert code == "not_seated"


def test_it_refuses_a_player_banned_since_the_socket_opened(table, alice) -> None:
    type(alice).objects.filter(pk=alice.pk).update(is_active=False)  # alice stays in memory

    assert refused(table, alice, {"type": "play", "card": "red:3", "version": 0}) == "forbidden"


def test_it_refuses_a_move_before_the_game_starts(alice, make_table) -> None:
    table = make_table()

    with pytest.raises(ServiceError) as caught:
        moves.submit_action(table.pk, alice, {"type": "draw", "version": 0})

    assert caught.value.code == "not_started"


def test_it_refuses_a_move_at_an_unknown_table(alice) -> None:
    with pytest.raises(ServiceError) as caught:
        moves.submit_action(404, alice, {"type": "draw", "version": 0})

    assert caught.value.code == "not_found"


def test_a_doubled_click_is_applied_once(table, alice) -> None:
    submit(table, alice, version=0, type="play", card="red:1")

    code = refused(table, alice, {"type": "play", "card": "red:1", "version": 0})

    assert code == "stale"
    assert Game.objects.get(table=table).moves.count() == 1


@pytest.mark.django_db(transaction=True)
def test_concurrent_clicks_on_one_game_are_serialised(alice, bob, make_table, rig) -> None:
    table = make_table(players=[bob], start=True)
    rig(table, HANDS[:2])

    def click() -> str:
        try:
            moves.submit_action(table.pk, alice, {"type": "draw", "version": 0})
        except ServiceError as exc:
            return exc.code
        return "applied"

    outcomes = side_by_side(click)

    assert sorted(outcomes) == ["applied", "stale"]
    game = Game.objects.get(table=table)
    assert (game.version, game.moves.count()) == (1, 1)
    assert len(game.engine().hands[0]) == 9
    assert history.verify_game(game)


def test_every_waiting_seat_may_answer_a_plus3(table_of_three, alice, bob, carol) -> None:
    submit(table_of_three, alice, type="play", card="plus3")
    deadline = Game.objects.get(table=table_of_three).turn_deadline

    # carol answers before bob, whose turn it is (R18).
    submit(table_of_three, carol, type="accept")
    game = Game.objects.get(table=table_of_three)
    assert game.turn_deadline == deadline  # bob's time still runs from the +3
    submit(table_of_three, bob, type="accept")

    game = Game.objects.get(table=table_of_three)
    engine = game.engine()
    assert [len(hand) for hand in engine.hands] == [7, 11, 11]
    assert engine.seats_to_act() == [1]
    assert game.turn_deadline > deadline
    assert history.verify_game(game)


def test_a_breaker_is_played_out_of_turn_against_a_plus3(table_of_three, alice, bob) -> None:
    submit(table_of_three, alice, type="play", card="plus3")

    events = submit(table_of_three, bob, type="play", card="breaker")

    assert ("broken", 1, 0) in [(e.kind, e.seat, e.target) for e in events]
    assert [len(h) for h in Game.objects.get(table=table_of_three).engine().hands] == [10, 7, 8]


def test_a_move_of_ones_own_resets_the_count_of_timeouts(table, alice) -> None:
    table.seats.filter(position=0).update(timeouts=2)

    submit(table, alice, type="draw")

    assert table.seats.get(position=0).timeouts == 0


def test_the_move_is_broadcast_after_commit(
    table, alice, told, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks() as callbacks:
        submit(table, alice, type="draw")
        assert told.sent == [] and told.changes == []

    assert len(callbacks) == 1
    callbacks[0]()
    assert [change.version for change in told.changes] == [1]  # no live side here takes it
    assert told.sent == [
        (f"table-{table.pk}", {"type": "table.update", "table": table.pk, "version": 1})
    ]


def test_a_refused_move_broadcasts_nothing(
    table, bob, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks() as callbacks:
        refused(table, bob, {"type": "draw", "version": 0})

    assert callbacks == []


def test_a_game_played_to_the_end_records_the_winner(table, alice, bob, carol) -> None:
    users = {0: alice, 1: bob}
    bot = make_bot("greedy")
    for _ in range(2000):
        game = Game.objects.get(table=table)
        if game.finished:
            break
        engine = game.engine()
        seat = engine.seats_to_act()[0]
        action = bot.choose(engine, seat).to_json()
        submit(table, users[seat], version=game.version, **action)

    game = Game.objects.get(table=table)
    assert game.finished and game.finished_at is not None
    assert (game.next_due, game.turn_deadline) == (None, None)
    assert game.winner == game.engine().winner
    assert game.table.status == Table.Status.FINISHED
    assert game.moves.count() == game.version
    assert history.verify_game(game)
    with pytest.raises(ServiceError) as caught:
        moves.submit_action(table.pk, alice, {"type": "draw", "version": game.version})
    assert caught.value.code == "game_over"


@pytest.mark.django_db(transaction=True)
def test_a_click_while_another_connection_writes_the_game_waits_its_turn(
    alice, bob, make_table, rig
) -> None:
    """The unlocked stale check reads the game too: on SQLite's shared-cache test database that
    read is refused while another connection writes, and must be retried like the move itself."""
    table = make_table(players=[bob], start=True)
    rig(table, HANDS[:2])
    writing, release = threading.Event(), threading.Event()

    def write_the_game() -> None:
        try:
            with transaction.atomic():
                Game.objects.filter(table=table).update(next_due=None)
                writing.set()
                release.wait(5)
        finally:
            connection.close()

    writer = threading.Thread(target=write_the_game)
    writer.start()
    assert writing.wait(5)
    threading.Timer(0.1, release.set).start()
    try:
        events = moves.submit_action(table.pk, alice, {"type": "draw", "version": 0})
    finally:
        release.set()
        writer.join()

    assert events
    game = Game.objects.get(table=table)
    assert (game.version, game.moves.count()) == (1, 1)
