"""``make bench-flood``: one person flooding a table's sockets against the rest of the site.

A thin command line over ``tools.loadtest.flood``: it runs the site without the flood and with
it, and prints the server's memory and another table's move round trip and page time in each.
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import asdict
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tools.loadtest.flood import FloodOptions, run_flood
from tools.loadtest.servers import ServerError


class Command(BaseCommand):
    help = (
        "Flood benchmark: serve the site with Daphne; a seated player writes refused clicks "
        "into several sockets of their table without reading, reopening each one the site "
        "closes, while two people play at another table and a third loads a table's page. "
        "Prints the server's memory and the other table's round trips, with the flood and "
        "without. Writes to the configured database: use a throwaway one (make bench-flood does)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--seconds", type=float, default=15.0, help="measured window (default 15)"
        )
        parser.add_argument(
            "--sockets", type=int, default=4, help="the flooder's sockets at once (default 4)"
        )
        parser.add_argument("--json", type=Path, help="also write the figures to this file")

    def handle(self, *args, **options) -> None:
        if options["seconds"] <= 0 or options["sockets"] < 1:
            raise CommandError("--seconds must be positive and --sockets at least 1")
        flood = FloodOptions(seconds=options["seconds"], sockets=options["sockets"])
        with tempfile.TemporaryDirectory(prefix="bench-flood-") as logs:
            try:
                phases = run_flood(flood, Path(logs), lambda line: self.stderr.write(line))
            except ServerError as error:
                raise CommandError(str(error)) from None
        for phase in phases:
            for line in phase.lines():
                self.stdout.write(line)
        if options["json"] is not None:
            figures = [
                {**asdict(phase), "close_codes": dict(phase.close_codes)} for phase in phases
            ]
            options["json"].write_text(json.dumps(figures, indent=2, default=str) + "\n")
