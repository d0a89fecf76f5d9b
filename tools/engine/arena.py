"""Bots against bots over many games, to measure the levels: who wins how often, how long each
bot thinks.

Game ``i`` of a run gets its own seed from (seed, i), and seats its bots rotated by ``i`` places,
so that over a multiple of the number of seats every bot sits in every position equally often,
and the results do not depend on how the games are split between worker processes.
"""

from __future__ import annotations

import math
import multiprocessing
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from games.engine.actions import Action
from games.engine.bots import Bot, make_bot
from games.engine.record import new_record
from games.engine.state import GameState
from tools.engine.selfplay import play_game

# A searching bot never needs many actions to finish; a game cut here is counted as unfinished.
ARENA_MAX_ACTIONS = 20_000
Z_95 = 1.959964  # the normal quantile of a 95% two-sided interval


@dataclass
class GameOutcome:
    """One arena game: the winner's bot name (None if unfinished), actions, thinking times."""

    winner: str | None
    actions: int
    think_ms: dict[str, list[float]] = field(default_factory=dict)
    cpu_ms: dict[str, list[float]] = field(default_factory=dict)


class _Timed(Bot):
    """A bot that records how long each of its decisions takes: on the clock, and in processor
    time (what one core of its own would take, whatever else the machine is running)."""

    def __init__(self, inner: Bot, times: list[float], cpu_times: list[float]) -> None:
        self.inner, self.times, self.cpu_times = inner, times, cpu_times

    def choose(self, game: GameState, seat: int) -> Action:
        start, start_cpu = time.perf_counter(), time.process_time()
        action = self.inner.choose(game, seat)
        self.cpu_times.append((time.process_time() - start_cpu) * 1000)
        self.times.append((time.perf_counter() - start) * 1000)
        return action

    def observe(self, game: GameState, action: Action) -> None:
        self.inner.observe(game, action)


def seating(names: Sequence[str], index: int) -> list[str]:
    """The bot in each seat for game ``index``: ``names`` rotated by ``index`` places."""
    shift = index % len(names)
    return [*names[shift:], *names[:shift]]


def play_arena_game(
    names: Sequence[str], seed: str, index: int, max_actions: int = ARENA_MAX_ACTIONS
) -> GameOutcome:
    """Play game ``index`` of an arena run: its deal, first player and bots' seeds come from
    (``seed``, ``index``) alone."""
    rng = random.Random(f"{seed}:{index}")
    seats = seating(names, index)
    record = new_record([f"{name}-{i}" for i, name in enumerate(seats)], rng)
    think: dict[str, list[float]] = {name: [] for name in names}
    cpu: dict[str, list[float]] = {name: [] for name in names}
    bots: list[Bot] = [
        _Timed(make_bot(name, random.Random(rng.getrandbits(64))), think[name], cpu[name])
        for name in seats
    ]
    result = play_game(record, bots, keep_actions=False, max_actions=max_actions)
    winner = seats[result.winner] if result.winner is not None else None
    return GameOutcome(winner, result.actions, think, cpu)


def _play_one(job: tuple[Sequence[str], str, int, int]) -> GameOutcome:
    return play_arena_game(*job)


def wilson(wins: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default)."""
    if trials == 0:
        return 0.0, 1.0
    rate = wins / trials
    denominator = 1 + z * z / trials
    centre = (rate + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(rate * (1 - rate) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def run_arena(
    names: Sequence[str],
    games: int,
    seed: str,
    jobs: int = 1,
    max_actions: int = ARENA_MAX_ACTIONS,
) -> dict:
    """Play ``games`` games between the bots ``names`` (one seat each) and sum up per bot name:
    wins, win rate per seat with its 95% interval, thinking time. Everything but the times is
    the same for a seed whatever ``jobs`` is."""
    work = [(tuple(names), seed, index, max_actions) for index in range(games)]
    if jobs > 1:
        # Spawned, not forked: a fork of a process with other threads (a test run, a server)
        # can copy a lock another thread held, and the worker then waits on it for ever.
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            outcomes = pool.map(_play_one, work, chunksize=max(1, games // (jobs * 8)))
    else:
        outcomes = [_play_one(job) for job in work]
    return summarize(names, outcomes, max_actions)


def summarize(names: Sequence[str], outcomes: Sequence[GameOutcome], max_actions: int) -> dict:
    """The arena's JSON object for these ``outcomes``. ``think_ms`` is the time on the clock per
    decision, ``cpu_ms`` the processor time (the same on a busy machine as on an idle core)."""
    bots = list(dict.fromkeys(names))
    seats = {name: names.count(name) for name in bots}
    wins = {name: 0 for name in bots}
    times: dict[str, list[float]] = {name: [] for name in bots}
    cpu_times: dict[str, list[float]] = {name: [] for name in bots}
    for outcome in outcomes:
        if outcome.winner is not None:
            wins[outcome.winner] += 1
        for name, spent in outcome.think_ms.items():
            times[name].extend(spent)
        for name, spent in outcome.cpu_ms.items():
            cpu_times[name].extend(spent)
    games = len(outcomes)
    win_rate = {}
    for name in bots:
        trials = games * seats[name]  # a seat's chance: three greedy seats are three trials
        low, high = wilson(wins[name], trials)
        rate = wins[name] / trials if trials else 0.0
        win_rate[name] = {"rate": round(rate, 4), "low": round(low, 4), "high": round(high, 4)}
    return {
        "games": games,
        "players": len(names),
        "bots": list(names),
        "wins": wins,
        "win_rate": win_rate,
        "unfinished": sum(outcome.winner is None for outcome in outcomes),
        "max_actions": max_actions,
        "moves": sum(outcome.actions for outcome in outcomes),
        "think_ms": {name: _time_summary(times[name]) for name in bots},
        "cpu_ms": {name: _time_summary(cpu_times[name]) for name in bots},
    }


def _time_summary(times: list[float]) -> dict[str, float]:
    if not times:
        return {"decisions": 0, "mean": 0.0, "p99": 0.0, "max": 0.0}
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, math.ceil(0.99 * len(ordered)) - 1)]
    return {
        "decisions": len(ordered),
        "mean": round(sum(ordered) / len(ordered), 3),
        "p99": round(p99, 3),
        "max": round(ordered[-1], 3),
    }


__all__ = ["GameOutcome", "play_arena_game", "run_arena", "seating", "summarize", "wilson"]
