"""Server layouts compared side by side in one run: one process on the in-memory channel layer,
and two processes on Redis with each table's sockets on one of them ("local", as nginx hashing a
table's path sends them) or spread over both in turn ("spread").

The layouts run one after the other on the same seed and the same number of tables, round after
round (one, local, spread, one, local, spread, ...), so that each sees the machine as the others
do; the figures are compared as ratios to the first layout's.
"""

from __future__ import annotations

import contextlib
import os
import statistics
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import redis

from tools.loadtest.run import LoadOptions, run
from tools.loadtest.servers import RedisServer
from tools.loadtest.stats import Report

NAMES = ("one", "local", "spread")
LAYERS = ("pubsub", "lists")  # lib.env.REDIS_CHANNEL_LAYERS


@dataclass(frozen=True)
class Layout:
    """How the site is served: ``name`` one of NAMES, and on Redis, its channel ``layer``."""

    name: str
    layer: str = "pubsub"

    @classmethod
    def parse(cls, text: str) -> Layout:
        """``"one"``, ``"local"``, ``"spread"``, or a Redis layout with its layer:
        ``"local:lists"``.

        :raises ValueError: an unknown layout or layer, or a layer for ``one``.
        """
        name, _, layer = text.strip().partition(":")
        if name not in NAMES or (layer and (layer not in LAYERS or name == "one")):
            raise ValueError(f"not a layout: {text!r}")
        return cls(name, layer or "pubsub")

    @property
    def on_redis(self) -> bool:
        return self.name != "one"

    @property
    def processes(self) -> int:
        return 2 if self.on_redis else 1

    @property
    def label(self) -> str:
        if not self.on_redis:
            return "one process, in memory"
        return f"two processes, {self.name}, Redis {self.layer}"


@contextlib.contextmanager
def redis_service(folder: Path) -> Iterator[tuple[str, int | None]]:
    """REDIS_URL's server if set, else a redis-server of the run's own: its URL, and its process
    id when it runs on this machine (its CPU then counts with the servers')."""
    url = os.environ.get("REDIS_URL")
    if url:
        yield url, _local_pid(url)
        return
    with RedisServer(folder) as server:
        yield server.url, server.pid


def _local_pid(url: str) -> int | None:
    with contextlib.suppress(redis.RedisError, OSError, KeyError, ValueError):
        pid = int(redis.Redis.from_url(url).info("server")["process_id"])
        if Path(f"/proc/{pid}/comm").read_text().startswith("redis"):
            return pid
    return None


def _flush(url: str) -> None:
    """Start a layout on an empty Redis: no presence counts or groups of the one before."""
    client = redis.Redis.from_url(url)
    try:
        client.flushdb()
    finally:
        client.close()


def run_layouts(
    options: LoadOptions,
    layouts: list[Layout],
    rounds: int,
    log_dir: Path,
    say: Callable[[str], None],
) -> list[tuple[Layout, Report]]:
    """Run every layout, in turn, ``rounds`` times; the reports in the order they ran."""
    results: list[tuple[Layout, Report]] = []
    with contextlib.ExitStack() as stack:
        url, pid = "", None
        if any(layout.on_redis for layout in layouts):
            url, pid = stack.enter_context(redis_service(log_dir))
            if pid is None:
                say(f"Redis at {url} is not on this machine: its CPU is not counted")
        for number in range(1, rounds + 1):
            for layout in layouts:
                say(f"--- round {number} of {rounds}: {layout.label}")
                env: dict[str, str | None] = {"REDIS_URL": None}
                if layout.on_redis:
                    _flush(url)
                    env = {"REDIS_URL": url, "REDIS_CHANNEL_LAYER": layout.layer}
                folder = log_dir / f"{layout.name}-{layout.layer}-{number}"
                folder.mkdir()
                layout_options = replace(
                    options, processes=layout.processes, local=layout.name == "local"
                )
                report = run(layout_options, folder, say, env, pid if layout.on_redis else None)
                results.append((layout, report))
    return results


def comparison_lines(results: list[tuple[Layout, Report]]) -> list[str]:
    """Each layout's figures over its rounds (their mean), and the ratio of its CPU per move to
    the first layout's, over the whole window and over the steady one."""
    layouts = list(dict.fromkeys(layout for layout, _report in results))
    by_layout = {layout: [r for lay, r in results if lay == layout] for layout in layouts}

    def mean(values: list[float | None]) -> float | None:
        known = [value for value in values if value is not None]
        return statistics.fmean(known) if known else None

    def figures(reports: list[Report]) -> tuple[float | None, ...]:
        return (
            mean([report.moves_per_second for report in reports]),
            mean([report.round_trip_ms["p99"] for report in reports]),
            mean([report.server_cpu_ms_per_move for report in reports]),
            mean([report.steady_cpu_ms_per_move for report in reports]),
        )

    base = figures(by_layout[layouts[0]])
    lines = [
        "layout                                   moves/s   p99 ms  CPU/move  x first  "
        "steady CPU/move  x first  Redis share"
    ]
    for layout in layouts:
        reports = by_layout[layout]
        moves, p99, cpu, steady = figures(reports)
        redis_share = mean(
            [r.redis_cpu_seconds / r.server_cpu_seconds for r in reports if r.server_cpu_seconds]
        )
        lines.append(
            f"{layout.label:<40} {_number(moves, 7)}  {_number(p99, 7)}  "
            f"{_number(cpu, 6, 2)} ms  {_ratio(cpu, base[2])}  "
            f"{_number(steady, 12, 2)} ms  {_ratio(steady, base[3])}  "
            f"{'-' if not layout.on_redis else f'{redis_share or 0:.0%}':>10}"
        )
    lines.append(
        f"({len(results) // len(layouts)} round(s) each, alternated; figures are the rounds' "
        "means; CPU is the Daphne processes' and Redis's)"
    )
    return lines


def _number(value: float | None, width: int, digits: int = 1) -> str:
    return f"{'-':>{width}}" if value is None else f"{value:>{width},.{digits}f}"


def _ratio(value: float | None, base: float | None) -> str:
    return f"{'-':>7}" if value is None or not base else f"{value / base:>6.2f}x"
