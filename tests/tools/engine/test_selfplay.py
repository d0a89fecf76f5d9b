"""``python -m tools.engine selfplay``: bots play whole games, and the records they write replay."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.games.engine.test_cli import cli as engine_cli

ROOT = Path(__file__).resolve().parents[3]


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tools.engine", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_selfplay_prints_speed_actions_and_wins():
    proc = cli("selfplay", "--players", "3", "--games", "20", "--seed", "1", "--quiet")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert re.search(r"games per second: [\d,.]+", out)
    assert re.search(r"average actions per game: [\d,.]+", out)
    wins = dict(re.findall(r"wins (\w+): (\d+)", out))
    assert set(wins) == {"greedy", "random"}
    assert sum(map(int, wins.values())) == 20
    assert proc.stderr == ""  # --quiet: no progress bar


def test_selfplay_is_repeatable_with_a_seed():
    args = ("selfplay", "--games", "15", "--seed", "x", "--quiet")
    strip = lambda text: re.sub(r"(per second: )[\d,.]+", r"\1", text)  # noqa: E731
    assert strip(cli(*args).stdout) == strip(cli(*args).stdout)


def test_selfplay_writes_records_that_replay(tmp_path):
    proc = cli(
        "selfplay", "--players", "4", "--games", "3", "--seed", "7", "--records", str(tmp_path),
        "--quiet",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 3
    for path in files:
        doc = json.loads(path.read_text())
        assert doc["format"] == "taki-record/1"
        assert len(doc["players"]) == 4 and len(doc["deck"]) == 116
        rep = engine_cli("replay", str(path))
        assert rep.returncode == 0
        out = json.loads(rep.stdout)
        assert out["ok"] is True and out["applied"] == len(doc["actions"])
        assert out["state"]["finished"] is True


def test_selfplay_tournament(tmp_path):
    proc = cli(
        "selfplay", "--players", "2", "--games", "2", "--seed", "3", "--tournament",
        "--bots", "greedy", "--records", str(tmp_path), "--quiet",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "tournament" in proc.stdout
    assert re.search(r"wins greedy: 2\b", proc.stdout)
    for path in tmp_path.glob("*.json"):
        doc = json.loads(path.read_text())
        assert doc["options"] == {"tournament": True}
        state = json.loads(engine_cli("replay", str(path)).stdout)["state"]
        assert state["stages"][state["winner"]] == 1


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--players", "11"], "2 to 10"),
        (["--players", "1"], "2 to 10"),
        (["--players", "two"], "players"),
        (["--bots", "nope"], "greedy"),
        (["--bots", ""], "bots"),
        (["--games", "0"], "games"),
    ],
)
def test_selfplay_bad_arguments(args, words):
    proc = cli("selfplay", *args, "--games" if "--games" not in args else "--quiet", "1")
    assert proc.returncode == 2
    assert words in proc.stderr
    assert proc.stdout == ""


def test_selfplay_counts_games_cut_at_max_actions_as_unfinished():
    out = cli("selfplay", "--games", "2", "--bots", "random", "--seed", "3", "--max-actions", "5")
    assert out.returncode == 0, out.stderr
    assert "average actions per game: 5.0" in out.stdout
    assert "wins random: 0" in out.stdout
    assert "unfinished (cut at 5 actions): 2" in out.stdout


def test_help_lists_selfplay_and_arena():
    proc = cli("selfplay", "--help")
    assert proc.returncode == 0
    for word in ["--players", "--games", "--bots", "--seed", "--tournament"]:
        assert word in proc.stdout
    listed = cli("--help").stdout
    assert "selfplay" in listed and "arena" in listed
