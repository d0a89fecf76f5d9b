"""``manage.py run_clock``: the game clock as a process of its own. What it does goes to the
site's log (stderr, in LOG_FORMAT: lib/logs.py)."""

from __future__ import annotations

import signal
import threading

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.db import close_old_connections

from games import clock
from outbox import sending


class Command(BaseCommand):
    help = (
        "Play the bots' moves and the turn timeouts (R23) as they fall due, until SIGTERM or "
        "Ctrl-C. Any number of clocks may run beside each other and beside the web processes' "
        "own: each move is played once. Its pushes reach the web processes' sockets through the "
        "channel layer, so it needs REDIS_URL."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--interval",
            type=float,
            default=clock.POLL_INTERVAL,
            help=f"seconds between looks for due games (default {clock.POLL_INTERVAL})",
        )
        parser.add_argument("--once", action="store_true", help="play what is due now, then stop")

    def handle(self, *args, interval: float, once: bool, **options) -> None:
        layer = settings.CHANNEL_LAYERS["default"]["BACKEND"]
        if layer.endswith("InMemoryChannelLayer") and not once:
            clock.logger.warning(
                "no REDIS_URL: this clock's moves will not be pushed to the web processes' "
                "sockets (their own clock, CLOCK_IN_WEB, does that)"
            )
        stop = threading.Event()
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, lambda *_: stop.set())
        clock.logger.info("the game clock is running in this process, every %s s", interval)
        played = 0
        this = clock.Clock(jobs=clock.configured_jobs(), deliver=sending.deliver_due)
        while not stop.is_set():
            close_old_connections()  # a long-lived process: drop connections gone bad
            try:
                this.sweep_abandoned()
                this.match_pools()
                this.sweep_no_shows()
                this.sweep_challenges()
                this.run_jobs()
                this.send_outbox()
                played += this.play_due(should_stop=stop.is_set)
            except Exception:  # the database may be away for a moment: try again next time
                clock.logger.exception("the game clock failed to tick")
            if once:
                break
            stop.wait(interval)
        this.finish_outbox()
        clock.logger.info("the game clock stopped; advanced %d due games", played)
