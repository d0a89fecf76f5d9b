"""``make bench-load``: a load benchmark of the live site over real HTTP and websockets.

A thin command line over ``tools.loadtest``: it checks the options, runs the benchmark, prints
the figures and exits non-zero when the end-of-run verification fails.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import BOT_LEVELS
from tools.loadtest.arena import run_side_by_side, side_by_side_lines
from tools.loadtest.capacity import find_capacity
from tools.loadtest.driver import Think
from tools.loadtest.layouts import Layout, comparison_lines, redis_service, run_layouts
from tools.loadtest.run import LoadOptions, run
from tools.loadtest.servers import RedisServer, ServerError


def _think(text: str) -> Think:
    try:
        return Think.parse(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r}: give seconds, e.g. 0 (closed loop) or 0.5-1.5"
        ) from None


def _layouts(text: str) -> list[Layout]:
    try:
        return [Layout.parse(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r}: give layouts among one, local, spread, e.g. one,local,spread or "
            "local:pubsub,local:lists"
        ) from None


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: must be at least 1")
    return value


class Command(BaseCommand):
    help = (
        "Load benchmark of the live site: serve it with Daphne, log simulated players in through "
        "its pages, open and start tables, and play legal moves read from the pushed fragments "
        "over real websockets; then drive a trivial relay consumer on the same stack (the "
        "ceiling). Prints moves/s, round trips, pushes/s, server CPU per move, the share of the "
        "ceiling and the ceiling's CPU per message, and verifies every game and move. Writes to "
        "the configured database: use a throwaway one (make bench-load does)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tables", type=_positive, default=50, help="tables (default 50)")
        parser.add_argument(
            "--players",
            type=int,
            default=2,
            choices=range(2, 11),
            metavar="2..10",
            help="players per table (default 2)",
        )
        parser.add_argument(
            "--spectators", type=int, default=1, help="logged-in watchers per table (default 1)"
        )
        parser.add_argument(
            "--think",
            type=_think,
            default=Think(),
            help='seconds a player waits once it may act: "0" acts at once (closed loop, the '
            'default), "0.5-1.5" waits a uniform time in that range (open loop)',
        )
        parser.add_argument(
            "--seconds", type=float, default=20.0, help="measured window (default 20)"
        )
        parser.add_argument(
            "--warmup",
            type=float,
            default=5.0,
            help="seconds of play before the window opens (default 5)",
        )
        parser.add_argument(
            "--processes",
            type=_positive,
            default=1,
            help="Daphne processes serving the site (default 1); more than one needs REDIS_URL",
        )
        parser.add_argument(
            "--no-ceiling",
            dest="ceiling",
            action="store_false",
            help="skip the relay consumer run",
        )
        parser.add_argument(
            "--bot-tables",
            type=int,
            default=0,
            help="tables of four bots alone, played by the site's clock beside the players "
            "(default 0)",
        )
        parser.add_argument(
            "--bot-level",
            choices=[level for level, _label in BOT_LEVELS],
            default="expert",
            help="the level of those bots (default expert)",
        )
        parser.add_argument(
            "--local",
            action="store_true",
            help="with several processes, every socket of a table on one of them (as nginx "
            "hashing the table's path sends them), not spread over them in turn",
        )
        parser.add_argument(
            "--steady-seconds",
            type=float,
            default=10.0,
            help="a second window with no table opened, started or left: the CPU of the moves "
            "and their pushes alone (default 10; 0 for none)",
        )
        parser.add_argument(
            "--layouts",
            type=_layouts,
            help="compare layouts side by side in one run, e.g. one,local,spread (one process "
            "in memory; two on Redis, each table on one process or spread), a Redis layout's "
            "channel layer after a colon (local:lists); no ceiling",
        )
        parser.add_argument(
            "--rounds",
            type=_positive,
            default=1,
            help="with --layouts: how many times each layout runs, in turn (default 1)",
        )
        parser.add_argument(
            "--find-capacity",
            action="store_true",
            help="open loop: bring tables in step by step (--start, then --step more) up to "
            "--tables, and report the most held with a p99 round trip under --target-p99",
        )
        parser.add_argument(
            "--start", type=_positive, default=50, help="--find-capacity's first step (50)"
        )
        parser.add_argument(
            "--step", type=_positive, default=25, help="tables added per step (default 25)"
        )
        parser.add_argument(
            "--target-p99",
            type=float,
            default=100.0,
            help="--find-capacity's p99 round trip, in ms (default 100)",
        )
        parser.add_argument(
            "--arena",
            type=_positive,
            metavar="PLAYERS",
            help="side by side on one process: PLAYERS (even) at ordinary tables of 2, then as "
            "many in a running arena of duels whose waves seat them; open loop (give --think)",
        )
        parser.add_argument("--seed", type=int, default=1, help="players' choices (default 1)")
        parser.add_argument("--json", type=Path, help="also write the figures to this file")

    def handle(self, *args, **options) -> None:
        json_path: Path | None = options.pop("json")
        layouts: list[Layout] | None = options.pop("layouts")
        rounds: int = options.pop("rounds")
        needs_redis = options["processes"] > 1 or any(layout.on_redis for layout in layouts or ())
        if needs_redis and not (os.environ.get("REDIS_URL") or RedisServer.installed()):
            raise CommandError(
                "several processes need REDIS_URL, or redis-server installed for a Redis of the "
                "run's own: with the in-memory channel layer a move made in one process never "
                "reaches the sockets held by another."
            )
        if options["spectators"] < 0 or options["bot_tables"] < 0:
            raise CommandError("--spectators and --bot-tables cannot be negative")
        if options["seconds"] <= 0 or options["warmup"] < 0 or options["steady_seconds"] < 0:
            raise CommandError(
                "--seconds must be positive, --warmup and --steady-seconds not negative"
            )
        load = LoadOptions(**{name: options[name] for name in LoadOptions.__dataclass_fields__})
        say = self.stderr.write
        if options["find_capacity"]:
            self._find_capacity(load, options, json_path)
            return
        if options["arena"] is not None:
            self._arena(load, options["arena"], json_path)
            return
        with tempfile.TemporaryDirectory(prefix="bench-load-") as folder:
            logs = Path(folder)
            try:
                if layouts:
                    load = replace(load, ceiling=False)
                    results = run_layouts(load, layouts, rounds, logs, say)
                elif options["processes"] > 1:
                    with redis_service(logs) as (url, pid):
                        env = {"REDIS_URL": url}
                        results = [(None, run(load, logs, say, env, pid))]
                else:
                    results = [(None, run(load, logs, say))]
            except ServerError as error:
                raise CommandError(str(error)) from None
            except KeyboardInterrupt:
                raise CommandError("interrupted: the servers are stopped", returncode=130) from None
            except Exception:
                self._show_server_logs(logs)  # the server's side of what went wrong
                raise
            failed = [report for _layout, report in results if not report.verification["ok"]]
            if failed:
                self._show_server_logs(logs)
        for layout, report in results:
            if layout is not None:
                self.stdout.write(f"--- {layout.label}")
            for line in report.lines():
                self.stdout.write(line)
        if layouts:
            self.stdout.write("--- side by side")
            for line in comparison_lines(results):
                self.stdout.write(line)
        if json_path is not None:
            figures = [
                {**report.as_dict(), **({"layout": layout.label} if layout else {})}
                for layout, report in results
            ]
            written = figures if layouts else figures[0]
            json_path.write_text(json.dumps(written, indent=2) + "\n")
        if failed:
            raise CommandError("verification failed")

    def _find_capacity(
        self, load: LoadOptions, options: dict[str, Any], json_path: Path | None
    ) -> None:
        if load.think.closed_loop:
            raise CommandError("--find-capacity needs an open loop: give --think, e.g. 0.5-1.5")
        if load.processes > 1 or load.bot_tables:
            raise CommandError("--find-capacity measures one process, without --bot-tables")
        with tempfile.TemporaryDirectory(prefix="bench-load-") as folder:
            try:
                report = find_capacity(
                    load,
                    min(options["start"], load.tables),
                    options["step"],
                    options["target_p99"],
                    Path(folder),
                    self.stderr.write,
                    {"REDIS_URL": None},
                )
            except ServerError as error:
                raise CommandError(str(error)) from None
            if not report.verification["ok"]:
                self._show_server_logs(Path(folder))
        for line in report.lines():
            self.stdout.write(line)
        if json_path is not None:
            json_path.write_text(json.dumps(report.as_dict(), indent=2) + "\n")
        if not report.verification["ok"]:
            raise CommandError("verification failed")

    def _arena(self, load: LoadOptions, players: int, json_path: Path | None) -> None:
        if load.think.closed_loop:
            raise CommandError("--arena needs an open loop: give --think, e.g. 0.5-1.5")
        if players % 2 or load.processes > 1 or load.bot_tables:
            raise CommandError("--arena takes an even number of players, on one process, no bots")
        load = replace(load, tables=players // 2)
        with tempfile.TemporaryDirectory(prefix="bench-load-") as folder:
            logs = Path(folder)
            try:
                tables, arena = run_side_by_side(load, logs, self.stderr.write)
            except ServerError as error:
                raise CommandError(str(error)) from None
            except Exception:
                self._show_server_logs(logs)
                raise
            failed = not (tables.verification["ok"] and arena.verification["ok"])
            if failed:
                self._show_server_logs(logs)
        for label, report in (("ordinary tables", tables), ("arena", arena)):
            self.stdout.write(f"--- {players} players, {label}")
            for line in report.lines():
                self.stdout.write(line)
        self.stdout.write("--- side by side")
        for line in side_by_side_lines(players, tables, arena):
            self.stdout.write(line)
        if json_path is not None:
            figures = {"tables": tables.as_dict(), "arena": arena.as_dict()}
            json_path.write_text(json.dumps(figures, indent=2) + "\n")
        if failed:
            raise CommandError("verification failed")

    def _show_server_logs(self, folder: Path) -> None:
        for log in sorted(folder.rglob("daphne-*.log")):
            self.stderr.write(f"--- {log.name} (last lines)")
            self.stderr.write("\n".join(log.read_text(errors="replace").splitlines()[-40:]))
