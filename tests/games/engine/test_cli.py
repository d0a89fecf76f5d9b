"""``python -m games.engine``: the command line's help and its errors (replay's results:
test_records.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "games.engine", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_no_command_is_an_error():
    proc = cli()
    assert proc.returncode == 2
    assert "usage" in proc.stderr


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--help"], ["replay"]),
        (["replay", "--help"], ["file", "standard input", "Exit status"]),
    ],
)
def test_help(args, words):
    proc = cli(*args)
    assert proc.returncode == 0
    for word in words:
        assert word in proc.stdout


def test_replay_of_a_missing_file_exits_2_with_the_bad_record_json(tmp_path):
    proc = cli("replay", str(tmp_path / "nothing.json"))
    assert proc.returncode == 2
    out = json.loads(proc.stdout)
    assert out["ok"] is False and out["applied"] == 0 and out["state"] is None
    assert out["error"]["code"] == "bad_record" and out["error"]["index"] is None
    assert "nothing.json" in out["error"]["message"]
