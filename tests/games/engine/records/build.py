"""Writes the hand-written records of this folder (run from the repository root:
``.venv/bin/python -m tests.games.engine.records.build``). The ``selfplay-*.json`` records were
written by ``python -m tools.engine selfplay --records`` (2 players seed s2 game 9, 4 players
seed s4 game 17, 10 players seed s10 game 12, tournament 3 players seed t3 game 11), and are kept
as they are.

Each ``NAME.expected.json`` holds the replay's output. For the hand-written records it was checked
by hand against docs/rules.md and docs/record-format.md (see the ``description`` of each record:
a key that readers ignore, which the replay must therefore ignore too).
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.games.engine.helpers import make_deck

HERE = Path(__file__).parent
RUN = ["red:taki", "red:1", "red:3", "red:4", "red:6", "red:7", "red:8"]
DRAW = ["blue:1", "blue:3", "blue:4", "blue:6", "blue:7", "blue:8", "blue:9", "green:9", "green:8"]


def P(seat, card, **extra):  # noqa: N802
    return {"type": "play", "player": seat, "card": card, **extra}


def A(kind, seat, **extra):  # noqa: N802
    return {"type": kind, "player": seat, **extra}


def run_down(seat, last_card=True):
    actions = [P(seat, c) for c in RUN]
    return [*actions, A("close_taki", seat, **({"last_card": True} if last_card else {}))]


def record(description, hands, actions, *, first=0, tournament=False, leading="red:5", seed="s"):
    deck = make_deck(hands, leading, DRAW).deck
    return {
        "format": "taki-record/1",
        "description": description,
        "seed": seed,
        "players": [f"p{i}" for i in range(len(hands))],
        "options": {"tournament": tournament},
        "deck": deck,
        "first_player": first,
        "actions": actions,
    }


RECORDS = {
    "r14-open-run": record(
        "R14: TAKI alone passed, run continued by the next player and closed on a Stop (R12): "
        "seat 2 is skipped, seat 0 plays next.",
        [["red:taki"], ["red:3", "red:stop"], []],
        [P(0, "red:taki"), A("pass", 0), P(1, "red:3"), P(1, "red:stop"), A("close_taki", 1)],
    ),
    "r18-r19-plus3": record(
        "R18: +3 accepted by all, draws in turn order from seat 1 (blue:1 blue:3 blue:4 to seat 1,"
        " blue:6 blue:7 blue:8 to 2, blue:9 green:9 green:8 to 3); seats 1-3 draw; the second +3 "
        "is bounced by seat 2's Breaker out of turn (R19a): seat 0 draws 3, seat 1 to play.",
        [["plus3", "plus3"], [], ["breaker"], []],
        [
            P(0, "plus3"),
            A("accept", 3),
            A("accept", 1),
            A("accept", 2),
            A("draw", 1),
            A("draw", 2),
            A("draw", 3),
            P(0, "plus3"),
            A("accept", 1),
            P(2, "breaker"),
        ],
    ),
    "r20-penalty": record(
        "R20: seat 0 plays down to one card in a run and closes without announcing: draws 4 "
        "(blue:1 blue:3 blue:4 blue:6) as the turn passes.",
        [[*RUN, "red:9"], []],
        run_down(0, last_card=False),
    ),
    "r22-stage-plus2": record(
        "R22: seat 0 goes out at stage 8 on a +2, goes to stage 7 and draws 7 (blue:3 … green:9);"
        " the +2 still attacks: seat 1 draws 2 (green:8 yellow:6).",
        [[*RUN, "red:plus2"], []],
        [*run_down(0), A("draw", 1), P(0, "red:plus2"), A("draw", 1)],
        tournament=True,
    ),
    "r21-game-over": record(
        "R21: seat 0 wins on a +3 whose effect is void; the next action is game_over at index 11.",
        [[*RUN, "plus3"], [], []],
        [*run_down(0), A("draw", 1), A("draw", 2), P(0, "plus3"), A("accept", 1)],
    ),
    "err-must-answer": record(
        "must_answer: a number card on a +2 stack.",
        [["red:plus2"], ["red:3"]],
        [P(0, "red:plus2"), P(1, "red:3")],
    ),
    "err-not-your-turn": record(
        "not_your_turn: seat 1 plays on seat 0's turn.",
        [["red:3"], ["red:4"]],
        [P(1, "red:4")],
    ),
    "err-accept-nothing": record(
        "not_your_turn: accept with nothing to accept.", [[], []], [A("accept", 0)]
    ),
    "err-card-not-in-hand": record(
        "card_not_in_hand: seat 0 plays a King it does not hold.", [[], []], [P(0, "king")]
    ),
    "err-illegal-card": record(
        "illegal_card: blue:3 on red:5 (R7).", [["blue:3"], []], [P(0, "blue:3")]
    ),
    "err-color-required": record(
        "color_required: a Change Color without a colour.",
        [["change-color"], []],
        [P(0, "change-color")],
    ),
    "err-color-on-number": record(
        "color_required: a colour on a number card.",
        [["red:3"], []],
        [P(0, "red:3", color="red")],
    ),
    "err-cannot-close": record(
        "cannot_close: close_taki on a TAKI played alone (R14).",
        [["red:taki"], []],
        [P(0, "red:taki"), A("close_taki", 0)],
    ),
    "err-cannot-pass": record("cannot_pass: pass with no run.", [[], []], [A("pass", 0)]),
    "err-cannot-draw": record(
        "cannot_draw: draw in one's own run after playing a card in it.",
        [["red:taki", "red:3"], []],
        [P(0, "red:taki"), P(0, "red:3"), A("draw", 0)],
    ),
    "err-cannot-announce": record(
        "cannot_announce: last_card holding 8 cards.", [[], []], [A("last_card", 0)]
    ),
    "bad-action-type": record("bad_action: unknown type.", [[], []], [A("draw", 0), A("fold", 1)]),
    "bad-action-no-player": record("bad_action: a missing player.", [[], []], [{"type": "draw"}]),
    "bad-action-no-card": record("bad_action: a play without a card.", [[], []], [A("play", 0)]),
    "bad-action-card-code": record("bad_action: an unknown card code.", [[], []], [P(0, "red:2")]),
    "bad-action-seat": record(
        "bad_action: seat 2 in a two-player game.", [[], []], [A("draw", 0), A("draw", 2)]
    ),
}


def bad_records() -> dict[str, str]:
    good = RECORDS["err-not-your-turn"]
    out = {"bad-not-json": '{"format": "taki-record/1", "seed": '}
    docs = {
        "bad-format": {**good, "format": "taki-record/2"},
        "bad-deck-115": {**good, "deck": good["deck"][:-1]},
        "bad-deck-code": {**good, "deck": [*good["deck"][:-1], "red:2"]},
        "bad-players-1": {**good, "players": ["solo"]},
        "bad-players-11": {**good, "players": [f"p{i}" for i in range(11)]},
    }
    out.update({name: json.dumps(doc, indent=1) for name, doc in docs.items()})
    return out


def main() -> None:
    for name, doc in RECORDS.items():
        (HERE / f"{name}.json").write_text(json.dumps(doc, indent=1) + "\n")
    for name, text in bad_records().items():
        (HERE / f"{name}.json").write_text(text + "\n")


if __name__ == "__main__":
    main()
