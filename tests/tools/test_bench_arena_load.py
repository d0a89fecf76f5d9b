"""bench_load --arena (make bench-arena-load): an arena its waves seat, played over websockets
beside as many players at ordinary tables, in one run that checks itself.

A smoke run, a few seconds long, of the real command in a process of its own (it serves the
site with Daphne subprocesses) on a throwaway database.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.tools.test_bench_load import _manage, bench_env  # noqa: F401 (a fixture)

pytestmark = pytest.mark.bench


def test_an_arena_is_seated_by_its_waves_and_played_beside_ordinary_tables(
    bench_env: dict[str, str],  # noqa: F811
    tmp_path: Path,
) -> None:
    figures_path = tmp_path / "figures.json"

    run = _manage(
        "bench_load",
        *("--arena", "6", "--think", "0.05-0.1", "--seconds", "2", "--warmup", "0.5"),
        *("--json", str(figures_path)),
        env=bench_env,
        timeout=60,
    )

    assert run.returncode == 0, run.stdout + run.stderr
    figures = json.loads(figures_path.read_text())
    tables, arena = figures["tables"], figures["arena"]
    for report in (tables, arena):
        assert report["verification"]["ok"], report["verification"]["problems"]
        assert report["moves"] > 0 and report["server_cpu_ms_per_move"] > 0
        assert report["round_trip_ms"]["samples"] > 0
        assert (
            report["verification"]["moves_logged"] == report["verification"]["moves_acknowledged"]
        )
    assert tables["options"]["spectators"] == 0 and tables["options"]["tables"] == 3
    # Every player was seated by the arena's waves (a player never seated fails the
    # verification), at its tables of two: one game each.
    assert arena["verification"]["games"] == arena["games_started"] == 3
    side_by_side = run.stdout[run.stdout.index("--- side by side") :]
    assert "ordinary tables of 2" in side_by_side and "arena of duels" in side_by_side


def test_an_arena_run_needs_an_open_loop_and_an_even_number_of_players(tmp_path: Path) -> None:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'bench.sqlite3'}"}

    closed = _manage("bench_load", "--arena", "6", env=env)
    odd = _manage("bench_load", "--arena", "5", "--think", "0.5-1.5", env=env)

    assert closed.returncode != 0 and "open loop" in closed.stderr
    assert odd.returncode != 0 and "even number" in odd.stderr
