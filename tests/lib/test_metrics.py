"""The metrics of several processes in one PROMETHEUS_MULTIPROC_DIR (lib/metrics.py): the
counts of a process that stopped are still added up, and its open sockets no longer are,
whether it stopped by itself or was killed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from prometheus_client import CollectorRegistry
from prometheus_client.multiprocess import MultiProcessCollector

ROOT = Path(__file__).resolve().parents[2]

# A process of the site as far as its metrics go: a move applied, a socket open; then it is
# killed (no exit of its own), or it waits for its stdin to close and exits.
COUNT_THEN = """
import os, signal, sys
from lib.metrics import MOVES_APPLIED, SOCKETS_OPEN
MOVES_APPLIED.inc()
SOCKETS_OPEN.inc()
print(os.getpid(), flush=True)
if sys.argv[1] == "killed":
    os.kill(os.getpid(), signal.SIGKILL)
sys.stdin.read()
"""


def start(folder: Path, then: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", COUNT_THEN, then],
        cwd=ROOT,
        env={**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(folder)},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )


def summed(folder: Path) -> tuple[float, dict[str, float]]:
    """What /metrics serves from ``folder``: the moves applied, the sockets open per process."""
    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=str(folder))
    sockets = {
        sample.labels["pid"]: sample.value
        for family in registry.collect()
        if family.name == "taki_sockets_open"
        for sample in family.samples
    }
    return registry.get_sample_value("taki_moves_applied_total") or 0.0, sockets


def test_a_stopped_process_s_counts_are_kept_and_its_sockets_forgotten(tmp_path) -> None:
    killed = start(tmp_path, "killed")
    killed_pid = killed.stdout.readline().strip()
    killed.wait(timeout=10)
    assert summed(tmp_path) == (1.0, {killed_pid: 1.0})  # nobody told the folder it died

    running = start(tmp_path, "exits")
    running_pid = running.stdout.readline().strip()

    # The next process to start forgot the killed one's sockets, not its move.
    assert summed(tmp_path) == (2.0, {running_pid: 1.0})

    running.communicate("", timeout=10)  # stdin closed: it exits
    assert running.returncode == 0
    assert summed(tmp_path) == (2.0, {})
