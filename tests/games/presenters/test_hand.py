"""A seated player's own part of the table: their cards and no one else's, the legal ones
marked, the controls, the colour choice, and each card's HTML kept from one move to the next."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import translation

from games import presenters
from games.engine import CARDS
from games.presenters import narration
from games.services import moves
from tests.games.presenters.helpers import (
    HANDS,
    RUN,
    card_codes,
    card_lists,
    game_of,
    public_codes,
    pushed_to,
    seen_by,
)
from tools.loadtest.fragments import hand_actions

pytestmark = pytest.mark.django_db


def test_a_player_sees_their_own_hand_and_no_other(table, alice) -> None:
    context = seen_by(table, alice)

    game = game_of(table)
    own = sorted(code for code in HANDS[0] if code != "red:3")
    assert context["hand"] == own
    assert set(card_lists(context)) <= {("hand",)}
    public = public_codes(game)
    assert card_codes(context) <= set(own) | public
    html = pushed_to(table, alice)
    assert sorted(re.findall(r'data-card="([^"]+)"', html)) == own
    assert {code for code in CARDS if f'"{code}"' in html} <= set(own) | public
    # The check has teeth: bob holds cards that are neither alice's nor public.
    assert set(HANDS[1]) - set(own) - public


def test_a_player_gets_their_legal_actions_grouped_for_the_controls(table, bob) -> None:
    context = seen_by(table, bob)

    assert context["my_seat"] == 1
    assert context["legal"] == {
        # R19b: a Breaker may be played on one's own turn too (and costs three cards).
        "play": [
            {"card": "red:6", "colors": []},
            {"card": "red:7", "colors": []},
            {"card": "breaker", "colors": []},
        ],
        "draw": True,
        "close_taki": False,
        "pass": False,
        "accept": False,
        "last_card": False,
    }
    view = presenters.read_table(table.pk)
    hand = presenters.hand_view(view, view.seat_of(bob.pk))
    assert hand.playable == ["breaker", "red:6", "red:7"]


@pytest.mark.parametrize("who", ["carol", "anonymous"])
def test_a_spectator_sees_no_hand_at_all(table, carol, who) -> None:
    viewer = carol if who == "carol" else AnonymousUser()

    context = seen_by(table, viewer)

    assert context["my_seat"] is None
    assert (context["hand"], context["legal"], context["hand_cards"]) == (None, None, [])
    assert card_lists(context) == {}
    assert card_codes(context) <= public_codes(game_of(table))
    html = pushed_to(table, viewer)
    assert "data-card=" not in html
    assert {code for code in CARDS if f'"{code}"' in html} <= public_codes(game_of(table))


def test_a_change_color_is_offered_with_every_colour_to_name(alice, bob, make_table, rig) -> None:
    table = make_table(players=[bob], start=True)
    hands = [["change-color", *HANDS[0][1:]], HANDS[1]]
    rig(table, hands)

    legal = seen_by(table, alice)["legal"]

    # R11: the colour is named on the play itself.
    assert {"card": "change-color", "colors": ["red", "yellow", "green", "blue"]} in legal["play"]


def test_king_and_change_color_come_last_in_the_hand(alice, bob, make_table, rig) -> None:
    table = make_table(players=[bob], start=True)
    hand = ["blue:1", "change-color", "green:3", "king", "red:5", "breaker", "yellow:7", "red:1"]
    rig(table, [hand, RUN[1]], leading="red:9")

    codes = [card.code for card in seen_by(table, alice)["hand_cards"]]

    assert codes == [
        "blue:1",
        "green:3",
        "red:1",
        "red:5",
        "yellow:7",
        "breaker",
        "change-color",
        "king",
    ]


def test_r11_the_colour_choice_is_four_named_buttons(alice, bob, make_table, rig) -> None:
    table = make_table(players=[bob], start=True)
    hand = ["change-color", "change-color", "green:3", "king", "red:5", "red:6", "red:7", "red:1"]
    rig(table, [hand, RUN[1]], leading="blue:9")

    html = pushed_to(table, alice)
    for word in ("Red", "Yellow", "Green", "Blue"):
        assert f">{word}</button>" in html
    # The second Change Color repeats no buttons.
    assert html.count('name="color" value="red"') == 1


def test_the_hand_s_cards_send_the_version_of_the_one_input_that_holds_it(
    alice, bob, make_table, rig
) -> None:
    table = make_table(players=[bob], start=True)
    rig(table, HANDS)
    before = pushed_to(table, alice)
    moves.submit_action(table.pk, alice, {"type": "play", "card": "red:3", "version": 0})
    moves.submit_action(table.pk, bob, {"type": "play", "card": "red:7", "version": 1})
    after = pushed_to(table, alice)

    for html, version in ((before, "0"), (after, "2")):
        hand = html.split('id="table-hand"')[1]
        assert hand.count('name="version"') == 2  # the hand's one input, and the draw button's
        assert f'id="hand-version" name="version" value="{version}"' in hand
        plays = [action for action in hand_actions(hand) if action["type"] == "play"]
        assert plays and all(action["version"] == version for action in plays)
    # So a card that is still playable is the same HTML from one move to the next.
    red_1 = re.compile(r'<li class="hand__card[^"]*" data-card="red:1">.*?</li>', re.S)
    assert red_1.search(before)[0] == red_1.search(after)[0]


def test_a_kept_card_is_drawn_in_each_viewers_language(alice, bob, make_table, rig) -> None:
    table = make_table(players=[bob], start=True)
    rig(table, HANDS)
    view = presenters.read_table(table.pk)

    english = presenters.table_fragments(view, alice)
    with translation.override("es"):
        spanish = presenters.table_fragments(view, alice)
        play_red_1 = translation.gettext("Play %(card)s") % {"card": narration.card_name("red:1")}

    assert 'title="Play red 1"' in english
    assert f'title="{play_red_1}"' in spanish and 'title="Play red 1"' not in spanish
