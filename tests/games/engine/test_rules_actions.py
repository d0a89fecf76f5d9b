"""R10–R19: the action cards."""

from __future__ import annotations

import pytest

from games.engine import IllegalAction
from tests.games.engine.helpers import (
    COLORS,
    accept,
    close,
    draw,
    make_deck,
    moves,
    new_game,
    pass_,
    play,
    run,
    sort,
)

DRAW = ["blue:1", "blue:3", "blue:4", "blue:6", "blue:7", "blue:8", "blue:9", "green:9", "red:9"]


def refused(game, action, code):
    before = game.state_json()
    with pytest.raises(IllegalAction) as exc:
        game.apply(action)
    assert exc.value.code == code, exc.value.message
    assert game.state_json() == before  # a refused action changes nothing


# ----------------------------------------------------------------------------- R10


def test_r10_plus2_stacks_and_the_last_player_draws_the_whole_stack():
    deal = make_deck([["red:plus2"], ["blue:plus2"], []], "red:5", DRAW)
    game = new_game([["red:plus2"], ["blue:plus2"], []], "red:5", DRAW)
    state = run(game, [play(0, "red:plus2")])
    assert (state["plus2_stack"], state["current_player"]) == (2, 1)
    state = run(game, [play(1, "blue:plus2")])  # any colour
    assert (state["plus2_stack"], state["current_player"], state["active_color"]) == (4, 2, "blue")
    state = run(game, [draw(2)])
    assert state["plus2_stack"] == 0
    assert state["current_player"] == 0  # drawing the stack is the turn
    assert state["hands"][2] == sort(deal.hands[2] + DRAW[:4])


def test_r10_plus2_stacks_and_king_cancels():
    game = new_game([["red:plus2"], ["king", "green:1"], []], "red:5")
    state = run(game, [play(0, "red:plus2"), play(1, "king")])
    assert state["plus2_stack"] == 0
    assert (state["current_player"], state["follow_up"]) == (1, "king")
    state = run(game, [play(1, "green:1")])  # R16: any card, no matching
    assert (state["current_player"], state["active_color"], state["follow_up"]) == (
        2,
        "green",
        None,
    )


def test_r10_legal_answers_to_a_stack():
    cards = ["red:3", "green:plus2", "king", "change-color", "super-taki", "breaker", "plus3"]
    game = new_game([["red:plus2"], [*cards, "yellow:plus2"], []], "red:5")
    game.apply(play(0, "red:plus2"))
    assert moves(game.legal_actions(1)) == {
        ("draw", 1, None, None),
        ("play", 1, "king", None),
        ("play", 1, "green:plus2", None),
        ("play", 1, "yellow:plus2", None),
    }


@pytest.mark.parametrize(
    "action",
    [
        play(1, "red:3"),
        play(1, "change-color", "red"),
        play(1, "super-taki"),
        play(1, "breaker"),
        play(1, "plus3"),
        pass_(1),
        close(1),
    ],
)
def test_r10_no_other_card_on_a_stack(action):
    cards = ["red:3", "change-color", "super-taki", "breaker", "plus3"]
    game = new_game([["red:plus2"], cards, []], "red:5")
    game.apply(play(0, "red:plus2"))
    refused(game, action, "must_answer")


# ----------------------------------------------------------------------------- R11


def test_r11_change_color_names_the_colour_to_follow():
    game = new_game([["change-color"], ["red:3", "blue:9"], []], "red:5")
    state = run(game, [play(0, "change-color", "blue")])
    assert (state["leading"], state["active_color"], state["current_player"]) == (
        "change-color",
        "blue",
        1,
    )
    refused(game, play(1, "red:3"), "illegal_card")
    assert run(game, [play(1, "blue:9")])["active_color"] == "blue"


@pytest.mark.parametrize("color", [None, "purple", "Red", ""])
def test_r11_change_color_needs_a_valid_colour(color):
    game = new_game([["change-color"], []], "red:5")
    refused(game, play(0, "change-color", color), "color_required")


def test_r11_a_colour_on_another_card_is_color_required():
    game = new_game([["red:3", "king"], []], "red:5")
    refused(game, play(0, "red:3", "red"), "color_required")
    refused(game, play(0, "king", "blue"), "color_required")


def test_r11_change_color_not_on_a_stack_or_a_pending_plus3():
    game = new_game([["red:plus2", "plus3"], ["change-color"], ["change-color"]], "red:5")
    game.apply(play(0, "red:plus2"))
    refused(game, play(1, "change-color", "red"), "must_answer")
    game = new_game([["plus3"], ["change-color"], ["change-color"]], "red:5")
    game.apply(play(0, "plus3"))
    refused(game, play(1, "change-color", "red"), "must_answer")


# ----------------------------------------------------------------------------- R12


def test_r12_stop_skips_the_next_player():
    game = new_game([["red:stop"], [], [], []], "red:5")
    deal = make_deck([["red:stop"], [], [], []], "red:5")
    state = run(game, [play(0, "red:stop")])
    assert state["current_player"] == 2
    assert state["hands"][1] == sort(deal.hands[1])


def test_r12_stop_against_the_direction():
    game = new_game([["red:direction"], [], ["red:stop"], []], "red:5", first=3)
    game.apply(draw(3))
    state = run(game, [play(0, "red:direction"), draw(3), play(2, "red:stop")])
    assert (state["direction"], state["current_player"]) == (-1, 0)


def test_r12_stop_with_two_players_plays_again():
    game = new_game([["red:stop", "red:3"], []], "red:5")
    state = run(game, [play(0, "red:stop")])
    assert state["current_player"] == 0
    state = run(game, [play(0, "red:3")])
    assert state["current_player"] == 1


# ----------------------------------------------------------------------------- R13


def test_r13_change_direction_reverses_play():
    game = new_game([["red:direction"], [], ["red:3"], []], "red:5")
    state = run(game, [play(0, "red:direction")])
    assert (state["direction"], state["current_player"]) == (-1, 3)
    state = run(game, [draw(3), draw(2)])
    assert state["current_player"] == 1


def test_r13_with_two_players_change_direction_is_not_a_stop():
    game = new_game([["red:direction"], ["red:3"]], "red:5")
    state = run(game, [play(0, "red:direction")])
    assert (state["direction"], state["current_player"]) == (-1, 1)
    assert run(game, [play(1, "red:3")])["current_player"] == 0


# ----------------------------------------------------------------------------- R14

RUN = ["red:taki", "red:3", "red:plus2", "red:stop", "red:4", "blue:5", "king"]


def test_r14_taki_opens_a_run_of_its_colour():
    game = new_game([RUN, [], []], "red:5")
    state = run(game, [play(0, "red:taki")])
    assert state["taki_run"] == {"color": "red", "player": 0, "open": False}
    assert state["current_player"] == 0
    assert moves(game.legal_actions(0)) == {
        ("play", 0, code, None) for code in ("red:3", "red:plus2", "red:stop", "red:4")
    } | {("pass", 0, None, None)}


def test_r14_only_cards_of_the_runs_colour():
    game = new_game([RUN + ["change-color"], [], []], "red:5")
    game.apply(play(0, "red:taki"))
    refused(game, play(0, "blue:5"), "illegal_card")  # matches the leading card's symbol
    refused(game, play(0, "king"), "illegal_card")  # colourless
    refused(game, play(0, "change-color", "red"), "illegal_card")


def test_r14_action_cards_inside_a_run_have_no_effect():
    game = new_game([RUN, [], []], "red:5")
    actions = [play(0, c) for c in ("red:taki", "red:plus2", "red:stop", "red:3")] + [close(0)]
    state = run(game, actions)
    assert state["plus2_stack"] == 0
    assert state["current_player"] == 1
    assert state["taki_run"] is None
    assert (state["leading"], state["active_color"]) == ("red:3", "red")


@pytest.mark.parametrize(
    ("last", "expected"),
    [
        ("red:stop", {"current_player": 2}),
        ("red:plus2", {"current_player": 1, "plus2_stack": 2}),
        ("red:direction", {"current_player": 2, "direction": -1}),
        ("red:plus", {"current_player": 0, "follow_up": "plus"}),
        ("red:taki", {"current_player": 1, "taki_run": None}),  # no further effect
        ("red:4", {"current_player": 1}),
    ],
)
def test_r14_closing_applies_the_last_cards_action(last, expected):
    game = new_game([["red:taki", "red:3", last], [], []], "red:5")
    state = run(game, [play(0, "red:taki"), play(0, "red:3"), play(0, last), close(0)])
    assert state["taki_run"] is None
    assert {k: state[k] for k in expected} == expected


def test_r14_a_taki_alone_cannot_be_closed_it_is_passed_and_stays_open():
    game = new_game([RUN, ["red:3", "red:4"], []], "red:5")
    game.apply(play(0, "red:taki"))
    refused(game, close(0), "cannot_close")
    state = run(game, [pass_(0)])
    assert state["taki_run"] == {"color": "red", "player": 0, "open": True}
    assert state["current_player"] == 1
    # the next player continues the open run and closes it
    state = run(game, [play(1, "red:3")])
    assert state["taki_run"] == {"color": "red", "player": 1, "open": False}
    assert state["current_player"] == 1
    refused(game, pass_(1), "cannot_pass")
    refused(game, draw(1), "cannot_draw")
    state = run(game, [play(1, "red:4"), close(1)])
    assert (state["taki_run"], state["current_player"]) == (None, 2)


def test_r14_an_open_run_may_be_continued_with_a_taki_of_its_colour():
    game = new_game([["red:taki"], ["red:taki", "red:3"], []], "red:5")
    state = run(game, [play(0, "red:taki"), pass_(0), play(1, "red:taki")])
    assert state["taki_run"] == {"color": "red", "player": 1, "open": False}
    refused(game, pass_(1), "cannot_pass")  # they have played a card in the run
    state = run(game, [close(1)])
    assert (state["taki_run"], state["current_player"]) == (None, 2)


@pytest.mark.parametrize(
    "action",
    [draw(1), play(1, "king"), play(1, "blue:taki"), play(1, "change-color", "green")],
)
def test_r14_any_other_card_or_a_draw_ends_the_open_run(action):
    game = new_game([["red:taki"], ["king", "blue:taki", "change-color"], []], "red:5")
    run(game, [play(0, "red:taki"), pass_(0)])
    state = run(game, [action])
    if action.card is not None and action.card.code == "blue:taki":
        assert state["taki_run"] == {"color": "blue", "player": 1, "open": False}
    else:
        assert state["taki_run"] is None


def test_r14_a_player_who_played_in_the_run_must_close_it():
    game = new_game([RUN, [], []], "red:5")
    run(game, [play(0, "red:taki"), play(0, "red:3")])
    refused(game, pass_(0), "cannot_pass")
    refused(game, draw(0), "cannot_draw")
    assert ("close_taki", 0, None, None) in moves(game.legal_actions(0))
    assert ("draw", 0, None, None) not in moves(game.legal_actions(0))


def test_r14_draw_after_a_taki_alone_is_refused():
    # R14 lets a player end a lone TAKI only with pass; docs/record-format.md's cannot_draw is the
    # code for a draw inside one's own run (see the report on this reading).
    game = new_game([RUN, [], []], "red:5")
    game.apply(play(0, "red:taki"))
    refused(game, draw(0), "cannot_draw")


def test_r14_cannot_close_without_a_run_and_cannot_pass_outside_one():
    game = new_game([RUN, [], []], "red:5")
    refused(game, close(0), "cannot_close")
    refused(game, pass_(0), "cannot_pass")


# ----------------------------------------------------------------------------- R15


def test_r15_super_taki_takes_the_active_colour_and_opens_a_run():
    game = new_game([["change-color"], ["super-taki", "green:3", "red:3", "green:plus2"]], "red:5")
    state = run(game, [play(0, "change-color", "green"), play(1, "super-taki")])
    assert state["taki_run"] == {"color": "green", "player": 1, "open": False}
    assert state["active_color"] == "green"
    refused(game, play(1, "red:3"), "illegal_card")
    state = run(game, [play(1, "green:3"), play(1, "green:plus2"), close(1)])
    assert (state["plus2_stack"], state["current_player"]) == (2, 0)


def test_r15_super_taki_not_on_a_stack_or_a_pending_plus3():
    game = new_game([["red:plus2"], ["super-taki"]], "red:5")
    game.apply(play(0, "red:plus2"))
    refused(game, play(1, "super-taki"), "must_answer")
    game = new_game([["plus3"], ["super-taki"]], "red:5")
    game.apply(play(0, "plus3"))
    refused(game, play(1, "super-taki"), "must_answer")


# ----------------------------------------------------------------------------- R16


def test_r16_king_then_any_card_at_all():
    game = new_game([["king", "green:plus"], [], []], "red:5")
    state = run(game, [play(0, "king")])
    assert (state["follow_up"], state["current_player"]) == ("king", 0)
    assert ("play", 0, "green:plus", None) in moves(game.legal_actions(0))
    state = run(game, [play(0, "green:plus")])  # no matching after a King
    assert (state["follow_up"], state["active_color"]) == ("plus", "green")


def test_r16_king_then_draw_ends_the_turn():
    game = new_game([["king"], [], []], "red:5", ["blue:9"])
    deal = make_deck([["king"], [], []], "red:5", ["blue:9"])
    state = run(game, [play(0, "king"), draw(0)])
    assert (state["follow_up"], state["current_player"]) == (None, 1)
    assert state["hands"][0] == sort([*deal.hands[0][1:], "blue:9"])


def test_r16_king_after_king():
    game = new_game([["king", "king", "blue:3"], []], "red:5")
    state = run(game, [play(0, "king"), play(0, "king")])
    assert (state["follow_up"], state["current_player"]) == ("king", 0)
    state = run(game, [play(0, "blue:3")])
    assert (state["follow_up"], state["current_player"]) == (None, 1)


def test_r16_king_cancels_a_pending_plus3_by_the_next_player():
    deal = make_deck([["plus3"], ["king"], [], []], "red:5")
    game = new_game([["plus3"], ["king"], [], []], "red:5")
    state = run(game, [play(0, "plus3"), accept(3), play(1, "king")])
    assert state["plus3_pending"] is None
    assert (state["follow_up"], state["current_player"]) == ("king", 1)
    assert [len(h) for h in state["hands"]] == [7, 7, 8, 8]
    assert state["hands"][3] == sort(deal.hands[3])


def test_r16_king_on_a_plus3_only_by_the_player_whose_turn_it_is():
    game = new_game([["plus3"], [], ["king"], []], "red:5")
    game.apply(play(0, "plus3"))
    refused(game, play(2, "king"), "not_your_turn")


def test_r16_king_after_accepting_is_refused():
    game = new_game([["plus3"], ["king"], []], "red:5")
    run(game, [play(0, "plus3"), accept(1)])
    assert game.legal_actions(1) == []
    refused(game, play(1, "king"), "not_your_turn")


# ----------------------------------------------------------------------------- R17


def test_r17_plus_needs_a_second_card_legal_on_it():
    game = new_game([["red:plus", "blue:3", "blue:plus", "red:4", "king"], []], "red:5")
    state = run(game, [play(0, "red:plus")])
    assert (state["follow_up"], state["current_player"]) == ("plus", 0)
    assert moves(game.legal_actions(0)) >= {
        ("draw", 0, None, None),
        ("play", 0, "blue:plus", None),
        ("play", 0, "red:4", None),
        ("play", 0, "king", None),
    }
    assert ("play", 0, "blue:3", None) not in moves(game.legal_actions(0))
    refused(game, play(0, "blue:3"), "illegal_card")
    refused(game, pass_(0), "cannot_pass")
    state = run(game, [play(0, "blue:plus")])  # symbol: a second Plus, another card owed
    assert (state["follow_up"], state["current_player"]) == ("plus", 0)
    state = run(game, [play(0, "blue:3")])
    assert (state["follow_up"], state["current_player"]) == (None, 1)


def test_r17_who_cannot_or_does_not_play_draws_one_and_the_turn_ends():
    game = new_game([["red:plus", "red:3"], []], "red:5", ["green:6"])
    deal = make_deck([["red:plus", "red:3"], []], "red:5", ["green:6"])
    state = run(game, [play(0, "red:plus"), draw(0)])
    assert (state["follow_up"], state["current_player"]) == (None, 1)
    assert state["hands"][0] == sort([*deal.hands[0][1:], "green:6"])


# ----------------------------------------------------------------------------- R18


def test_r18_plus3_waits_for_every_other_player():
    game = new_game([["plus3"], [], [], []], "red:5")
    state = run(game, [play(0, "plus3")])
    assert state["plus3_pending"] == {"by": 0, "waiting": [1, 2, 3]}
    assert state["current_player"] == 1
    assert (state["active_color"], state["leading"]) == ("red", "red:5")
    assert game.seats_to_act() == [1, 2, 3]
    assert moves(game.legal_actions(2)) == {("accept", 2, None, None)}
    assert game.legal_actions(0) == []


def test_r18_accept_in_any_order_then_draws_in_turn_order():
    deal = make_deck([["plus3"], [], [], []], "red:5", DRAW)
    game = new_game([["plus3"], [], [], []], "red:5", DRAW)
    state = run(game, [play(0, "plus3"), accept(3), accept(1)])
    assert state["plus3_pending"] == {"by": 0, "waiting": [2]}
    assert [len(h) for h in state["hands"]] == [7, 8, 8, 8]
    state = run(game, [accept(2)])
    assert state["plus3_pending"] is None
    assert state["hands"][1] == sort(deal.hands[1] + DRAW[0:3])
    assert state["hands"][2] == sort(deal.hands[2] + DRAW[3:6])
    assert state["hands"][3] == sort(deal.hands[3] + DRAW[6:9])
    assert state["current_player"] == 1  # the next player plays a normal turn
    assert state["active_color"] == "red"
    assert ("draw", 1, None, None) in moves(game.legal_actions(1))


def test_r18_draws_follow_the_direction_of_play():
    hands = [["red:direction"], [], [], ["plus3"]]
    deal = make_deck(hands, "red:5", DRAW)
    game = new_game(hands, "red:5", DRAW)
    state = run(game, [play(0, "red:direction"), play(3, "plus3")])
    assert state["plus3_pending"] == {"by": 3, "waiting": [2, 1, 0]}
    assert state["current_player"] == 2
    state = run(game, [accept(0), accept(1), accept(2)])
    assert state["hands"][2] == sort(deal.hands[2] + DRAW[0:3])
    assert state["hands"][1] == sort(deal.hands[1] + DRAW[3:6])
    assert state["hands"][0] == sort(deal.hands[0][1:] + DRAW[6:9])


def test_r18_an_answer_is_final():
    game = new_game([["plus3"], [], ["breaker"], []], "red:5")
    run(game, [play(0, "plus3"), accept(2)])
    refused(game, accept(2), "not_your_turn")
    refused(game, play(2, "breaker"), "not_your_turn")
    assert game.legal_actions(2) == []


def test_r18_only_answers_while_a_plus3_is_pending():
    game = new_game([["plus3", "red:3"], ["red:4"], ["red:6"]], "red:5")
    game.apply(play(0, "plus3"))
    refused(game, play(1, "red:4"), "must_answer")  # the next player
    refused(game, draw(1), "must_answer")
    refused(game, play(2, "red:6"), "not_your_turn")  # another waiting seat, out of turn
    refused(game, draw(0), "not_your_turn")  # the +3's player
    refused(game, accept(0), "not_your_turn")


def test_r18_accept_with_nothing_to_accept():
    game = new_game([[], []], "red:5")
    refused(game, accept(0), "not_your_turn")
    refused(game, accept(1), "not_your_turn")


# ----------------------------------------------------------------------------- R19


def test_r19a_breaker_bounces_plus3_out_of_turn():
    hands = [["plus3"], [], [], ["breaker"]]
    deal = make_deck(hands, "red:5", DRAW)
    game = new_game(hands, "red:5", DRAW)
    state = run(game, [play(0, "plus3"), accept(1), play(3, "breaker")])
    assert state["plus3_pending"] is None
    assert state["hands"][0] == sort(deal.hands[0][1:] + DRAW[0:3])
    assert state["hands"][1] == sort(deal.hands[1])  # the accept is void
    assert state["hands"][3] == sort(deal.hands[3][1:])
    assert state["current_player"] == 1  # the player after the +3's player
    assert (state["discard_top"], state["leading"], state["active_color"]) == (
        "breaker",
        "red:5",
        "red",
    )


def test_r19a_breaker_by_the_next_player_and_against_the_direction():
    hands = [["red:direction"], [], ["breaker"], ["plus3"]]
    game = new_game(hands, "red:5", DRAW)
    state = run(game, [play(0, "red:direction"), play(3, "plus3"), play(2, "breaker")])
    assert state["current_player"] == 2
    assert len(state["hands"][3]) == 8 - 1 + 3


def test_r19a_not_by_the_plus3_player():
    game = new_game([["plus3", "breaker"], [], []], "red:5")
    game.apply(play(0, "plus3"))
    refused(game, play(0, "breaker"), "not_your_turn")


def test_r19a_breaker_after_accepting_is_refused_for_the_next_player_too():
    game = new_game([["plus3"], ["breaker"], []], "red:5")
    run(game, [play(0, "plus3"), accept(1)])
    refused(game, play(1, "breaker"), "not_your_turn")


def test_r19b_breaker_on_your_own_turn_costs_three_cards():
    hands = [["breaker", "red:3"], ["red:4"], []]
    deal = make_deck(hands, "red:5", DRAW)
    game = new_game(hands, "red:5", DRAW)
    state = run(game, [play(0, "breaker")])
    assert state["hands"][0] == sort(deal.hands[0][1:] + DRAW[0:3])
    assert state["current_player"] == 1
    assert (state["discard_top"], state["leading"], state["active_color"]) == (
        "breaker",
        "red:5",
        "red",
    )
    refused(game, play(1, "blue:1"), "card_not_in_hand")
    state = run(game, [play(1, "red:4")])  # follows the card under the Breaker
    assert state["leading"] == "red:4"


def test_r19b_not_on_a_plus2_stack_nor_in_a_run_nor_out_of_turn():
    game = new_game([["red:plus2"], ["breaker"], ["breaker"]], "red:5")
    game.apply(play(0, "red:plus2"))
    refused(game, play(1, "breaker"), "must_answer")
    refused(game, play(2, "breaker"), "not_your_turn")
    game = new_game([["red:taki", "breaker"], []], "red:5")
    game.apply(play(0, "red:taki"))
    refused(game, play(0, "breaker"), "illegal_card")


@pytest.mark.parametrize("color", COLORS)
def test_r19b_next_player_follows_the_colour_under_the_breaker(color):
    game = new_game([["change-color"], ["breaker"], []], "red:5")
    state = run(game, [play(0, "change-color", color), play(1, "breaker")])
    assert (state["active_color"], state["leading"]) == (color, "change-color")
