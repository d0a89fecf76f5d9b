"""Data-driven checks: every record in ``records/`` is replayed by ``python -m games.engine replay``
and its output compared with ``NAME.expected.json`` (docs/record-format.md, "Replay from the command
line"). The expected files of the hand-written records were checked by hand: see records/build.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import Record, replay_text

ROOT = Path(__file__).resolve().parents[3]
RECORDS = Path(__file__).parent / "records"
NAMES = sorted(p.name[: -len(".json")] for p in RECORDS.glob("*.json") if ".expected" not in p.name)
CODES = {
    "bad_action",
    "game_over",
    "not_your_turn",
    "card_not_in_hand",
    "must_answer",
    "illegal_card",
    "color_required",
    "cannot_close",
    "cannot_pass",
    "cannot_draw",
    "cannot_announce",
    "bad_record",
}
STATE_KEYS = [
    "hands",
    "discard_top",
    "leading",
    "active_color",
    "current_player",
    "direction",
    "draw_pile",
    "plus2_stack",
    "plus3_pending",
    "taki_run",
    "follow_up",
    "stages",
    "finished",
    "winner",
]


def expected(name: str) -> dict:
    return json.loads((RECORDS / f"{name}.expected.json").read_text())


def exit_status(result: dict) -> int:
    """docs/record-format.md: 0 all legal, 1 at an illegal action, 2 not a record."""
    if result["ok"]:
        return 0
    return 2 if result["error"]["code"] == "bad_record" else 1


def without_message(result: dict) -> dict:
    """The message is free text ("…"); everything else is compared exactly."""
    result = dict(result)
    if result["error"] is not None:
        error = dict(result["error"])
        assert isinstance(error.pop("message"), str) and error  # present, a string
        result["error"] = error
    return result


def replay_cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "games.engine", "replay", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        timeout=60,
    )


def test_there_are_records():
    assert len(NAMES) >= 25
    assert all((RECORDS / f"{n}.expected.json").exists() for n in NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_replay_cli_matches_expected(name):
    proc = replay_cli(str(RECORDS / f"{name}.json"))
    out = json.loads(proc.stdout)  # exactly one JSON object
    want = expected(name)
    assert without_message(out) == without_message(want)
    assert proc.returncode == exit_status(want)
    assert list(out) == ["ok", "applied", "error", "state"]
    if out["state"] is not None:
        assert list(out["state"]) == STATE_KEYS


@pytest.mark.parametrize("name", NAMES)
def test_replay_text_matches_expected(name):
    result = replay_text((RECORDS / f"{name}.json").read_bytes())
    assert without_message(result.to_json()) == without_message(expected(name))
    assert result.exit_status == exit_status(expected(name))


def test_expected_outputs_are_consistent_with_the_document():
    for name in NAMES:
        out = expected(name)
        if out["ok"]:
            assert out["error"] is None
            assert out["applied"] == len(
                json.loads((RECORDS / f"{name}.json").read_text())["actions"]
            )
        elif out["error"]["code"] == "bad_record":
            assert out["applied"] == 0 and out["state"] is None and out["error"]["index"] is None
        else:
            assert out["applied"] == out["error"]["index"]
        state = out["state"]
        if state is not None:
            assert all(hand == sorted(hand) for hand in state["hands"])  # sorted by code
            if state["finished"]:
                assert state["current_player"] == state["winner"]
                assert (state["plus2_stack"], state["plus3_pending"]) == (0, None)
                assert (state["taki_run"], state["follow_up"]) == (None, None)


def test_every_error_code_has_a_record():
    codes = {expected(n)["error"]["code"] for n in NAMES if expected(n)["error"]}
    assert codes == CODES


def test_generated_records_end_with_a_winner():
    for name in NAMES:
        if name.startswith("selfplay-"):
            state = expected(name)["state"]
            assert state["finished"] is True and state["winner"] is not None
    tournament = expected("selfplay-tournament-3p")["state"]
    assert tournament["stages"][tournament["winner"]] == 1


def test_replay_reads_standard_input():
    text = (RECORDS / "r18-r19-plus3.json").read_bytes()
    proc = replay_cli("-", stdin=text)
    assert proc.returncode == 0
    assert json.loads(proc.stdout) == expected("r18-r19-plus3")


def test_replay_of_standard_input_that_is_not_a_record():
    proc = replay_cli("-", stdin=b"[1, 2, 3]")
    assert proc.returncode == 2
    out = json.loads(proc.stdout)
    assert without_message(out) == {
        "ok": False,
        "applied": 0,
        "error": {"index": None, "code": "bad_record"},
        "state": None,
    }


@pytest.mark.parametrize("kind", [["draw"], {"draw": True}, 1, None, 1e309])
def test_an_action_type_that_is_not_a_string_is_a_bad_action_not_a_crash(kind):
    doc = json.loads((RECORDS / "r14-open-run.json").read_text())
    doc["actions"][1]["type"] = kind

    proc = replay_cli("-", stdin=json.dumps(doc).encode())

    assert proc.returncode == 1, proc.stderr
    out = json.loads(proc.stdout)
    assert (out["ok"], out["applied"], out["error"]["index"]) == (False, 1, 1)
    assert out["error"]["code"] == "bad_action"
    assert proc.stderr == b""


def test_unknown_keys_are_ignored_at_the_top_and_in_actions():
    doc = json.loads((RECORDS / "r14-open-run.json").read_text())
    doc["game_id"] = 17
    doc["result"] = {"winner": "nobody"}
    for i, action in enumerate(doc["actions"]):
        action["t"] = i
        action["hash"] = "x"
    assert replay_text(json.dumps(doc)).to_json() == expected("r14-open-run")


def test_record_round_trip():
    for name in NAMES:
        if name.startswith(("r", "selfplay")):
            text = (RECORDS / f"{name}.json").read_text()
            record = Record.loads(text)
            again = Record.loads(record.dumps())
            assert again.to_json() == record.to_json()
            assert replay_text(record.dumps()).to_json() == expected(name)


@pytest.mark.parametrize(
    ("change", "ok"),
    [
        ({"options": {}}, True),
        ({"first_player": 1}, True),
        ({"first_player": 2}, False),
        ({"first_player": -1}, False),
        ({"players": ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]}, True),
        ({"deck": "red:7"}, False),
        ({"format": None}, False),
    ],
)
def test_bad_record_cases(change, ok):
    doc = json.loads((RECORDS / "err-not-your-turn.json").read_text())
    doc.update(change)
    doc["actions"] = []
    result = replay_text(json.dumps(doc)).to_json()
    if ok:
        assert result["ok"] is True and result["state"] is not None
    else:
        assert without_message(result) == {
            "ok": False,
            "applied": 0,
            "error": {"index": None, "code": "bad_record"},
            "state": None,
        }
