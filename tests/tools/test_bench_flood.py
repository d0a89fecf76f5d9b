"""The bench_flood command (make bench-flood) floods a live Daphne from outside and measures.

A smoke run, a few seconds long, of the real command in a process of its own (it serves
the site with Daphne subprocesses and floods from another) on a throwaway database.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from tests.tools.test_bench_load import _manage


def test_it_floods_a_table_and_measures_another_with_and_without(tmp_path: Path) -> None:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'bench.sqlite3'}"}
    env.pop("REDIS_URL", None)
    _manage("migrate", "--noinput", "--verbosity", "0", env=env).check_returncode()
    figures_path = tmp_path / "figures.json"

    run = _manage(
        "bench_flood", "--seconds", "4", "--sockets", "2", "--json", str(figures_path), env=env
    )

    assert run.returncode == 0, run.stdout + run.stderr
    quiet, flooded = json.loads(figures_path.read_text())
    assert (quiet["flood"], flooded["flood"]) == (False, True)
    assert quiet["frames_sent"] == 0 and flooded["frames_sent"] > 1000
    assert flooded["flood_sockets_opened"] >= 2
    assert sum(flooded["close_codes"].values()) >= 1  # the site closed the flooding sockets
    assert quiet["round_trips"]  # the other table played
    for phase in (quiet, flooded):
        assert phase["rss_peak_mib"] > 0 and phase["pages"]
    assert "with the flood" in run.stdout and "other table move" in run.stdout
