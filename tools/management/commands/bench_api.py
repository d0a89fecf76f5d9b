"""manage.py bench_api: the API's reference clients beside the websocket players, in one run
(tools.loadtest.api_run)."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from django.core.management.base import BaseCommand

from tools.loadtest.api_run import run_both


class Command(BaseCommand):
    help = "CPU per move through the API against the websockets, and the game stream's latency"

    def add_arguments(self, parser) -> None:
        parser.add_argument("--pairs", type=int, default=10)
        parser.add_argument("--seconds", type=float, default=20.0)
        parser.add_argument("--warmup", type=float, default=5.0)

    def handle(self, *args, **options) -> None:
        log_dir = Path(tempfile.mkdtemp(prefix="bench-api-"))
        result = run_both(
            options["pairs"], options["seconds"], options["warmup"], log_dir, self.stdout.write
        )
        self.stdout.write(json.dumps(result, indent=2))
