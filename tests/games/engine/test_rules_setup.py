"""R1–R9: the deck, the deal, the leading card, matching, drawing and reshuffling."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from games.engine import CARDS, Card, GameState, IllegalAction, deck_codes
from games.engine.record import new_record
from tests.games.engine.helpers import (
    COLORS,
    draw,
    full_deck,
    hand,
    make_deck,
    moves,
    new_game,
    pass_,
    play,
    run,
    sort,
)

# ----------------------------------------------------------------------------- R1, R2


def test_r1_deck_has_116_cards():
    codes = deck_codes()
    assert len(codes) == 116
    assert Counter(codes) == full_deck()


def test_r1_each_colour_has_26_cards_and_12_are_colourless():
    counts = Counter(code.partition(":")[0] if ":" in code else None for code in deck_codes())
    assert {color: counts[color] for color in COLORS} == dict.fromkeys(COLORS, 26)
    assert counts[None] == 12


def test_r1_there_is_no_2():
    assert not any(code.endswith(":2") for code in deck_codes())


def test_r2_card_codes():
    pattern = re.compile(
        r"(red|yellow|green|blue):(1|3|4|5|6|7|8|9|stop|plus2|direction|plus|taki)"
        r"|super-taki|king|plus3|breaker|change-color"
    )
    assert set(CARDS) == set(full_deck())
    assert all(pattern.fullmatch(code) for code in CARDS)


def test_r2_codes_round_trip_and_copies_share_a_code():
    for code in CARDS:
        assert Card.from_code(code).code == code
    assert Card.from_code("red:7") is Card.from_code("red:7")


@pytest.mark.parametrize("code", ["red:2", "purple:7", "RED:7", "red:", "plus4", "", "red:10"])
def test_r2_unknown_codes_are_refused(code):
    with pytest.raises(ValueError):
        Card.from_code(code)


# ----------------------------------------------------------------------------- R3


@pytest.mark.parametrize("players", [0, 1, 11])
def test_r3_two_to_ten_players(players):
    with pytest.raises(ValueError):
        GameState(deck_codes(), players)


@pytest.mark.parametrize("players", [2, 10])
def test_r3_direction_starts_increasing(players):
    game = GameState(make_deck([[]] * players, "red:5").deck, players, players - 1)
    state = game.state_json()
    assert state["direction"] == 1
    game.apply(draw(players - 1))
    assert game.state_json()["current_player"] == 0  # next after the last seat is seat 0


# ----------------------------------------------------------------------------- R4


def test_r4_deal_gives_seat_k_positions_k_plus_multiples_of_n():
    deck = list(deck_codes())
    random.Random(4).shuffle(deck)
    for players in (2, 3, 7, 10):
        game = GameState(deck, players)
        for k in range(players):
            assert hand(game, k) == sort(deck[k : 8 * players : players])
        state = game.state_json()
        assert state["draw_pile"] == 116 - 8 * players - 1


def test_r4_make_deck_and_engine_agree_on_the_deal():
    deal = make_deck([["red:3", "king"], ["blue:5"], ["plus3", "breaker", "red:plus"]], "red:5")
    game = GameState(deal.deck, 3)
    assert [hand(game, k) for k in range(3)] == [sort(h) for h in deal.hands]
    state = game.state_json()
    assert state["leading"] == state["discard_top"] == "red:5"
    assert state["active_color"] == "red"
    assert state["draw_pile"] == 116 - 24 - 1


def test_r4_number_card_leads_at_once():
    game = new_game([[], []], None, ["green:9", "king"])
    state = game.state_json()
    assert (state["leading"], state["active_color"], state["draw_pile"]) == ("green:9", "green", 99)
    game.apply(draw(0))
    assert "king" in hand(game, 0)  # the card after the leading card is the top of the pile


def test_r4_non_number_cards_go_under_the_pile_in_order():
    players = 10
    turned = ["king", "red:stop", "blue:taki", "change-color"]
    game = new_game([[]] * players, None, [*turned, "blue:7", "green:3"])
    state = game.state_json()
    assert state["leading"] == "blue:7"
    assert state["active_color"] == "blue"
    assert state["discard_top"] == "blue:7"
    assert state["draw_pile"] == 116 - 80 - 1
    # The first card drawn is the one after the leading card; the turned cards come last,
    # the first one turned over first.
    drawn = []
    for _i in range(state["draw_pile"]):
        seat = game.current
        before = Counter(c.code for c in game.hands[seat])
        game.apply(draw(seat))
        (code,) = (Counter(c.code for c in game.hands[seat]) - before).elements()
        drawn.append(code)
    assert drawn[0] == "green:3"
    assert drawn[-4:] == turned


def test_r4_no_number_card_left_first_coloured_card_leads_without_its_action():
    numbers = [f"{c}:{n}" for c in COLORS for n in ("1", "3", "4", "5", "6", "7", "8", "9")] * 2
    hands = [numbers[i * 8 : i * 8 + 8] for i in range(8)]
    hands += [["king", "king", "plus3", "plus3", "breaker", "breaker", "super-taki", "super-taki"]]
    hands += [["red:taki"] * 2 + ["blue:taki"] * 2 + ["red:plus"] * 2 + ["blue:plus"] * 2]
    top = ["change-color", "change-color", "green:plus2", "yellow:stop"]
    game = new_game(hands, None, top)
    state = game.state_json()
    assert state["leading"] == state["discard_top"] == "green:plus2"
    assert state["active_color"] == "green"
    assert state["draw_pile"] == 116 - 80 - 1
    assert state["plus2_stack"] == 0  # without its action
    assert state["current_player"] == 0


# ----------------------------------------------------------------------------- R5


@pytest.mark.parametrize("first", [0, 2, 3])
def test_r5_first_player_comes_from_the_record(first):
    game = new_game([[], [], [], []], first=first)
    assert game.state_json()["current_player"] == first
    assert game.legal_actions((first + 1) % 4) == []


def test_r5_first_player_is_drawn_at_random_and_written_down():
    firsts = {new_record(["a", "b", "c"], random.Random(seed)).first_player for seed in range(60)}
    assert firsts == {0, 1, 2}


# ----------------------------------------------------------------------------- R6


def test_r6_king_is_transparent():
    game = new_game([["king"], []], "red:5")
    state = run(game, [play(0, "king")])
    assert (state["discard_top"], state["leading"], state["active_color"]) == (
        "king",
        "red:5",
        "red",
    )


def test_r6_plus3_and_breaker_are_transparent():
    game = new_game([["plus3"], ["breaker"], []], "red:5")
    state = run(game, [play(0, "plus3")])
    assert (state["discard_top"], state["leading"], state["active_color"]) == (
        "plus3",
        "red:5",
        "red",
    )
    state = run(game, [play(1, "breaker")])
    assert (state["discard_top"], state["leading"], state["active_color"]) == (
        "breaker",
        "red:5",
        "red",
    )


def test_r6_active_colour_from_the_last_coloured_card_or_change_color():
    game = new_game([["blue:5", "red:3"], ["change-color"], ["green:9"]], "red:5")
    state = run(game, [play(0, "blue:5")])
    assert (state["leading"], state["active_color"]) == ("blue:5", "blue")
    state = run(game, [play(1, "change-color", "green")])
    assert (state["leading"], state["active_color"]) == ("change-color", "green")
    state = run(game, [play(2, "green:9")])
    assert (state["leading"], state["active_color"]) == ("green:9", "green")


def test_r6_super_taki_takes_the_active_colour():
    game = new_game([["change-color"], ["super-taki"]], "red:5")
    state = run(game, [play(0, "change-color", "yellow"), play(1, "super-taki")])
    assert (state["leading"], state["active_color"]) == ("super-taki", "yellow")
    assert state["taki_run"] == {"color": "yellow", "player": 1, "open": False}


# ----------------------------------------------------------------------------- R7

HAND = ["red:3", "blue:5", "green:7", "blue:plus", "change-color", "king", "plus3", "yellow:9"]


def test_r7_legal_actions_match_colour_or_symbol_and_colourless_cards():
    game = new_game([HAND, []], "red:5")
    expected = {
        ("draw", 0, None, None),
        ("play", 0, "red:3", None),  # colour
        ("play", 0, "blue:5", None),  # symbol
        ("play", 0, "king", None),
        ("play", 0, "plus3", None),
        *(("play", 0, "change-color", c) for c in COLORS),
    }
    assert moves(game.legal_actions(0)) == expected
    assert len(game.legal_actions(0)) == len(expected)  # each distinct card once


def test_r7_symbol_matches_across_colours():
    game = new_game([["red:7"], []], "blue:7")
    assert run(game, [play(0, "red:7")])["leading"] == "red:7"
    game = new_game([["red:stop"], [], ["green:stop"]], "red:5")
    state = run(game, [play(0, "red:stop"), play(2, "green:stop")])
    assert (state["leading"], state["active_color"]) == ("green:stop", "green")


def test_r7_a_taki_matches_a_super_taki():
    game = new_game([["super-taki"], ["blue:taki"]], "red:5")
    run(game, [play(0, "super-taki"), pass_(0)])
    state = run(game, [play(1, "blue:taki")])
    assert state["leading"] == "blue:taki"
    assert state["active_color"] == "blue"
    assert state["taki_run"] == {"color": "blue", "player": 1, "open": False}


@pytest.mark.parametrize("card", ["green:7", "yellow:9", "blue:plus"])
def test_r7_non_matching_card_is_illegal_card(card):
    game = new_game([HAND, []], "red:5")
    with pytest.raises(IllegalAction) as exc:
        game.apply(play(0, card))
    assert exc.value.code == "illegal_card"
    assert hand(game, 0) == sort(HAND)  # the game is unchanged


# ----------------------------------------------------------------------------- R8


def test_r8_drawing_is_allowed_with_a_playable_card_and_ends_the_turn():
    game = new_game([["red:3"], [], []], "red:5", ["green:1"])
    state = run(game, [draw(0)])
    assert state["current_player"] == 1
    assert state["draw_pile"] == 116 - 24 - 1 - 1
    assert sort(state["hands"][0]) == sort(
        make_deck([["red:3"], [], []], "red:5").hands[0] + ["green:1"]
    )


def test_r8_a_drawn_card_is_not_played_in_the_same_turn():
    game = new_game([[], []], "red:5", ["red:9"])
    game.apply(draw(0))
    with pytest.raises(IllegalAction) as exc:
        game.apply(play(0, "red:9"))
    assert exc.value.code == "not_your_turn"


def test_r8_a_plain_play_ends_the_turn():
    game = new_game([["red:3"], [], []], "red:5")
    assert run(game, [play(0, "red:3")])["current_player"] == 1


# ----------------------------------------------------------------------------- R9

SEED = "r9"


def _drain(game):
    """Everyone draws in turn until the draw pile is empty."""
    while game.state_json()["draw_pile"]:
        game.apply(draw(game.current))


def _shuffled(cards, seed, k):
    cards = list(cards)
    random.Random(f"{seed}:{k}").shuffle(cards)
    return cards


def _drawn(game, seat, action):
    before = Counter(c.code for c in game.hands[seat])
    game.apply(action)
    return sorted((Counter(c.code for c in game.hands[seat]) - before).elements())


def test_r9_reshuffle_exactly_as_the_record_says():
    hands = [["red:3"], ["red:4"], ["red:6"], ["red:7"], [], [], [], [], [], []]
    game = new_game(hands, "red:5", seed=SEED)
    run(game, [play(0, "red:3"), play(1, "red:4"), play(2, "red:6"), play(3, "red:7")])
    _drain(game)
    expected = _shuffled(["red:5", "red:3", "red:4", "red:6"], SEED, 1)  # oldest first
    seat = game.current
    assert _drawn(game, seat, draw(seat)) == [expected[0]]
    state = game.state_json()
    assert (state["discard_top"], state["leading"], state["draw_pile"]) == ("red:7", "red:7", 3)
    for card in expected[1:]:
        seat = game.current
        assert _drawn(game, seat, draw(seat)) == [card]


def test_r9_transparent_cards_above_the_leading_card_stay():
    hands = [["red:3"], ["red:4"], ["red:6"], [], ["king"]]
    game = new_game(hands, "red:5", seed=SEED)
    run(game, [play(0, "red:3"), play(1, "red:4"), play(2, "red:6"), draw(3), play(4, "king")])
    # seat 4's King follow-up: draw (R16); the King stays above the leading red:6
    _drain_keep = game.state_json()["draw_pile"]
    assert _drain_keep > 0
    game.apply(draw(4))
    _drain(game)
    expected = _shuffled(["red:5", "red:3", "red:4"], SEED, 1)
    seat = game.current
    assert _drawn(game, seat, draw(seat)) == [expected[0]]
    state = game.state_json()
    assert (state["discard_top"], state["leading"], state["draw_pile"]) == ("king", "red:6", 2)


def test_r9_a_reshuffle_with_nothing_to_shuffle_is_not_counted_and_draws_nothing():
    seed = next(
        s
        for s in (f"seed{i}" for i in range(100))
        if _shuffled("abc", s, 1) != _shuffled("abc", s, 2)
        and _shuffled("abc", s, 1) != list("abc")
    )
    hands = [["red:3"], ["red:4"], ["red:6"], [], [], [], [], [], [], []]
    game = new_game(hands, "red:5", seed=seed)
    _drain(game)  # 35 draws: seat 5 is next
    seat = game.current
    before = hand(game, seat)
    state = run(game, [draw(seat)])  # nothing to shuffle: only the leading card is discarded
    assert hand(game, seat) == before
    assert state["draw_pile"] == 0
    assert state["current_player"] == (seat + 1) % 10
    # play the three reds as their seats come round, everyone else draws nothing
    for code in ("red:3", "red:4", "red:6"):
        owner = ["red:3", "red:4", "red:6"].index(code)
        while game.current != owner:
            game.apply(draw(game.current))
        game.apply(play(owner, code))
    expected = _shuffled(["red:5", "red:3", "red:4"], seed, 1)  # still the first reshuffle
    seat = game.current
    assert _drawn(game, seat, draw(seat)) == [expected[0]]


def test_r9_with_too_few_cards_the_player_draws_what_there_is():
    hands = [["red:3"], ["breaker"], [], [], [], [], [], [], [], []]
    game = new_game(hands, "red:5", seed=SEED)
    _drain(game)
    while game.current != 0:
        game.apply(draw(game.current))  # nothing to draw, nothing to reshuffle
    game.apply(play(0, "red:3"))
    size = len(game.hands[1])
    # R19b: the Breaker's player draws 3, but only the red:5 under the leading red:3 can be
    # reshuffled; red:3 and the Breaker above it stay.
    events = game.apply(play(1, "breaker"))
    assert len(game.hands[1]) == size - 1 + 1
    assert "red:5" in hand(game, 1)
    assert [e.count for e in events if e.kind == "drew"] == [1]
    state = game.state_json()
    assert (state["discard_top"], state["leading"], state["draw_pile"]) == ("breaker", "red:3", 0)
