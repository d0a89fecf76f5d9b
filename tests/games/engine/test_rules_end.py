"""R20–R22: last card, going out, the tournament.

Most tests bring seat 0 down to one card in a single turn with a red TAKI run (R14): TAKI and six
red cards, then ``close_taki``.
"""

from __future__ import annotations

import pytest

from games.engine import GameState, IllegalAction
from tests.games.engine.helpers import (
    accept,
    announce,
    close,
    draw,
    make_deck,
    new_game,
    play,
    run,
    sort,
)

RUN = ["red:taki", "red:1", "red:3", "red:4", "red:6", "red:7", "red:8"]
DRAW = ["blue:1", "blue:3", "blue:4", "blue:6", "blue:7", "blue:8", "blue:9", "green:9", "green:8"]


def run_down(seat: int, cards: list[str], last_card: bool = True, flag_on: str | None = None):
    """``seat`` plays ``cards`` (a TAKI first) as one run and closes it."""
    actions = [play(seat, c, last_card=(c == flag_on)) for c in cards]
    return [*actions, close(seat, last_card=last_card)]


def refused(game, action, code):
    before = game.state_json()
    with pytest.raises(IllegalAction) as exc:
        game.apply(action)
    assert exc.value.code == code, exc.value.message
    assert game.state_json() == before


def with_stages(game: GameState, stages: list[int]) -> GameState:
    """The same game with the tournament stages set (R22), through the snapshot."""
    snapshot = game.to_snapshot()
    snapshot["stages"] = list(stages)
    return GameState.from_snapshot(snapshot)


def penalties(events):
    return [(e.seat, e.count) for e in events if e.kind == "drew" and e.reason == "penalty"]


# ----------------------------------------------------------------------------- R20


def test_r20_announced_on_the_close_no_penalty():
    game = new_game([[*RUN, "red:9"], []], "red:5", DRAW)
    events = []
    for action in run_down(0, RUN, last_card=True):
        events += game.apply(action)
    assert [e.kind for e in events].count("announced") == 1
    assert penalties(events) == []
    state = game.state_json()
    assert state["hands"][0] == ["red:9"]
    assert state["current_player"] == 1


def test_r20_not_announced_draws_four_when_the_turn_passes():
    game = new_game([[*RUN, "red:9"], []], "red:5", DRAW)
    events = []
    for action in run_down(0, RUN, last_card=False):
        events += game.apply(action)
    assert penalties(events) == [(0, 4)]
    state = game.state_json()
    assert state["hands"][0] == sort(["red:9", *DRAW[:4]])
    assert state["current_player"] == 1


def test_r20_announced_on_the_play_that_leaves_one_card():
    game = new_game([[*RUN, "red:9"], []], "red:5", DRAW)
    state = run(game, run_down(0, RUN, last_card=False, flag_on="red:8"))
    assert state["hands"][0] == ["red:9"]


def test_r20_the_last_card_action_during_ones_own_turn():
    game = new_game([[*RUN, "red:9"], []], "red:5", DRAW)
    actions = run_down(0, RUN, last_card=False)
    run(game, actions[:-1])
    assert ("last_card", 0, None, None) in {
        (a.type, a.player, None, None) for a in game.legal_actions(0)
    }
    events = game.apply(announce(0))
    assert [e.kind for e in events] == ["announced"]
    assert game.state_json()["current_player"] == 0  # announcing does not end the turn
    state = run(game, [actions[-1]])
    assert state["hands"][0] == ["red:9"]


def test_r20_the_flag_on_a_play_that_does_not_leave_one_card_is_ignored():
    cards = RUN[:-1]  # TAKI and five reds: two cards left, red:8 and red:9
    game = new_game([[*RUN, "red:9"], []], "red:5", DRAW)
    state = run(game, run_down(0, cards, last_card=True, flag_on="red:7"))
    assert state["hands"][0] == ["red:8", "red:9"]
    events = game.apply(draw(1))
    events += game.apply(play(0, "red:8"))  # one card left, not announced this time
    assert penalties(events) == [(0, 4)]
    assert len(game.hands[0]) == 5


@pytest.mark.parametrize("announced", [False, True])
def test_r20_stop_with_two_players_passes_the_turn(announced):
    cards = [*RUN[:-1]]
    game = new_game([[*cards, "red:stop", "red:9"], []], "red:5", DRAW)
    run(game, [*run_down(0, cards), draw(1)])
    events = game.apply(play(0, "red:stop", last_card=announced))
    state = game.state_json()
    assert state["current_player"] == 0
    if announced:
        assert penalties(events) == []
        assert state["hands"][0] == ["red:9"]
    else:  # R12: the turn has passed, to them
        assert penalties(events) == [(0, 4)]
        assert len(state["hands"][0]) == 5


def test_r20_the_debt_ends_with_a_draw():
    cards = [*RUN[:-1]]
    game = new_game([[*cards, "red:plus", "red:9"], []], "red:5", DRAW)
    run(game, [*run_down(0, cards), draw(1)])
    events = game.apply(play(0, "red:plus"))  # one card left, not announced
    events += game.apply(draw(0))  # R17: the Plus is not followed; the hand has two cards
    assert penalties(events) == []
    assert game.state_json()["hands"][0] == sort(["red:9", DRAW[1]])


def test_r20_the_debt_ends_with_the_breakers_own_penalty():
    cards = [*RUN[:-1]]
    game = new_game([[*cards, "breaker", "red:9"], []], "red:5", DRAW)
    run(game, [*run_down(0, cards), draw(1)])
    events = game.apply(play(0, "breaker"))
    assert penalties(events) == []
    assert game.state_json()["hands"][0] == sort(["red:9", *DRAW[1:4]])


@pytest.mark.parametrize("announced", [False, True])
def test_r20_a_breaker_played_out_of_turn_needs_the_announcement_too(announced):
    cards = [*RUN[:-1]]
    hands = [["plus3"], [], [*cards, "breaker", "red:9"]]
    game = new_game(hands, "red:5", DRAW)
    run(game, [draw(0), draw(1), *run_down(2, cards), play(0, "plus3")])
    events = game.apply(play(2, "breaker", last_card=announced))
    state = game.state_json()
    assert state["current_player"] == 1
    assert len(state["hands"][0]) == 8 + 1 - 1 + 3
    if announced:
        assert penalties(events) == []
        assert state["hands"][2] == ["red:9"]
    else:
        assert penalties(events) == [(2, 4)]
        assert len(state["hands"][2]) == 5


def test_r20_cannot_announce_without_exactly_one_card():
    game = new_game([[], []], "red:5")
    refused(game, announce(0), "cannot_announce")
    refused(game, announce(1), "not_your_turn")


def test_r20_a_hand_that_comes_to_one_card_by_a_stage_draw_owes_nothing():
    game = new_game([[*RUN, "red:9"], []], "red:5", DRAW, tournament=True)
    game = with_stages(game, [2, 8])
    run(game, [*run_down(0, RUN), draw(1)])
    events = game.apply(play(0, "red:9"))
    state = game.state_json()
    assert state["stages"] == [1, 8]
    assert penalties(events) == []
    assert state["hands"][0] == [DRAW[1]]
    assert state["current_player"] == 1
    events = game.apply(draw(1))
    assert penalties(events) == []
    assert len(game.hands[0]) == 1


# ----------------------------------------------------------------------------- R21


def out_with(last: str, players: int = 2, tournament: bool = False):
    """Seat 0 runs down to ``last``, everyone else draws, seat 0 plays ``last``."""
    hands = [[*RUN, last]] + [[]] * (players - 1)
    deal = make_deck(hands, "red:5", DRAW)
    game = GameState(deal.deck, players, 0, "end", tournament)
    run(game, run_down(0, RUN))
    for seat in range(1, players):
        game.apply(draw(seat))
    before = game.state_json()
    color = "blue" if last == "change-color" else None
    events = game.apply(play(0, last, color))
    return game, before, events


@pytest.mark.parametrize("last", ["red:9", "red:stop", "red:direction", "change-color"])
def test_r21_first_player_out_wins_and_the_game_ends(last):
    game, before, events = out_with(last, players=3)
    state = game.state_json()
    assert (state["finished"], state["winner"], state["current_player"]) == (True, 0, 0)
    assert state["hands"][0] == []
    assert state["hands"][1:] == before["hands"][1:]
    assert (
        state["plus2_stack"],
        state["plus3_pending"],
        state["taki_run"],
        state["follow_up"],
    ) == (
        0,
        None,
        None,
        None,
    )
    assert state["direction"] == 1 or last == "red:direction"
    assert events[-1].kind == "won"
    assert game.seats_to_act() == []
    assert all(game.legal_actions(seat) == [] for seat in range(3))


@pytest.mark.parametrize("last", ["red:plus2", "plus3", "king"])
def test_r21_the_effect_of_the_winning_card_is_void(last):
    game, before, _ = out_with(last, players=3)
    state = game.state_json()
    assert (state["finished"], state["winner"], state["current_player"]) == (True, 0, 0)
    assert state["hands"][1:] == before["hands"][1:]
    assert state["draw_pile"] == before["draw_pile"]
    assert (state["plus2_stack"], state["plus3_pending"], state["follow_up"]) == (0, None, None)


def test_r21_a_run_in_which_the_hand_empties_closes_by_itself():
    game = new_game([[*RUN, "red:plus2"], []], "red:5", DRAW)
    state = run(game, [play(0, c) for c in [*RUN, "red:plus2"]])
    assert (state["finished"], state["winner"], state["taki_run"], state["plus2_stack"]) == (
        True,
        0,
        None,
        0,
    )


@pytest.mark.parametrize(
    "action",
    [draw(1), play(1, "yellow:5"), accept(1), close(0), announce(0), play(0, "red:9")],
)
def test_r21_nothing_after_the_end(action):
    game, _, _ = out_with("red:9")
    refused(game, action, "game_over")


def test_r21_a_breaker_as_last_card_on_ones_own_turn_is_not_out():
    game, _, events = out_with("breaker")
    state = game.state_json()
    assert state["finished"] is False
    assert state["hands"][0] == sort(DRAW[1:4])
    assert state["current_player"] == 1


def test_r21_a_breaker_as_last_card_out_of_turn_wins_and_the_bounce_is_void():
    cards = RUN
    hands = [["plus3"], [], [*cards, "breaker"]]
    game = new_game(hands, "red:5", DRAW)
    run(game, [draw(0), draw(1), *run_down(2, cards), play(0, "plus3")])
    before = game.state_json()
    state = run(game, [play(2, "breaker")])
    assert (state["finished"], state["winner"], state["current_player"]) == (True, 2, 2)
    assert state["plus3_pending"] is None
    assert state["hands"][:2] == before["hands"][:2]


def test_r17_a_plus_cannot_be_the_final_card():
    game, _, _ = out_with("red:plus")
    state = game.state_json()
    assert state["finished"] is False
    assert (state["follow_up"], state["current_player"], state["hands"][0]) == ("plus", 0, [])
    assert [(a.type, a.player) for a in game.legal_actions(0)] == [("draw", 0)]
    events = game.apply(draw(0))
    assert penalties(events) == []  # R20: one card by drawing owes nothing
    state = game.state_json()
    assert (state["hands"][0], state["current_player"], state["finished"]) == ([DRAW[1]], 1, False)


def test_r16_king_as_last_card_wins():
    game, _, _ = out_with("king")
    assert game.state_json()["winner"] == 0


# ----------------------------------------------------------------------------- R22


def test_r22_everyone_starts_at_stage_8_with_8_cards():
    game = new_game([[], [], []], "red:5", tournament=True)
    state = game.state_json()
    assert state["stages"] == [8, 8, 8]
    assert [len(h) for h in state["hands"]] == [8, 8, 8]
    assert new_game([[], []], "red:5").state_json()["stages"] is None


def test_r22_out_at_a_stage_drops_a_stage_and_draws():
    game, _, events = out_with("red:9", tournament=True)
    state = game.state_json()
    assert state["stages"] == [7, 8]
    assert state["hands"][0] == sort(DRAW[1:8])
    assert (state["finished"], state["winner"], state["current_player"]) == (False, None, 1)
    assert ("stage", 0, 7) in [(e.kind, e.seat, e.count) for e in events]


def test_r22_a_plus2_as_the_stage_card_still_attacks():
    game, before, _ = out_with("red:plus2", tournament=True)
    state = game.state_json()
    assert state["stages"] == [7, 8]
    assert state["hands"][0] == sort(DRAW[1:8])  # the stage draw comes at once
    assert (state["plus2_stack"], state["current_player"]) == (2, 1)
    state = run(game, [draw(1)])
    assert state["hands"][1] == sort(before["hands"][1] + ["green:8", *make_rest(2)])


def make_rest(count: int) -> list[str]:
    """The cards after DRAW on a deck from :func:`make_deck` with RUN in seat 0's hand."""
    deal = make_deck([[*RUN, "red:plus2"], []], "red:5", DRAW)
    return deal.draw[len(DRAW) : len(DRAW) + count - 1]


def test_r22_a_plus3_as_the_stage_card_still_attacks():
    game, _, _ = out_with("plus3", players=3, tournament=True)
    state = game.state_json()
    assert state["stages"] == [7, 8, 8]
    assert state["plus3_pending"] == {"by": 0, "waiting": [1, 2]}
    assert len(state["hands"][0]) == 7


def test_r22_after_a_king_as_the_stage_card_one_more_card_or_a_draw():
    game, _, _ = out_with("king", tournament=True)
    state = game.state_json()
    assert state["stages"] == [7, 8]
    assert (state["follow_up"], state["current_player"]) == ("king", 0)
    assert state["hands"][0] == sort(DRAW[1:8])
    state = run(game, [play(0, "green:9")])  # any card at all
    assert (state["current_player"], state["active_color"]) == (1, "green")


def test_r22_a_run_ending_the_stage_still_applies_its_last_card():
    hands = [[*RUN, "red:stop"], [], []]
    game = new_game(hands, "red:5", DRAW, tournament=True)
    state = run(game, [play(0, c) for c in [*RUN, "red:stop"]])
    assert state["stages"] == [7, 8, 8]
    assert (state["taki_run"], state["current_player"]) == (None, 2)


def test_r22_first_out_at_stage_1_wins():
    game = new_game([[*RUN, "red:9"], []], "red:5", DRAW, tournament=True)
    game = with_stages(game, [1, 3])
    state = run(game, [*run_down(0, RUN), draw(1), play(0, "red:9")])
    assert (state["finished"], state["winner"], state["stages"]) == (True, 0, [1, 3])


@pytest.mark.parametrize("last", ["red:taki", "super-taki"])
def test_r22_a_taki_as_the_stage_card_closes_by_itself(last):
    game, _, _ = out_with(last, tournament=True)
    state = game.state_json()
    assert state["stages"] == [7, 8]
    assert (state["taki_run"], state["current_player"]) == (None, 1)
