"""``make bench-social``: the site socket of every signed-in page, measured from outside.

A thin command line over ``tools.loadtest.social``: the server's memory per idle site socket and
its CPU per presence change on one Daphne process, then a notification's time from the action
on one process to the bell on another.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import asdict
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tools.loadtest.layouts import redis_service
from tools.loadtest.servers import RedisServer, ServerError
from tools.loadtest.social import SocialOptions, run_social


class Command(BaseCommand):
    help = (
        "Site socket benchmark: many idle signed-in site sockets on one Daphne process (its "
        "memory before and after, its CPU per friend coming online or going offline), then a "
        "follow on one of two Daphne processes timed to the bell on the other. Needs REDIS_URL "
        "or redis-server installed. Writes to the configured database: use a throwaway one "
        "(make bench-social does)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--sockets", type=int, default=1000, help="idle site sockets (default 1000)"
        )
        parser.add_argument(
            "--changers",
            type=int,
            default=5,
            help="people who are friends of every socket's person (default 5)",
        )
        parser.add_argument(
            "--changes",
            type=int,
            default=10,
            help="presence changes, half coming online, half going offline (default 10)",
        )
        parser.add_argument(
            "--actions", type=int, default=300, help="follows timed to the bell (default 300)"
        )
        parser.add_argument("--json", type=Path, help="also write the figures to this file")

    def handle(self, *args, **options) -> None:
        if options["sockets"] < 2 or options["changers"] < 1:
            raise CommandError("--sockets must be at least 2 and --changers at least 1")
        if options["changes"] < 2 or options["actions"] < 1:
            raise CommandError("--changes must be at least 2 and --actions at least 1")
        if not (os.environ.get("REDIS_URL") or RedisServer.installed()):
            raise CommandError(
                "the bell across processes needs REDIS_URL, or redis-server installed for a "
                "Redis of the run's own"
            )
        social = SocialOptions(
            sockets=options["sockets"],
            changers=options["changers"],
            changes=options["changes"],
            actions=options["actions"],
        )
        say = self.stderr.write
        with tempfile.TemporaryDirectory(prefix="bench-social-") as folder:
            logs = Path(folder)
            try:
                with redis_service(logs) as (url, pid):
                    report = run_social(social, logs, say, url, pid)
            except ServerError as error:
                raise CommandError(str(error)) from None
        for line in report.lines():
            self.stdout.write(line)
        if options["json"] is not None:
            figures = {
                **asdict(report),
                "kib_per_socket": report.kib_per_socket,
                "kib_per_socket_second_half": report.kib_per_socket_second_half,
                "net_cpu_ms": [report.net_cpu_ms(change) for change in report.changes],
            }
            options["json"].write_text(json.dumps(figures, indent=2) + "\n")
