"""The move path's hand-written statements read and write exactly what the ORM would."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.db import connection
from django.db.models.signals import post_init
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts import bots
from accounts.models import BotAccount
from games import presenters
from games.engine import make_bot
from games.models import Game, Move, Seat, Table
from games.presenters.table import RECENT_MOVES
from games.services import moves, statements


@pytest.fixture
def game(make_table, bob, carol) -> Game:
    table = make_table(seat_count=3, players=[bob], bot_seats=1, turn_seconds=30, start=True)
    game = Game.objects.get(table=table)
    game.next_due = timezone.now() + timedelta(seconds=30)
    game.save()
    return game


def test_the_locked_game_and_its_table_are_what_the_orm_loads(game) -> None:
    expected = Game.objects.select_related("table").get(pk=game.pk)
    for loaded in (
        statements.lock_game(table_id=game.table_id),
        statements.lock_game(game_id=game.pk),
    ):
        for name in statements.GAME_FIELDS:
            assert getattr(loaded, name) == getattr(expected, name), name
        for name in statements.TABLE_FIELDS:
            assert getattr(loaded.table, name) == getattr(expected.table, name), name
        assert loaded.next_due.tzinfo is not None
        assert loaded.engine().to_snapshot() == expected.engine().to_snapshot()
        # A field the move path does not read is still there when asked for.
        assert loaded.deck == expected.deck
        assert loaded.table.invite_token == expected.table.invite_token


def test_no_game_is_none(game) -> None:
    assert statements.lock_game(table_id=game.table_id + 1000) is None
    assert statements.lock_game(game_id=game.pk + 1000) is None


def test_the_seats_and_their_users_are_what_the_orm_loads(game, alice, bob) -> None:
    expected = list(Seat.objects.filter(table=game.table).select_related("user"))
    loaded = statements.seats(game.table_id)
    assert [seat.position for seat in loaded] == [0, 1, 2]
    for seat, orm in zip(loaded, sorted(expected, key=lambda s: s.position), strict=True):
        for name in statements.SEAT_FIELDS:
            assert getattr(seat, name) == getattr(orm, name), name
        if orm.user is None:
            assert seat.user is None
        else:
            assert (seat.user.pk, seat.user.username, seat.user.is_active) == (
                orm.user.pk,
                orm.user.username,
                orm.user.is_active,
            )
    assert {seat.user.username for seat in loaded if seat.user} == {"alice", "bob"}


def test_a_saved_move_reads_back_as_written(game) -> None:
    now = timezone.now()
    events = [{"kind": "drew", "seat": 0, "count": 1}]
    locked = statements.lock_game(game_id=game.pk)
    locked.version = 1
    statements.save_move(
        locked,
        ["version"],
        created_at=now,
        seq=0,
        seat=0,
        action={"type": "draw", "player": 0},
        events=events,
        source=Move.Source.PLAYER,
        digest="d" * 64,
    )
    move = Move.objects.get(game=game)
    assert (move.seq, move.seat, move.action, move.events) == (
        0,
        0,
        {"type": "draw", "player": 0},
        events,
    )
    assert (move.source, move.digest, move.created_at) == ("player", "d" * 64, now)
    game.refresh_from_db()
    assert game.version == 1  # and the game saved with it


def test_an_update_writes_the_named_fields_only(game) -> None:
    locked = statements.lock_game(game_id=game.pk)
    locked.version = 7
    locked.state = {**locked.state, "note": "ünïcode"}
    locked.turn_deadline = timezone.now()
    locked.winner = 2  # changed, but not named: not written
    statements.update(locked, ["version", "state", "turn_deadline"])

    game.refresh_from_db()
    assert (game.version, game.state["note"], game.turn_deadline) == (
        7,
        "ünïcode",
        locked.turn_deadline,
    )
    assert game.winner is None


def test_loaded_rows_are_instances_from_the_database_that_save_as_the_orm_would(game) -> None:
    locked = statements.lock_game(game_id=game.pk)
    seat = statements.seats(game.table_id)[2]
    for instance in (locked, locked.table, seat, statements.seats(game.table_id)[0].user):
        assert (instance._state.adding, instance._state.db) == (False, "default")
    assert locked.table.game is locked  # the one-to-one is cached both ways, as the ORM does
    assert "deck" not in locked.__dict__  # not read: deferred
    seat.timeouts = 2
    seat.save(update_fields=["timeouts"])  # an update of the row, not an insert
    assert Seat.objects.get(pk=seat.pk).timeouts == 2
    assert Seat.objects.filter(table=game.table).count() == 3


def test_rows_are_built_by_the_orm_so_its_init_signals_see_them(game) -> None:
    built = []

    def listener(sender, instance, **kwargs) -> None:
        built.append(instance)

    post_init.connect(listener, sender=Seat)
    try:
        loaded = statements.seats(game.table_id)
    finally:
        post_init.disconnect(listener, sender=Seat)
    assert built == loaded
    assert [seat.position for seat in built] == [0, 1, 2]


def test_the_game_and_its_seats_read_in_one_statement_are_what_the_two_read(game) -> None:
    with CaptureQueriesContext(connection) as queries:
        locked, seats = statements.lock_game_and_seats(game.table_id)
    assert len(queries) == 1
    if connection.features.has_select_for_update:
        # The game and its table are locked; the seats' users are not.
        assert queries[0]["sql"].endswith("FOR UPDATE OF g, t")
    expected = statements.lock_game(table_id=game.table_id)
    for name in statements.GAME_FIELDS:
        assert getattr(locked, name) == getattr(expected, name), name
    for name in statements.TABLE_FIELDS:
        assert getattr(locked.table, name) == getattr(expected.table, name), name
    assert locked.table.game is locked
    separate = statements.seats(game.table_id)
    assert [(s.pk, s.position, s.user_id, s.bot) for s in seats] == [
        (s.pk, s.position, s.user_id, s.bot) for s in separate
    ]
    with CaptureQueriesContext(connection) as queries:
        names = [seat.user.username if seat.user_id else None for seat in seats]
    assert len(queries) == 0  # the users came with the seats, the empty seat's user is None
    assert names == [seat.user.username if seat.user_id else None for seat in separate]
    assert statements.lock_game_and_seats(game.table_id + 1000) is None


def test_a_saved_move_is_logged_and_the_game_saved_with_it(game) -> None:
    locked = statements.lock_game(game_id=game.pk)
    locked.version, locked.last_digest = 1, "e" * 64
    with CaptureQueriesContext(connection) as queries:
        statements.save_move(
            locked,
            ["version", "last_digest"],
            created_at=timezone.now(),
            seq=0,
            seat=1,
            action={"type": "draw", "player": 1},
            events=[],
            source=Move.Source.BOT,
            digest="e" * 64,
        )
    assert [query["sql"].split()[0] for query in queries] == ["INSERT", "UPDATE"]
    game.refresh_from_db()
    assert (game.version, game.last_digest) == (1, "e" * 64)
    assert game.moves.get().action == {"type": "draw", "player": 1}


def assert_read_as_the_orm_reads(table_id: int) -> None:
    """``statements.read_table`` loads the table, its game, its seats and its last moves exactly as
    the ORM loads them."""
    table, game, seats, recent, bot_accounts = statements.read_table(table_id, RECENT_MOVES)
    expected = Table.objects.get(pk=table_id)
    for name in statements.SHOWN_TABLE_FIELDS:
        assert getattr(table, name) == getattr(expected, name), name
    expected_game = Game.objects.filter(table_id=table_id).first()
    if expected_game is None:
        assert game is None and recent == []
    else:
        for name in statements.GAME_FIELDS:
            assert getattr(game, name) == getattr(expected_game, name), name
        assert game.table is table
        assert game.engine().to_snapshot() == expected_game.engine().to_snapshot()
        latest = expected_game.moves.order_by("-seq").values(*statements.RECENT_MOVE_FIELDS)
        assert recent == list(reversed(latest[:RECENT_MOVES]))
    expected_seats = Seat.objects.filter(table_id=table_id).select_related("user")
    assert len(seats) == len(expected_seats)
    for seat, orm in zip(seats, expected_seats.order_by("position"), strict=True):
        for name in statements.SEAT_FIELDS:
            assert getattr(seat, name) == getattr(orm, name), name
        assert (seat.user and seat.user.username) == (orm.user and orm.user.username)
    seated = [seat.user_id for seat in expected_seats if seat.user_id is not None]
    assert bot_accounts == set(
        BotAccount.objects.filter(user_id__in=seated).values_list("user_id", flat=True)
    )


def test_a_table_read_for_its_sockets_is_what_the_orm_reads(make_table, alice, bob) -> None:
    waiting = make_table(seat_count=3, players=[bob])
    assert_read_as_the_orm_reads(waiting.pk)
    assert presenters.read_table(waiting.pk).version is None
    table = make_table(players=[bob], turn_seconds=None, start=True)
    bot = make_bot("greedy", random.Random(2))
    users = {seat.position: seat.user for seat in table.seats.select_related("user")}
    for _ in range(2000):  # past the last moves a table shows, to the end of the game
        game = Game.objects.get(table=table)
        assert_read_as_the_orm_reads(table.pk)
        read = presenters.read_table(table.pk)
        assert read.version == game.version and len(read.recent_moves) == min(
            game.version, RECENT_MOVES
        )
        assert [seat.hand_size for seat in read.seats] == [
            len(hand) for hand in game.engine().hands
        ]
        if game.finished:
            break
        engine = game.engine()
        seat = engine.seats_to_act()[0]
        action = bot.choose(engine, seat).to_json()
        moves.submit_action(table.pk, users[seat], {**action, "version": game.version})
    assert read.result is not None
    bots.make_bot(bob)  # the table's page shows the BOT badge at bob's seat
    assert_read_as_the_orm_reads(table.pk)
    assert statements.read_table(table.pk, RECENT_MOVES)[-1] == {bob.pk}


def test_a_table_read_takes_three_statements_and_no_table_is_refused(game) -> None:
    with CaptureQueriesContext(connection) as queries:
        presenters.read_table(game.table_id)
    with pytest.raises(Table.DoesNotExist):
        presenters.read_table(game.table_id + 1000)

    assert len(queries) == 3
