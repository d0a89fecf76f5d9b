"""The bench_load command (make bench-load) really plays over websockets and checks itself.

A smoke run, a few seconds long, of the real command in a process of its own (it serves the
site with Daphne subprocesses) on a throwaway database.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _manage(
    *args: str, env: dict[str, str], timeout: float = 90
) -> subprocess.CompletedProcess[str]:
    """Run a management command with the tools installed (``tools.settings``), in a process
    group of its own: one that runs out of time is ended with the Daphne and Redis servers it
    started, not alone, leaving them running."""
    with subprocess.Popen(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "tools.settings"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    ) as process:
        try:
            out, err = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            raise
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


@pytest.fixture
def bench_env(tmp_path: Path) -> dict[str, str]:
    """A throwaway database, migrated, and no REDIS_URL: a run that needs Redis starts its own."""
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'bench.sqlite3'}"}
    env.pop("REDIS_URL", None)
    _manage("migrate", "--noinput", "--verbosity", "0", env=env).check_returncode()
    return env


needs_redis_server = pytest.mark.skipif(
    shutil.which("redis-server") is None and not os.environ.get("CI"),
    reason="redis-server is not installed",
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
    # The measuring side watched its own loop through the window.
    assert figures["clients"]["lag_p99_ms"] is not None and figures["clients"]["cpu_share"] > 0
    assert "clients' own loop" in run.stdout


def test_it_refuses_several_processes_without_redis_url_or_redis_server(tmp_path: Path) -> None:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'bench.sqlite3'}"}
    env.pop("REDIS_URL", None)
    env["PATH"] = str(tmp_path)  # no redis-server to start

    run = _manage("bench_load", "--processes", "2", env=env)

    assert run.returncode != 0
    assert "REDIS_URL" in run.stderr and "redis-server" in run.stderr


@needs_redis_server
def test_it_compares_one_process_with_two_on_redis_side_by_side(
    bench_env: dict[str, str], tmp_path: Path
) -> None:
    figures_path = tmp_path / "figures.json"

    run = _manage(
        "bench_load",
        # Players slow enough that games are still being played in the steady window.
        *("--tables", "3", "--players", "2", "--spectators", "1", "--think", "0.2"),
        *("--seconds", "2", "--warmup", "1", "--steady-seconds", "2"),
        *("--layouts", "one,local,spread", "--json", str(figures_path)),
        env=bench_env,
        timeout=240,
    )

    assert run.returncode == 0, run.stdout + run.stderr
    figures = json.loads(figures_path.read_text())
    assert [layout["layout"] for layout in figures] == [
        "one process, in memory",
        "two processes, local, Redis pubsub",
        "two processes, spread, Redis pubsub",
    ]
    for layout in figures:
        assert layout["verification"]["ok"], (layout["layout"], layout["verification"])
        assert layout["moves"] > 0 and layout["server_cpu_ms_per_move"] > 0
        # Moves alone, in a window of their own after the whole one.
        assert layout["steady_moves"] > 0 and layout["steady_cpu_ms_per_move"] > 0
        assert layout["steady_round_trip_ms"]["samples"] > 0
        assert layout["ceiling_messages"] is None  # layouts are compared without the relay
    assert figures[0]["redis_cpu_seconds"] == 0  # no Redis for one process
    side_by_side = run.stdout[run.stdout.index("--- side by side") :]
    assert "two processes, spread, Redis pubsub" in side_by_side and "1.00x" in side_by_side


def test_it_refuses_a_layout_it_does_not_know(bench_env: dict[str, str]) -> None:
    run = _manage("bench_load", "--layouts", "one,everywhere", env=bench_env)

    assert run.returncode != 0
    assert "everywhere" in run.stderr


def test_it_finds_how_many_open_loop_tables_one_process_holds(
    bench_env: dict[str, str], tmp_path: Path
) -> None:
    figures_path = tmp_path / "capacity.json"

    run = _manage(
        "bench_load",
        *("--find-capacity", "--think", "0.05-0.1", "--target-p99", "60000"),
        *("--tables", "3", "--start", "1", "--step", "2", "--seconds", "2", "--warmup", "1"),
        *("--json", str(figures_path)),
        env=bench_env,
    )

    assert run.returncode == 0, run.stdout + run.stderr
    figures = json.loads(figures_path.read_text())
    assert [step["tables"] for step in figures["steps"]] == [1, 3]
    assert all(step["samples"] > 0 and step["p99_ms"] > 0 for step in figures["steps"])
    assert figures["capacity"] == 3  # every step under a minute
    assert figures["verification"]["ok"], figures["verification"]["problems"]
    assert "capacity           3 open-loop tables" in run.stdout


def test_finding_the_capacity_needs_an_open_loop(bench_env: dict[str, str]) -> None:
    run = _manage("bench_load", "--find-capacity", "--tables", "3", env=bench_env)

    assert run.returncode != 0
    assert "--think" in run.stderr


@pytest.mark.postgresql
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


def test_the_cpu_of_the_redis_process_counts_with_the_servers() -> None:
    from tools.loadtest.run import CpuMeter

    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:

        class NoServers:
            def cpu_seconds(self) -> float:
                return 1.5

        meter = CpuMeter(NoServers(), busy.pid)  # type: ignore[arg-type]
        first = meter.read()
        deadline = time.monotonic() + 10
        while meter.read().redis - first.redis < 0.05 and time.monotonic() < deadline:
            time.sleep(0.05)
        last = meter.read()
    finally:
        busy.kill()
        busy.wait()

    used = last - first
    assert used.redis >= 0.05 and used.servers == 0
    assert last.total == last.servers + last.redis and last.servers == 1.5


def test_a_command_that_runs_out_of_time_is_ended_with_the_servers_it_started(
    bench_env, tmp_path
) -> None:
    # A stand-in for a benchmark hung in the middle of its run: a server of its own, then a
    # wait; the run's time is up before either ends.
    started = tmp_path / "server.pid"
    script = (
        "import subprocess, sys, time; "
        "server = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)'], "
        "stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); "
        f"open({str(started)!r}, 'w').write(str(server.pid)); time.sleep(600)"
    )
    with pytest.raises(subprocess.TimeoutExpired):
        _manage("shell", "-c", script, env=bench_env, timeout=5)

    server = int(started.read_text())
    deadline = time.monotonic() + 5
    while Path(f"/proc/{server}").exists() and time.monotonic() < deadline:
        time.sleep(0.05)  # killed: gone once its parent, this test's init, reaps it
    status = Path(f"/proc/{server}/stat")
    assert not status.exists() or status.read_text().split(") ")[1].startswith("Z")
