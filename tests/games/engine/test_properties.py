"""Property tests over many seeded bot games (docs/rules.md R9, docs/record-format.md, the views).

The games are played here step by step (not with ``selfplay.play_game``) so that every state can be
checked, and during a pending +3 a random waiting seat answers, to exercise answers out of turn.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import (
    CARDS,
    Action,
    GameState,
    GreedyBot,
    RandomBot,
    Record,
    replay_text,
    seat_view,
    spectator_view,
)
from games.engine.record import new_record
from tests.games.engine.helpers import COLORS, full_deck

MAX_ACTIONS = 100_000
TYPES = ("draw", "close_taki", "pass", "accept", "last_card")
BOTS = {"random": RandomBot, "greedy": GreedyBot}

games = st.fixed_dictionaries(
    {
        "seed": st.integers(0, 2**32),
        "players": st.integers(2, 10),
        "tournament": st.booleans(),
        "bots": st.lists(st.sampled_from(sorted(BOTS)), min_size=1, max_size=3),
    }
).filter(lambda p: not p["tournament"] or "greedy" in p["bots"])
# Random bots alone draw so often that a tournament of random bots can run past 100 000 actions
# (a property of the bots, not of the rules), so a tournament seats at least one greedy bot.


def cards_everywhere(game: GameState) -> Counter[str]:
    snap = game.to_snapshot()
    cards = Counter(snap["draw_pile"]) + Counter(snap["discard"])
    for hand in snap["hands"]:
        cards += Counter(hand)
    return cards


def candidates(game: GameState, seat: int, rng: random.Random) -> list[Action]:
    """Actions worth asking about: every type, every card of the hand, a few cards not held,
    Change Color with every colour, none and a wrong one, colours on cards that take none."""
    held = {card.code for card in game.hands[seat]}
    others = rng.sample(sorted(set(CARDS) - held), k=min(3, len(set(CARDS) - held)))
    out = [Action(kind, seat) for kind in TYPES]
    for code in sorted(held) + others:
        card = CARDS[code]
        if code == "change-color":
            out += [Action("play", seat, card, c) for c in (*COLORS, None, "purple")]
        else:
            out += [Action("play", seat, card), Action("play", seat, card, rng.choice(COLORS))]
    return out


def check_legality(game: GameState, seat: int, rng: random.Random, apply_all: bool) -> None:
    legal = game.legal_actions(seat)
    listed = {a.move for a in legal}
    assert len(listed) == len(legal)  # each move once
    for action in legal:
        assert game.is_legal(action), action
        assert game.is_legal(action.announcing()), action
    if apply_all:  # really apply each listed action, on a copy
        snap = game.to_snapshot()
        for action in legal:
            GameState.from_snapshot(snap).apply(action)
    for action in candidates(game, seat, rng):
        if action.move in listed:
            continue
        assert not game.is_legal(action), action


def check_views(game: GameState, rng: random.Random) -> None:
    spectator = spectator_view(game)
    assert "hand" not in spectator and "hands" not in spectator
    assert spectator["hand_sizes"] == [len(h) for h in game.hands]
    assert not isinstance(spectator["draw_pile"], list)
    json.dumps(spectator)
    for seat in range(game.players):
        view = seat_view(game, seat)
        json.dumps(view)
        assert view["hand"] == sorted(c.code for c in game.hands[seat])
        assert {a.get("card") for a in view["legal_actions"]} <= {*view["hand"], None}
        public = {k: v for k, v in view.items() if k not in ("seat", "hand", "legal_actions")}
        assert public == spectator
    # Nothing hidden leaks: deal the other seats' cards and the draw pile anew (same sizes) and
    # the view of one seat does not change.
    seat = rng.randrange(game.players)
    snap = game.to_snapshot()
    hidden = snap["draw_pile"] + [c for s, h in enumerate(snap["hands"]) if s != seat for c in h]
    rng.shuffle(hidden)
    for s, hand in enumerate(snap["hands"]):
        if s != seat:
            snap["hands"][s], hidden = hidden[: len(hand)], hidden[len(hand) :]
    snap["draw_pile"] = hidden
    other = GameState.from_snapshot(snap)
    assert spectator_view(other) == spectator
    assert seat_view(other, seat) == seat_view(game, seat)


def check_snapshot(game: GameState) -> None:
    snap = json.loads(json.dumps(game.to_snapshot()))
    copy = GameState.from_snapshot(snap)
    assert copy.state_json() == game.state_json()
    assert copy.seats_to_act() == game.seats_to_act()
    for seat in range(game.players):
        assert copy.legal_actions(seat) == game.legal_actions(seat)


def play_checked(params: dict, every: int = 1) -> tuple[Record, GameState]:
    rng = random.Random(params["seed"])
    names = [params["bots"][i % len(params["bots"])] for i in range(params["players"])]
    record = new_record(names, rng, params["tournament"])
    bots = [BOTS[name](random.Random(rng.getrandbits(32))) for name in names]
    game = record.new_game()
    deck = full_deck()
    steps = 0
    while not game.finished:
        assert steps < MAX_ACTIONS, "the game does not end"
        to_act = game.seats_to_act()
        assert to_act
        seat = rng.choice(to_act)
        if steps < 300 and steps % every == 0 or steps % 53 == 0:
            check_legality(game, seat, rng, apply_all=steps % (every * 7) == 0)
            other = rng.randrange(game.players)
            if other not in to_act:
                assert game.legal_actions(other) == []
            check_snapshot(game)
            check_views(game, rng)
        action = bots[seat].choose(game, seat)
        if action.type == "play" and rng.random() < 0.3:
            action = action.announcing()
        game.apply(action)
        record.actions.append(action)
        steps += 1
        assert cards_everywhere(game) == deck  # R9: every card in exactly one place
        state = game.state_json()
        assert (
            sum(map(len, state["hands"])) + state["draw_pile"] + len(game.to_snapshot()["discard"])
            == 116
        )
    assert game.seats_to_act() == []
    assert all(game.legal_actions(seat) == [] for seat in range(game.players))
    return record, game


@settings(max_examples=100, deadline=None, derandomize=True)
@given(games)
def test_bot_games_keep_every_invariant(params):
    record, game = play_checked(params, every=2)
    # a written record replays to the identical state
    result = replay_text(record.dumps())
    assert result.ok and result.applied == len(record.actions)
    assert result.game.state_json() == game.state_json()
    state = game.state_json()
    assert state["finished"] and state["current_player"] == state["winner"]
    if params["tournament"]:
        assert state["stages"][state["winner"]] == 1


@settings(max_examples=200, deadline=None, derandomize=True)
@given(games)
def test_every_game_ends_and_replays(params):
    rng = random.Random(params["seed"])
    names = [params["bots"][i % len(params["bots"])] for i in range(params["players"])]
    record = new_record(names, rng, params["tournament"])
    bots = [BOTS[name](random.Random(rng.getrandbits(32))) for name in names]
    game = record.new_game()
    while not game.finished:
        assert len(record.actions) < MAX_ACTIONS
        seat = rng.choice(game.seats_to_act())
        action = bots[seat].choose(game, seat)
        game.apply(action)
        record.actions.append(action)
    again = replay_text(Record.loads(record.dumps()).dumps())
    assert again.to_json() == {
        "ok": True,
        "applied": len(record.actions),
        "error": None,
        "state": game.state_json(),
    }
