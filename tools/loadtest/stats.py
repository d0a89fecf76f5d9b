"""The benchmark's counters and figures.

Counters for the whole run (warm-up included) feed the verification, which must account for
every frame sent; counters for the measured window feed the rates.
"""

from __future__ import annotations

import asyncio
import math
import time
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class Window:
    """The measured window, in ``time.monotonic()`` seconds, and its wall-clock start."""

    start: float
    end: float
    wall_start: float  # time.time() at ``start``: the server stamps moves in wall-clock time

    @classmethod
    def after(cls, warmup: float, seconds: float) -> Window:
        now, wall = time.monotonic(), time.time()
        return cls(start=now + warmup, end=now + warmup + seconds, wall_start=wall + warmup)

    def __contains__(self, moment: float) -> bool:
        return self.start <= moment < self.end

    @property
    def seconds(self) -> float:
        return self.end - self.start


@dataclass(frozen=True)
class CpuUse:
    """CPU seconds (user + system) of the site's servers, and of Redis when it is measured."""

    servers: float
    redis: float = 0.0

    @property
    def total(self) -> float:
        return self.servers + self.redis

    def __sub__(self, other: CpuUse) -> CpuUse:
        return CpuUse(self.servers - other.servers, self.redis - other.redis)


@dataclass
class SiteCounters:
    """What the simulated clients did and saw."""

    sent: int = 0  # action frames sent (both copies of a doubled click)
    refused: int = 0  # pushes whose #flash has text: one per refused frame
    doubled: int = 0  # clicks sent twice
    doubled_refused: int = 0  # ... whose second copy was seen refused
    pushes: int = 0
    games_started: int = 0
    games_finished: int = 0
    unresolved: int = 0  # frames still without an answer when the clients stopped
    stalled_tables: int = 0  # tables whose game had not moved for a while when the run stopped
    window_pushes: int = 0
    window_acknowledged: int = 0
    round_trips: list[float] = field(default_factory=list)  # seconds, sends in the window
    steady_round_trips: list[float] = field(default_factory=list)  # ... in the steady window

    @property
    def acknowledged(self) -> int:
        return self.sent - self.refused


class OwnLoop:
    """The measuring side's own health: how late the clients' event loop ran a timer, and how
    much of a core their process used. Every round trip passes through that loop twice (the
    frame out, the push in), so a late loop would add its lateness to the figures."""

    TICK = 0.01  # seconds between the probe's timers

    def __init__(self) -> None:
        self.lags: list[float] = []
        self.cpu_seconds = 0.0

    async def watch(self, window: Window) -> None:
        """Time the loop through ``window``: sleep a tick, note how late it woke."""
        await asyncio.sleep(max(0.0, window.start - time.monotonic()))
        cpu = time.process_time()
        while time.monotonic() < window.end:
            asked = time.monotonic()
            await asyncio.sleep(self.TICK)
            self.lags.append(max(0.0, time.monotonic() - asked - self.TICK))
        self.cpu_seconds = time.process_time() - cpu

    def figures(self, seconds: float) -> dict[str, float | None]:
        return {
            "lag_p50_ms": _ms(percentile(self.lags, 0.50)),
            "lag_p99_ms": _ms(percentile(self.lags, 0.99)),
            "lag_max_ms": _ms(max(self.lags, default=None)),
            "cpu_share": self.cpu_seconds / seconds if seconds else None,
        }


def round_trip_figures(samples: list[float]) -> dict[str, float | None]:
    """The percentiles of round trips (seconds) in milliseconds, and how many there were."""
    return {
        "p50": _ms(percentile(samples, 0.50)),
        "p95": _ms(percentile(samples, 0.95)),
        "p99": _ms(percentile(samples, 0.99)),
        "samples": len(samples),
    }


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else seconds * 1000


def percentile(samples: list[float], share: float) -> float | None:
    """The nearest-rank percentile (``share`` in 0..1) of ``samples``, or None if empty."""
    if not samples:
        return None
    ordered = sorted(samples)
    rank = max(1, math.ceil(share * len(ordered)))
    return ordered[rank - 1]


@dataclass
class Verification:
    games: int = 0
    games_verified: int = 0
    moves_logged: int = 0  # Move rows with source "player"
    moves_acknowledged: int = 0
    doubled: int = 0
    doubled_refused: int = 0
    unresolved: int = 0
    stalled_tables: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass
class Report:
    """Everything ``bench_load`` prints, and writes with ``--json``."""

    options: dict[str, Any]
    seconds: float
    moves: int  # moves applied by the site in the window (Move rows, source "player")
    moves_per_second: float
    round_trip_ms: dict[str, float | None]
    pushes: int
    pushes_per_second: float
    server_cpu_seconds: float
    server_cpu_ms_per_move: float | None
    games_started: int
    games_finished: int
    ceiling_messages: int | None = None
    ceiling_messages_per_second: float | None = None
    ceiling_pushes_per_second: float | None = None
    ceiling_push_share: float | None = None  # pushes seen / (messages x sockets per group)
    share_of_ceiling: float | None = None
    # The ceiling's server CPU per relayed message (one frame in, one push per socket): what the
    # transport alone costs a move, the floor under server_cpu_ms_per_move.
    ceiling_cpu_ms_per_message: float | None = None
    bot_moves: int | None = None  # the moves of the tables of bots alone, in the window
    redis_cpu_seconds: float = 0.0  # Redis's share of server_cpu_seconds (0: not measured)
    # The steady window: moves and their pushes alone, no table opened, started or left.
    steady_seconds: float | None = None
    steady_moves: int | None = None
    steady_cpu_seconds: float | None = None
    steady_cpu_ms_per_move: float | None = None
    steady_round_trip_ms: dict[str, float | None] | None = None
    # The clients' own event loop and process in the window (OwnLoop.figures).
    clients: dict[str, float | None] | None = None
    verification: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def lines(self) -> list[str]:
        """The report in words, one figure a line."""
        rtt = self.round_trip_ms

        def ms(value: float | None) -> str:
            return "-" if value is None else f"{value:,.1f} ms"

        cpu = self.server_cpu_ms_per_move
        redis = f", Redis {self.redis_cpu_seconds:,.1f} s of it" if self.redis_cpu_seconds else ""
        lines = [
            f"moves/s            {self.moves_per_second:,.1f}  ({self.moves:,} moves in "
            f"{self.seconds:.0f} s; {self.games_finished} games finished of "
            f"{self.games_started} started)",
            f"round trip         p50 {ms(rtt['p50'])}  p95 {ms(rtt['p95'])}  "
            f"p99 {ms(rtt['p99'])}  ({rtt['samples']:,.0f} samples)",
            f"pushes/s           {self.pushes_per_second:,.1f}",
            f"server CPU/move    {'-' if cpu is None else f'{cpu:,.2f} ms'}  "
            f"({self.server_cpu_seconds:,.1f} s of CPU in the window{redis}; tables opened, "
            "joined, started and left included)",
        ]
        if self.steady_seconds is not None:
            steady = self.steady_cpu_ms_per_move
            lines.append(
                f"steady CPU/move    {'-' if steady is None else f'{steady:,.2f} ms'}  "
                f"({self.steady_moves:,} moves in {self.steady_seconds:.0f} s with no table "
                "opened, joined, started or left: the moves and their pushes alone)"
            )
        if self.steady_round_trip_ms is not None and self.steady_round_trip_ms["samples"]:
            trips = self.steady_round_trip_ms
            lines.append(
                f"steady round trip  p50 {ms(trips['p50'])}  p95 {ms(trips['p95'])}  "
                f"p99 {ms(trips['p99'])}  ({trips['samples']:,.0f} samples)"
            )
        if self.clients is not None:
            own = self.clients
            share = own["cpu_share"]
            lines.append(
                f"clients' own loop  late by p50 {ms(own['lag_p50_ms'])}, p99 "
                f"{ms(own['lag_p99_ms'])}, at most {ms(own['lag_max_ms'])}; their process "
                f"{'-' if share is None else f'{share:.0%}'} of a core (the measuring side)"
            )
        if self.bot_moves is not None:
            lines.append(
                f"bots beside        {self.bot_moves:,} moves in the window "
                f"({self.bot_moves / self.seconds:,.1f}/s) at {self.options['bot_tables']} tables "
                f"of {self.options['bot_level']} bots"
            )
        if self.ceiling_messages_per_second is not None:
            lines.append(
                f"ceiling msgs/s     {self.ceiling_messages_per_second:,.1f}  "
                f"(pushes/s {self.ceiling_pushes_per_second:,.1f}, "
                f"{self.ceiling_push_share:.0%} of the frames relayed reached their sockets); "
                f"moves/s is {self.share_of_ceiling:.1%} of it"
            )
        if self.ceiling_cpu_ms_per_message is not None:
            lines.append(
                f"ceiling CPU/msg    {self.ceiling_cpu_ms_per_message:,.2f} ms  "
                "(the transport's own cost of one frame in and its pushes)"
            )
        check = self.verification
        verdict = "ok" if check["ok"] else "FAILED: " + "; ".join(check["problems"])
        lines.append(
            f"verification       {verdict}  ({check['games_verified']}/{check['games']} games "
            f"verify; {check['moves_logged']:,} moves logged, {check['moves_acknowledged']:,} "
            f"acknowledged; {check['doubled_refused']}/{check['doubled']} doubled clicks refused)"
        )
        return lines
