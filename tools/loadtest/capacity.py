"""How many open-loop tables one server holds with a round trip's p99 under a target.

One run, one set of servers: the tables are brought in step by step (``start``, then ``step``
more at a time, up to ``LoadOptions.tables``), each step measured over its own window once its
new tables have played a warm-up; the run stops at the first step whose p99 misses the target.
The capacity is the last step that met it. Tables are added to a server already playing, as
people arrive on a site, and every game is verified at the end as in a plain run.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

from tools.loadtest.driver import SETUP_AT_ONCE, Client, TableGroup
from tools.loadtest.run import (
    PASSWORD,
    SETUP_TIMEOUT,
    CpuMeter,
    LoadOptions,
    create_users,
    moves_in,
    verify,
)
from tools.loadtest.servers import SITE_APP, DaphneGroup
from tools.loadtest.stats import SiteCounters, Window, percentile

ANSWER_GRACE = 0.5  # seconds after a step's window for the answers to its last moves


@dataclass
class Step:
    """One step's figures: its tables, and their moves and round trips in its window."""

    tables: int
    moves_per_second: float
    p50_ms: float | None
    p99_ms: float | None
    samples: int
    busy: float  # the servers' CPU seconds per second of the window (1.0: one core)


@dataclass
class CapacityReport:
    target_p99_ms: float
    steps: list[Step] = field(default_factory=list)
    verification: dict[str, Any] = field(default_factory=dict)

    @property
    def capacity(self) -> int:
        """The most tables held with a p99 under the target (0: not even the first step)."""
        held = [step.tables for step in self.steps if _met(step, self.target_p99_ms)]
        return max(held, default=0)

    def as_dict(self) -> dict[str, Any]:
        return {
            "target_p99_ms": self.target_p99_ms,
            "capacity": self.capacity,
            "steps": [vars(step) for step in self.steps],
            "verification": self.verification,
        }

    def lines(self) -> list[str]:
        lines = ["tables  moves/s  p50 ms  p99 ms  samples  server busy"]
        for step in self.steps:
            p50 = "-" if step.p50_ms is None else f"{step.p50_ms:,.0f}"
            p99 = "-" if step.p99_ms is None else f"{step.p99_ms:,.0f}"
            lines.append(
                f"{step.tables:>6}  {step.moves_per_second:>7.1f}  {p50:>6}  {p99:>6}  "
                f"{step.samples:>7,}  {step.busy:>10.0%}"
            )
        lines.append(
            f"capacity           {self.capacity} open-loop tables with a p99 round trip under "
            f"{self.target_p99_ms:g} ms"
        )
        check = self.verification
        verdict = "ok" if check["ok"] else "FAILED: " + "; ".join(check["problems"])
        lines.append(
            f"verification       {verdict}  ({check['games_verified']}/{check['games']} games "
            f"verify; {check['moves_logged']:,} moves logged, {check['moves_acknowledged']:,} "
            "acknowledged)"
        )
        return lines


def _met(step: Step, target: float) -> bool:
    return step.p99_ms is not None and step.p99_ms < target


def find_capacity(
    options: LoadOptions,
    start: int,
    step: int,
    target_p99_ms: float,
    log_dir: Path,
    say: Callable[[str], None],
    env: dict[str, str | None] | None = None,
) -> CapacityReport:
    """Step the tables up from ``start`` by ``step`` to ``options.tables`` until the p99 round
    trip reaches ``target_p99_ms``; return every step's figures and the verification."""
    names = create_users(options)
    report = CapacityReport(target_p99_ms)
    say(f"{len(names)} users; tables from {start} by {step} up to {options.tables}")
    with DaphneGroup(SITE_APP, options.processes, log_dir, "site", env=env) as site:
        counters = asyncio.run(_step_up(options, site, names, start, step, report, say))
        site.check_alive()
    verification = verify(names, counters)
    report.verification = {**vars(verification), "ok": verification.ok}
    return report


async def _step_up(
    options: LoadOptions,
    site: DaphneGroup,
    names: list[str],
    start: int,
    step: int,
    report: CapacityReport,
    say: Callable[[str], None],
) -> SiteCounters:
    counters = SiteCounters()
    rng = random.Random(options.seed)
    connector = aiohttp.TCPConnector(limit=0)
    urls, size = site.urls, options.clients_per_table
    clients = [
        Client(
            name,
            urls[index // size % len(urls)],
            connector,
            counters,
            random.Random(rng.random()),
            options.think,
        )
        for index, name in enumerate(names)
    ]
    meter = CpuMeter(site, None)
    groups: list[TableGroup] = []
    setup = asyncio.Semaphore(SETUP_AT_ONCE)
    log_in_limit = asyncio.Semaphore(8)

    async def log_in(client: Client) -> None:
        async with log_in_limit:
            await client.log_in(PASSWORD)

    try:
        await asyncio.wait_for(asyncio.gather(*map(log_in, clients)), SETUP_TIMEOUT)
        async with asyncio.TaskGroup() as tasks:
            tables = start
            while True:
                new = [
                    TableGroup(
                        clients[at : at + options.players],
                        clients[at + options.players : at + size],
                        setup,
                    )
                    for at in range(len(groups) * size, tables * size, size)
                ]
                groups.extend(new)
                for group in new:
                    tasks.create_task(group.run(counters))
                ready = asyncio.gather(*(group.ready.wait() for group in new))
                await asyncio.wait_for(ready, SETUP_TIMEOUT)
                result = await _measure(options, clients, counters, meter, len(groups))
                report.steps.append(result)
                say(
                    f"{result.tables} tables: p99 {result.p99_ms or 0:,.0f} ms, "
                    f"{result.moves_per_second:.1f} moves/s, server busy {result.busy:.0%}"
                )
                if not _met(result, report.target_p99_ms) or tables >= options.tables:
                    break
                tables = min(options.tables, tables + step)
            for group in groups:
                group.stop.set()
    finally:
        await asyncio.gather(*(client.close() for client in clients))
        await connector.close()
    return counters


async def _measure(
    options: LoadOptions,
    clients: list[Client],
    counters: SiteCounters,
    meter: CpuMeter,
    tables: int,
) -> Step:
    window = Window.after(options.warmup, options.seconds)
    for client in clients:
        client.window = window
    await asyncio.sleep(max(0.0, window.start - time.monotonic()))
    counters.round_trips = []
    cpu_start = meter.read()
    await asyncio.sleep(max(0.0, window.end - time.monotonic()))
    cpu = meter.read() - cpu_start
    await asyncio.sleep(ANSWER_GRACE)
    samples = counters.round_trips
    moves = await asyncio.to_thread(moves_in, window)

    def ms(share: float) -> float | None:
        value = percentile(samples, share)
        return None if value is None else value * 1000

    return Step(
        tables=tables,
        moves_per_second=moves / window.seconds,
        p50_ms=ms(0.50),
        p99_ms=ms(0.99),
        samples=len(samples),
        busy=cpu.total / window.seconds,
    )
