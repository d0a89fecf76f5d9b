"""games.clock: the clock that plays due bot moves and timeouts."""

from __future__ import annotations

import asyncio
import io
import logging
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from datetime import timedelta
from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from django.core.management import call_command
from django.utils import timezone

from games import clock
from games.engine import Record, SearchBot
from games.models import Game, Move, Seat, Table
from games.services import history, moves, quickmatch, tables, thinking
from tests.games.services.slow_bots import SECONDS, slow_choose
from tests.side_by_side import side_by_side

HANDS = [
    ["red:1", "red:3", "red:taki", "red:plus2", "plus3", "blue:1", "green:1", "yellow:1"],
    ["red:6", "red:7", "blue:6", "blue:7", "green:6", "green:7", "yellow:6", "breaker"],
    ["red:8", "red:9", "blue:8", "blue:9", "green:8", "green:9", "yellow:8", "king"],
]


def make_bot_game(host) -> Game:
    table = tables.create_table(host, name="Clockwork", seat_count=3, bot_seats=2)
    return tables.start_game(table.pk, host)


@pytest.mark.django_db
def test_it_lists_the_running_games_that_are_due(alice) -> None:
    due = make_bot_game(alice)
    later = make_bot_game(alice)
    Game.objects.filter(pk=later.pk).update(next_due=timezone.now() + timedelta(hours=1))
    aborted = make_bot_game(alice)
    tables.abort_table(aborted.table_id)
    open_table = tables.create_table(alice, name="Waiting", seat_count=2)

    ids = clock.due_game_ids(timezone.now() + timedelta(seconds=40))

    assert ids == [due.pk]
    assert not Game.objects.filter(table=open_table).exists()


@pytest.mark.django_db(transaction=True)
async def test_a_tick_advances_the_due_games(alice) -> None:
    game = await database_sync_to_async(make_bot_game)(alice)
    now = timezone.now() + timedelta(seconds=40)  # past any first deadline or bot pause

    advanced = await clock.Clock().tick(now)

    assert advanced == 1
    game = await Game.objects.aget(pk=game.pk)
    assert game.version >= 1


@pytest.mark.django_db(transaction=True)
async def test_one_failing_game_does_not_stop_the_others(alice, monkeypatch, caplog) -> None:
    first = await database_sync_to_async(make_bot_game)(alice)
    second = await database_sync_to_async(make_bot_game)(alice)
    real_step = moves.advance_step

    def advance_step(game_id, now):
        if game_id == first.pk:
            raise RuntimeError("boom")
        return real_step(game_id, now)

    monkeypatch.setattr(moves, "advance_step", advance_step)

    with caplog.at_level(logging.ERROR, logger="games.clock"):
        await clock.Clock().tick(timezone.now() + timedelta(seconds=40))

    assert (await Game.objects.aget(pk=second.pk)).version >= 1
    assert (await Game.objects.aget(pk=first.pk)).version == 0
    assert f"could not advance game {first.pk}" in caplog.text


@pytest.mark.django_db(transaction=True)
async def test_the_running_clock_plays_the_bots_until_a_person_is_to_play(
    alice, rig, monkeypatch
) -> None:
    monkeypatch.setattr(moves, "BOT_DELAY", timedelta(milliseconds=50))
    table = await database_sync_to_async(tables.create_table)(
        alice, name="Bots", seat_count=3, bot_seats=2, turn_seconds=None
    )
    await database_sync_to_async(tables.start_game)(table.pk, alice)
    game = await database_sync_to_async(rig)(table, HANDS, first_player=1)

    running = clock.Clock()
    task = running.start()
    try:
        assert running.start() is task  # started once on its event loop
        for _ in range(100):
            await asyncio.sleep(0.05)
            game = await Game.objects.aget(pk=game.pk)
            if game.version == 2:
                break
    finally:
        task.cancel()

    # Both bots played, one after the other; alice has no time limit, so nothing is due.
    assert game.version == 2
    assert game.engine().seats_to_act() == [0]
    assert (game.next_due, game.turn_deadline) == (None, None)


async def test_the_clock_survives_an_error_and_ticks_again(caplog) -> None:
    ticks = []

    class Failing(clock.Clock):
        async def tick(self, now=None):
            ticks.append(now)
            if len(ticks) == 1:
                raise RuntimeError("the database went away")
            return 0

    with caplog.at_level(logging.ERROR, logger="games.clock"):
        task = asyncio.get_running_loop().create_task(Failing().run(interval=0.01))
        await asyncio.sleep(0.1)
        task.cancel()

    assert len(ticks) >= 2
    assert "the game clock failed to tick" in caplog.text


@pytest.mark.django_db(transaction=True)
def test_run_clock_once_plays_what_is_due(alice, caplog) -> None:
    game = make_bot_game(alice)
    past = timezone.now() - timedelta(seconds=1)  # a bot's move, or alice's R23 timeout
    Game.objects.filter(pk=game.pk).update(next_due=past, turn_deadline=past)

    with caplog.at_level(logging.INFO, logger="games.clock"):
        call_command("run_clock", "--once", stdout=io.StringIO())

    assert Game.objects.get(pk=game.pk).version >= 1
    assert "the game clock stopped; advanced 1 due games" in caplog.messages


@pytest.mark.django_db(transaction=True)
def test_clocks_running_side_by_side_play_each_due_move_once(alice) -> None:
    """Two clocks (say two web processes, or two run_clock) see the same due game at once:
    the game row's lock and the re-check of next_due under it let only one play."""
    game = make_bot_game(alice)
    now = timezone.now() + timedelta(seconds=40)
    side_by_side(lambda: moves.advance(game.pk, now))

    game = Game.objects.get(pk=game.pk)
    assert game.version >= 1
    logged = list(game.moves.order_by("seq").values_list("seq", flat=True))
    assert logged == list(range(game.version))
    # One clock alone plays the same moves by `now`: nothing was played twice.
    assert history.verify_game(game)
    assert game.next_due is None or game.next_due > now


def test_run_clock_stops_cleanly_on_sigterm(tmp_path) -> None:
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'clock.sqlite3'}",
        "PYTHONUNBUFFERED": "1",
    }
    manage = [sys.executable, "manage.py"]
    root = Path(__file__).resolve().parents[2]
    subprocess.run([*manage, "migrate", "-v", "0"], cwd=root, env=env, check=True)
    process = subprocess.Popen(
        [*manage, "run_clock", "--interval", "0.05"],
        cwd=root,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    # Its log (stderr): a warning first when there is no REDIS_URL, then that it is running.
    while "the game clock is running" not in (line := process.stderr.readline()):
        assert line, "run_clock ended before it said it was running"

    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=10)

    assert process.returncode == 0
    assert "the game clock stopped; advanced 0 due games" in err


class RecordingWorkers(ProcessPoolExecutor):
    """The clock's worker processes, noting each turn they are given to think about."""

    def __init__(self, choose=thinking.choose) -> None:
        super().__init__(1, mp_context=multiprocessing.get_context("spawn"))
        self.choose = choose
        self.turns: list[thinking.BotTurn] = []

    def submit(self, fn, /, *args, **kwargs):
        assert fn is thinking.choose
        self.turns.extend(args)
        return super().submit(self.choose, *args, **kwargs)


@pytest.fixture
def workers():
    """Worker processes of the test's own: ``workers(choose)``, to give a clock."""
    made = []

    def make(choose=thinking.choose) -> RecordingWorkers:
        pool = RecordingWorkers(choose)
        made.append(pool)
        return pool

    yield make
    for pool in made:
        pool.shutdown(cancel_futures=True)


async def start_bots_game(alice, rig, monkeypatch) -> Game:
    """Alice and two bots, untimed, the first bot to play: the bots owe two moves, the second
    at once after the first (no pause for people to follow)."""
    monkeypatch.setattr(moves, "BOT_DELAY", timedelta(0))
    table = await database_sync_to_async(tables.create_table)(
        alice, name="Bots", seat_count=3, bot_seats=2, turn_seconds=None
    )
    await database_sync_to_async(tables.start_game)(table.pk, alice)
    return await database_sync_to_async(rig)(table, HANDS, first_player=1)


@pytest.mark.django_db(transaction=True)
async def test_the_clock_plays_the_moves_the_bots_chose_in_its_worker_processes(
    alice, rig, workers, monkeypatch
) -> None:
    pool = workers()
    game = await start_bots_game(alice, rig, monkeypatch)

    await clock.Clock(thinkers=pool).tick(timezone.now() + timedelta(seconds=5))

    game = await Game.objects.aget(pk=game.pk)
    assert game.version == 2
    logged = [move async for move in game.moves.order_by("seq")]
    assert [move.source for move in logged] == [Move.Source.BOT] * 2
    assert [(turn.version, turn.position, turn.kind) for turn in pool.turns] == [
        (0, 1, "greedy"),
        (1, 2, "greedy"),
    ]
    assert [move.seat for move in logged] == [1, 2]
    assert await database_sync_to_async(history.verify_game)(game)


@pytest.mark.django_db(transaction=True)
async def test_while_a_bot_thinks_the_event_loop_and_the_database_thread_are_free(
    alice, rig, workers, monkeypatch
) -> None:
    slow = clock.Clock(thinkers=workers(slow_choose))
    game = await start_bots_game(alice, rig, monkeypatch)
    ticking = asyncio.get_running_loop().create_task(
        slow.tick(timezone.now() + timedelta(seconds=5))
    )
    await asyncio.sleep(0.2)  # the first bot is thinking by now

    lag = 0.0
    for _ in range(10):
        start = time.monotonic()
        await asyncio.sleep(0.01)
        lag = max(lag, time.monotonic() - start - 0.01)
    start = time.monotonic()
    version = await database_sync_to_async(
        lambda: Game.objects.values_list("version", flat=True).get(pk=game.pk)
    )()
    read = time.monotonic() - start
    await ticking

    # A loop or a thread held by the thinking would wait for the bot's whole SECONDS.
    assert version == 0  # read while the first bot was still thinking
    assert lag < SECONDS / 2
    assert read < SECONDS / 2
    assert (await Game.objects.aget(pk=game.pk)).version == 2


@pytest.mark.django_db(transaction=True)
async def test_a_bot_that_thinks_past_its_budget_plays_the_greedy_move(
    alice, rig, workers, monkeypatch, caplog
) -> None:
    hurried = clock.Clock(thinkers=workers(slow_choose), think_budget=0.05)
    game = await start_bots_game(alice, rig, monkeypatch)

    with caplog.at_level(logging.WARNING, logger="games.clock"):
        await hurried.tick(timezone.now() + timedelta(seconds=5))

    assert (await Game.objects.aget(pk=game.pk)).version == 2
    assert "a greedy bot thought past its budget" in caplog.text


@pytest.mark.django_db(transaction=True)
async def test_a_choice_the_game_moved_on_from_is_dropped_and_thought_again(
    alice, rig, monkeypatch
) -> None:
    game = await start_bots_game(alice, rig, monkeypatch)
    thought = []

    class Overtaken(clock.Clock):
        async def think(self, turn):
            thought.append(turn.version)
            choice = thinking.choose(turn)
            if len(thought) == 1:  # another clock plays this turn while this one thinks
                played = await database_sync_to_async(moves.play_bot_move)(turn, choice)
                assert played
            return choice

    await Overtaken().tick(timezone.now() + timedelta(seconds=5))

    game = await Game.objects.aget(pk=game.pk)
    assert thought == [0, 1]  # the first choice came too late: the next turn was thought anew
    assert game.version == 2
    logged = [move async for move in game.moves.order_by("seq")]
    assert [(move.seq, move.seat) for move in logged] == [(0, 1), (1, 2)]
    assert await database_sync_to_async(history.verify_game)(game)


@pytest.mark.django_db
def test_a_stale_choice_is_not_applied(alice, rig) -> None:
    table = tables.create_table(alice, name="Bots", seat_count=3, bot_seats=2, turn_seconds=None)
    tables.start_game(table.pk, alice)
    game = rig(table, HANDS, first_player=1)
    later = timezone.now() + timedelta(seconds=5)
    turn = moves.advance_step(game.pk, later)
    choice = thinking.choose(turn)

    assert moves.play_bot_move(turn, choice, later) is True
    assert moves.play_bot_move(turn, choice, later) is False  # the same version, once only

    game.refresh_from_db()
    assert game.version == 1
    assert list(game.moves.values_list("seq", flat=True)) == [0]


@pytest.mark.django_db
def test_a_choice_for_a_seat_no_longer_the_bots_is_not_applied(alice, bob, rig) -> None:
    table = tables.create_table(alice, name="Bots", seat_count=3, bot_seats=2, turn_seconds=None)
    tables.start_game(table.pk, alice)
    game = rig(table, HANDS, first_player=1)
    turn = moves.advance_step(game.pk, timezone.now() + timedelta(seconds=5))
    table.seats.filter(position=1).update(bot="expert")  # not the bot that thought about it

    assert moves.play_bot_move(turn, thinking.choose(turn)) is False
    game.refresh_from_db()
    assert game.version == 0


def test_the_bots_worker_processes_think_without_django() -> None:
    """A worker imports games.services.thinking to think: it starts without the site."""
    check = (
        "import sys, games.services.thinking; "
        "print(sorted(m for m in sys.modules if m.startswith('django')))"
    )
    root = Path(__file__).resolve().parents[2]
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}

    out = subprocess.run(
        [sys.executable, "-c", check], cwd=root, env=env, capture_output=True, text=True, check=True
    )

    assert out.stdout.strip() == "[]"


@pytest.mark.django_db
def test_a_choice_made_before_the_same_bots_last_move_is_not_applied(alice, rig) -> None:
    """In its own TAKI run a bot plays again and again: a choice thought about before its last
    card, though legal now, was made for a position that is gone."""
    table = tables.create_table(alice, name="Bots", seat_count=3, bot_seats=2, turn_seconds=None)
    tables.start_game(table.pk, alice)
    run = ["red:taki", "red:6", "red:7", "blue:6", "blue:7", "green:6", "green:7", "breaker"]
    game = rig(table, [HANDS[0], run, HANDS[2]], first_player=1)
    turn = moves.advance_step(game.pk, timezone.now() + timedelta(seconds=5))
    taki = {"type": "play", "player": 1, "card": "red:taki"}
    then_six = {"type": "play", "player": 1, "card": "red:6"}

    assert moves.play_bot_move(turn, taki) is True
    assert moves.play_bot_move(turn, then_six) is False

    game.refresh_from_db()
    assert game.version == 1
    assert game.engine().seats_to_act() == [1]  # still the bot's run: red:6 would be legal


@pytest.mark.django_db
def test_a_bot_that_learns_from_the_table_watches_every_move_before_it_chooses(
    alice, rig, monkeypatch
) -> None:
    table = tables.create_table(
        alice, name="Bots", seat_count=3, bot_seats=2, bot_kind="hard", turn_seconds=None
    )
    tables.start_game(table.pk, alice)
    game = rig(table, HANDS, first_player=1)
    later = timezone.now() + timedelta(seconds=5)
    first = moves.advance_step(game.pk, later)
    assert moves.play_bot_move(first, thinking.choose(first), later)
    watched = []
    monkeypatch.setattr(
        SearchBot, "observe", lambda bot, state, action: watched.append(action.to_json())
    )

    later += timedelta(seconds=5)  # past the first move's bot delay
    turn = moves.advance_step(game.pk, later)
    choice = thinking.choose(turn)

    game.refresh_from_db()
    assert Record.loads(turn.history).actions == game.record().actions  # the game so far
    assert watched == game.record().actions
    assert moves.play_bot_move(turn, choice, later)


@pytest.mark.django_db
def test_a_bot_that_does_not_learn_is_given_no_history(alice, rig) -> None:
    table = tables.create_table(alice, name="Bots", seat_count=3, bot_seats=2, turn_seconds=None)
    tables.start_game(table.pk, alice)
    game = rig(table, HANDS, first_player=1)

    turn = moves.advance_step(game.pk, timezone.now() + timedelta(seconds=5))

    assert turn.kind == "greedy" and turn.history is None


@pytest.mark.django_db(transaction=True)
async def test_a_tick_seats_the_people_waiting_in_a_pool(alice, bob) -> None:
    for person in (alice, bob):
        await database_sync_to_async(quickmatch.enter)(person, "duel-15")

    await clock.Clock().tick(timezone.now() + timedelta(seconds=1))

    table = await Table.objects.aget(seats__user=alice)
    assert table.status == Table.Status.PLAYING
    assert await Seat.objects.filter(table=table, user=bob).aexists()


@pytest.mark.django_db(transaction=True)  # as a process of its own: no test transaction around
def test_run_clock_once_seats_the_people_waiting_in_a_pool(alice, bob) -> None:
    for person in (alice, bob):
        quickmatch.enter(person, "duel-15")

    call_command("run_clock", "--once", stdout=io.StringIO())

    assert Table.objects.filter(seats__user=alice).filter(seats__user=bob).exists()
