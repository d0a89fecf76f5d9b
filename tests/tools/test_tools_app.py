"""The benchmark commands are the tools' (``tools/``): installed by ``tools.settings``, absent
from the site that a server runs."""

from __future__ import annotations

import os
import subprocess
import sys

from django.core.management import get_commands

from tests.tools.test_bench_load import ROOT

BENCHMARKS = {
    "bench_admin",
    "bench_arena",
    "bench_flood",
    "bench_load",
    "bench_match",
    "bench_replay",
    "bench_site",
}


def test_the_site_a_server_runs_has_no_benchmark_command() -> None:
    assert set(get_commands()) & BENCHMARKS == set()
    assert {"run_clock", "export_data", "recompute_ratings"} <= set(get_commands())


def test_the_tools_settings_install_every_benchmark_command() -> None:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tools.settings"}
    listed = subprocess.run(
        [sys.executable, "manage.py", "help", "--commands"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout.split()
    assert set(listed) >= BENCHMARKS
