"""The bench_social command (make bench-social) opens real site sockets and measures them.

A smoke run at a tiny size of the real command in a process of its own (it serves the site with
Daphne subprocesses on a Redis of its own) on a throwaway database.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from games.services.online import GONE_AFTER
from tests.tools.test_bench_load import _manage


@pytest.mark.skipif(
    not (os.environ.get("REDIS_URL") or shutil.which("redis-server")),
    reason="needs REDIS_URL or redis-server",
)
def test_it_measures_idle_sockets_presence_and_the_bell_across_processes(
    tmp_path: Path,
) -> None:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'bench.sqlite3'}"}
    _manage("migrate", "--noinput", "--verbosity", "0", env=env).check_returncode()
    figures_path = tmp_path / "figures.json"
    sockets, changes, actions = 12, 4, 6

    run = _manage(
        "bench_social",
        *("--sockets", str(sockets), "--changers", "2"),
        *("--changes", str(changes), "--actions", str(actions)),
        *("--json", str(figures_path)),
        env=env,
        timeout=150,
    )

    assert run.returncode == 0, run.stdout + run.stderr
    figures = json.loads(figures_path.read_text())
    assert figures["opened"] == sockets
    assert 0 < figures["rss_before_mib"] <= figures["rss_after_mib"]
    assert [change["online"] for change in figures["changes"]] == [True, False] * (changes // 2)
    for change in figures["changes"]:
        assert change["pushes"] == sockets  # every reader's panel, once
        assert change["cpu_seconds"] > 0
    going = [change for change in figures["changes"] if not change["online"]]
    # Friends are told someone left only once no page of theirs has been open for a while.
    assert all(change["last_push_seconds"] >= GONE_AFTER for change in going)
    assert len(figures["bells"]) == len(figures["follow_requests"]) == actions
    assert all(0 < bell < 30 for bell in figures["bells"])
    assert "per idle socket" in run.stdout and "follow to bell" in run.stdout
