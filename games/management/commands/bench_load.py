"""``make bench-load``: a load benchmark of the live site over real HTTP and websockets.

A thin command line over ``games.loadtest``: it checks the options, runs the benchmark, prints
the figures and exits non-zero when the end-of-run verification fails.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.loadtest.driver import Think
from games.loadtest.run import LoadOptions, run
from games.loadtest.servers import ServerError
from games.models import BOT_LEVELS


def _think(text: str) -> Think:
    try:
        return Think.parse(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r}: give seconds, e.g. 0 (closed loop) or 0.5-1.5"
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
        parser.add_argument("--seed", type=int, default=1, help="players' choices (default 1)")
        parser.add_argument("--json", type=Path, help="also write the figures to this file")

    def handle(self, *args, **options) -> None:
        json_path: Path | None = options.pop("json")
        if options["processes"] > 1 and not os.environ.get("REDIS_URL"):
            raise CommandError(
                "--processes above 1 needs REDIS_URL: with the in-memory channel layer a move "
                "made in one process never reaches the sockets held by another."
            )
        if options["spectators"] < 0 or options["bot_tables"] < 0:
            raise CommandError("--spectators and --bot-tables cannot be negative")
        if options["seconds"] <= 0 or options["warmup"] < 0:
            raise CommandError("--seconds must be positive and --warmup not negative")
        load = LoadOptions(**{name: options[name] for name in LoadOptions.__dataclass_fields__})
        with tempfile.TemporaryDirectory(prefix="bench-load-") as logs:
            try:
                report = run(load, Path(logs), lambda line: self.stderr.write(line))
            except ServerError as error:
                raise CommandError(str(error)) from None
            except KeyboardInterrupt:
                raise CommandError("interrupted: the servers are stopped", returncode=130) from None
            except Exception:
                self._show_server_logs(Path(logs))  # the server's side of what went wrong
                raise
            if not report.verification["ok"]:
                self._show_server_logs(Path(logs))
        for line in report.lines():
            self.stdout.write(line)
        if json_path is not None:
            json_path.write_text(json.dumps(report.as_dict(), indent=2) + "\n")
        if not report.verification["ok"]:
            raise CommandError("verification failed")

    def _show_server_logs(self, folder: Path) -> None:
        for log in sorted(folder.glob("daphne-*.log")):
            self.stderr.write(f"--- {log.name} (last lines)")
            self.stderr.write("\n".join(log.read_text(errors="replace").splitlines()[-40:]))
