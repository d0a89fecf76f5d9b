"""The bench_load command (make bench-load) really plays over websockets and checks itself.

A smoke run, a few seconds long, of the real command in a process of its own (it serves the
site with Daphne subprocesses) on a throwaway database.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=90,
    )


def test_it_plays_over_websockets_and_verifies_every_move(tmp_path: Path) -> None:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'bench.sqlite3'}"}
    env.pop("REDIS_URL", None)
    _manage("migrate", "--noinput", "--verbosity", "0", env=env).check_returncode()
    figures_path = tmp_path / "figures.json"

    run = _manage(
        "bench_load",
        *("--tables", "2", "--players", "2", "--spectators", "1"),
        *("--seconds", "3", "--warmup", "1", "--json", str(figures_path)),
        env=env,
    )

    assert run.returncode == 0, run.stdout + run.stderr
    figures = json.loads(figures_path.read_text())
    check = figures["verification"]
    assert figures["moves"] > 0
    assert figures["pushes"] > figures["moves"]  # every move is pushed to each socket
    assert figures["round_trip_ms"]["samples"] > 0
    assert check["ok"], check["problems"]
    assert check["games"] >= 2 and check["games_verified"] == check["games"]
    assert check["moves_logged"] == check["moves_acknowledged"] > 0
    assert check["doubled_refused"] == check["doubled"]
    assert figures["ceiling_messages"] > 0
    assert figures["ceiling_cpu_ms_per_message"] > 0  # the ceiling process did work
    assert "moves/s" in run.stdout and "verification       ok" in run.stdout


def test_it_refuses_several_processes_without_redis(tmp_path: Path) -> None:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'bench.sqlite3'}"}
    env.pop("REDIS_URL", None)

    run = _manage("bench_load", "--processes", "2", env=env)

    assert run.returncode != 0
    assert "REDIS_URL" in run.stderr


@pytest.mark.skipif(
    not os.environ.get("TAKI_THROWAWAY_SERVICES"),
    reason="plays on DATABASE_URL itself: only on the throwaway PostgreSQL of .ci/with-services",
)
def test_games_over_two_processes_sharing_redis_and_postgresql_verify() -> None:
    env = dict(os.environ)
    assert env["DATABASE_URL"].startswith("postgres") and env["REDIS_URL"].startswith("redis")
    _manage("migrate", "--noinput", "--verbosity", "0", env=env).check_returncode()

    run = _manage(
        "bench_load",
        *("--processes", "2", "--tables", "4", "--players", "2", "--spectators", "1"),
        *("--seconds", "3", "--warmup", "1", "--no-ceiling"),
        env=env,
    )

    assert run.returncode == 0, run.stdout + run.stderr
    assert "with 2 Daphne process(es)" in run.stdout + run.stderr
    assert "verification       ok" in run.stdout


def test_tables_of_bots_think_beside_the_players_and_their_games_verify(tmp_path: Path) -> None:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'bench.sqlite3'}"}
    env.pop("REDIS_URL", None)
    _manage("migrate", "--noinput", "--verbosity", "0", env=env).check_returncode()
    figures_path = tmp_path / "figures.json"

    run = _manage(
        "bench_load",
        *("--tables", "1", "--players", "2", "--spectators", "0", "--no-ceiling"),
        *("--bot-tables", "2", "--bot-level", "expert"),
        *("--seconds", "3", "--warmup", "1", "--json", str(figures_path)),
        env=env,
    )

    assert run.returncode == 0, run.stdout + run.stderr
    figures = json.loads(figures_path.read_text())
    assert figures["options"]["bot_tables"] == 2
    assert figures["bot_moves"] > 0  # the clock played the bots' games during the window
    assert figures["moves"] > 0
    assert figures["verification"]["ok"], figures["verification"]["problems"]
    assert "bots beside" in run.stdout


def test_it_refuses_a_bot_level_that_does_not_exist(tmp_path: Path) -> None:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'bench.sqlite3'}"}

    run = _manage("bench_load", "--bot-tables", "1", "--bot-level", "grandmaster", env=env)

    assert run.returncode != 0
    assert "grandmaster" in run.stderr
