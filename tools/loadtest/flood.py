"""``make bench-flood``: one person flooding a table's sockets, measured from outside.

A seated player opens a few sockets at their table and writes refused clicks
(``{"type": "draw", "version": -1}``) into each as fast as the connection takes them, never
reading what the site sends back; when the site closes a socket, it opens another, as an
attacker would. Meanwhile two people play at another table, a move every half second or so, and
a third loads a third table's page every half second. The same run without the flood is the
baseline. The site is served by one Daphne process with the site's own limits on sockets (only
the password hasher is a fast one); its memory is read from ``/proc``.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
from yarl import URL

from tools.loadtest.driver import Client, TableGroup, Think
from tools.loadtest.run import PASSWORD, LoadOptions, create_users
from tools.loadtest.servers import ROOT, SITE_APP, DaphneGroup
from tools.loadtest.stats import SiteCounters, Window, percentile

FLOOD_SETTINGS = "tools.loadtest.flood_settings"
WARMUP_SECONDS = 3.0
SETTLE_SECONDS = 5.0  # after the flood stops: does the server give its memory back?
PAGE_EVERY = 0.5


@dataclass(frozen=True)
class FloodOptions:
    seconds: float = 15.0
    sockets: int = 4
    think: Think = Think(0.3, 0.7)
    seed: int = 1


@dataclass
class Phase:
    """One run: with the flood or without."""

    flood: bool
    rss_start_mib: float = 0.0
    rss_peak_mib: float = 0.0  # the highest resident size sampled in the window
    rss_after_mib: float = 0.0  # SETTLE_SECONDS after the window
    round_trips: list[float] = field(default_factory=list)
    pages: list[float] = field(default_factory=list)
    frames_sent: int = 0
    flood_sockets_opened: int = 0
    close_codes: Counter[str] = field(default_factory=Counter)
    server_cpu_seconds: float = 0.0  # in the window

    def lines(self) -> list[str]:
        def ms(samples: list[float]) -> str:
            if not samples:
                return "no samples"
            p50, p95 = percentile(samples, 0.5), percentile(samples, 0.95)
            return (
                f"p50 {p50 * 1000:,.0f} ms  p95 {p95 * 1000:,.0f} ms  "
                f"max {max(samples) * 1000:,.0f} ms  ({len(samples)} samples)"
            )

        name = "with the flood" if self.flood else "without a flood"
        lines = [
            f"-- {name}",
            f"server memory      {self.rss_start_mib:,.0f} MiB at the start, peak "
            f"{self.rss_peak_mib:,.0f} MiB, {self.rss_after_mib:,.0f} MiB "
            f"{SETTLE_SECONDS:g} s after",
            f"other table move   {ms(self.round_trips)}",
            f"other table page   {ms(self.pages)}",
            f"server CPU         {self.server_cpu_seconds:,.1f} s in the window",
        ]
        if self.flood:
            codes = ", ".join(
                f"{code}: {count}" for code, count in sorted(self.close_codes.items(), key=str)
            )
            lines.append(
                f"flood              {self.frames_sent:,} frames on {self.flood_sockets_opened} "
                f"sockets; closed with {codes or 'nothing'}"
            )
        return lines


def resident_mib(pid: int) -> float:
    """The process's resident memory now (VmRSS of /proc/<pid>/status)."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def run_flood(options: FloodOptions, log_dir: Path, say: Callable[[str], None]) -> list[Phase]:
    """The run without the flood, then with it, each on a fresh server."""
    phases = []
    for flood in (False, True):
        names = create_users(LoadOptions(tables=1, players=5, spectators=0))
        say(f"{'with' if flood else 'without'} the flood: serving the site with one Daphne")
        name = "flood" if flood else "baseline"
        with DaphneGroup(SITE_APP, 1, log_dir, name, settings_module=FLOOD_SETTINGS) as site:
            phase = asyncio.run(_phase(options, site, names, flood))
            site.check_alive()
        phases.append(phase)
    return phases


async def _phase(options: FloodOptions, site: DaphneGroup, names: list[str], flood: bool) -> Phase:
    phase = Phase(flood)
    pid = site.processes[0].pid
    counters = SiteCounters()
    rng = random.Random(options.seed)
    connector = aiohttp.TCPConnector(limit=0)
    url = site.urls[0]
    flooder, victim, reader, *players = [
        Client(name, url, connector, counters, random.Random(rng.random()), options.think)
        for name in names
    ]
    try:
        for client in (flooder, victim, reader, *players):
            await client.log_in(PASSWORD)
        flooded = await flooder.open_table(2)
        await victim.join(flooded)
        await flooder.start(flooded)
        watched = await reader.open_table(2)
        group = TableGroup(players, [], asyncio.Semaphore(1))
        stop = asyncio.Event()
        async with asyncio.TaskGroup() as tasks:
            tasks.create_task(group.run(counters))
            await asyncio.wait_for(group.ready.wait(), 60)
            window = Window.after(WARMUP_SECONDS, options.seconds)
            for player in players:
                player.window = window
            phase.rss_start_mib = resident_mib(pid)
            await asyncio.sleep(max(0.0, window.start - time.monotonic()))
            tasks.create_task(_sample_memory(pid, phase, stop))
            tasks.create_task(_load_pages(reader, watched, phase, stop))
            if flood:
                tasks.create_task(_flood(flooder, flooded, options, phase))
            cpu = site.cpu_seconds()
            await asyncio.sleep(max(0.0, window.end - time.monotonic()))
            phase.server_cpu_seconds = site.cpu_seconds() - cpu
            stop.set()
            group.stop.set()
        phase.round_trips = counters.round_trips
        await asyncio.sleep(SETTLE_SECONDS)
        phase.rss_after_mib = resident_mib(pid)
    finally:
        for client in (flooder, victim, reader, *players):
            await client.close()
        await connector.close()
    return phase


async def _sample_memory(pid: int, phase: Phase, stop: asyncio.Event) -> None:
    while not stop.is_set():
        phase.rss_peak_mib = max(phase.rss_peak_mib, resident_mib(pid))
        await asyncio.sleep(0.1)


async def _load_pages(client: Client, table_id: int, phase: Phase, stop: asyncio.Event) -> None:
    """Load a table's page as a visitor's browser would, every PAGE_EVERY seconds."""
    while not stop.is_set():
        started = time.monotonic()
        async with client.session.get(f"/tables/{table_id}/") as response:
            await response.read()
        phase.pages.append(time.monotonic() - started)
        await asyncio.sleep(PAGE_EVERY)


async def _flood(client: Client, table_id: int, options: FloodOptions, phase: Phase) -> None:
    """Run the flooding client (``tools.loadtest.flooder``) in a process of its own, with
    ``client``'s log-in, for the window; read what it did."""
    cookies = client.session.cookie_jar.filter_cookies(URL(client.base_url))
    cookie = "; ".join(f"{name}={morsel.value}" for name, morsel in cookies.items())
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tools.loadtest.flooder",
        client.base_url,
        cookie,
        str(table_id),
        str(options.sockets),
        str(options.seconds),
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
    )
    output, _ = await process.communicate()
    done = json.loads(output)
    phase.frames_sent = done["frames"]
    phase.flood_sockets_opened = done["opened"]
    phase.close_codes = Counter(done["closes"])
