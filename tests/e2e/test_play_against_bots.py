"""The `make run` journey: a new visitor opens the site, signs up, presses
"Play against bots", and within a minute is playing, the bots answering on the page; and a
player who chooses the bots' level plays them to the end, their level named on every seat.
Screenshots: test-artifacts/e2e-play-against-bots.png, e2e-play-against-hard-bots.png.
"""

import json
import re
import time

import pytest
from playwright.sync_api import expect

from tests.e2e.finish_game import finish_on_site
from tests.e2e.pages import (
    CONTROLS,
    EVENTS,
    HAND_CARDS,
    RESULT,
    fill_sign_up_form,
    has_controls,
    mark_page,
    not_reloaded,
    own_seat,
    screenshot,
    sign_up,
    table_id_of,
    take_turn,
    unique_name,
    version,
    wait_for_version,
)

pytestmark = pytest.mark.e2e

MAX_ACTIONS = 12  # of the visitor's own, until one of them is a card played
BOTS_TIMEOUT = 30_000  # ms: three bots, each pausing ~0.8 s before every move


def test_a_new_visitor_signs_up_and_plays_against_bots_within_a_minute(
    site_server, new_context, artifacts
) -> None:
    live_site = site_server.url
    began = time.monotonic()
    page = new_context().new_page()
    page.goto(live_site + "/")
    expect(page.get_by_role("heading", name="TAKI, live, in your browser")).to_be_visible()

    page.locator("main").get_by_role("link", name="Sign up").click()
    username = unique_name("newbie")
    fill_sign_up_form(page, live_site, username)
    expect(page.get_by_text(f"Welcome, {username}!")).to_be_visible()

    clicked = time.monotonic()
    page.get_by_role("button", name="Play against bots").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    # At the table: the visitor's eight cards (R4), and three bots.
    expect(page.locator(HAND_CARDS)).to_have_count(8, timeout=5_000)
    seats = page.locator("#table-seats li.seat")
    expect(seats).to_have_count(4)
    expect(own_seat(page)).to_contain_text(username)
    expect(own_seat(page)).to_have_count(1)
    bots = page.locator("#table-seats li.seat:has(.badge--bot) .seat__name").all_inner_texts()
    assert len(bots) == 3, bots
    mark_page(page)

    assert time.monotonic() - clicked < 10, "the table took too long to appear"
    # The bots play first if the deal says so (each after a short pause, a TAKI run card by
    # card); then it is the visitor's move, the legal cards marked.
    expect(page.locator(CONTROLS).first).to_be_visible(timeout=BOTS_TIMEOUT)
    cards = page.locator(HAND_CARDS)
    legal = page.locator(f"{HAND_CARDS}.hand__card--legal")
    idle = page.locator(f"{HAND_CARDS}.hand__card--idle")
    assert legal.count() + idle.count() == cards.count()
    expect(page.locator("#table-hand h2 .badge--live")).to_have_text("your move")

    table_id = table_id_of(page)

    def cards_played() -> int:
        """The visitor's plays the site stored (a click the site refused is not one)."""
        actions = site_server.query(
            "SELECT games_move.action FROM games_move JOIN games_game"
            " ON games_move.game_id = games_game.id"
            " WHERE games_game.table_id = ? AND games_move.source = 'player'",
            (table_id,),
        )
        return sum(json.loads(action)["type"] == "play" for (action,) in actions)

    # Play (a card if the hand allows, else draw and try on the next turn) until a card is down
    # and the turn has passed to the bots.
    actions = []
    while True:
        if page.locator(RESULT).count():
            pytest.skip("the bots won before the visitor could play a card (a very short game)")
        assert len(actions) < MAX_ACTIONS, f"no card played after {actions}"
        expect(page.locator(CONTROLS).first).to_be_visible(timeout=BOTS_TIMEOUT)
        if not actions:
            screenshot(page, artifacts, "play-against-bots-first-move")
        before = version(page)
        actions.append(take_turn(page))
        wait_for_version(page, before + 1)
        if len(actions) == 1:  # a newcomer plays within a minute of arriving
            assert time.monotonic() - began < 60, "a new visitor needed over a minute to play"
        if cards_played() and not has_controls(page):
            break
    mine = version(page)

    # The bots answer on their own, live: their moves appear in the events, newest on top.
    wait_for_version(page, mine + 1, timeout=BOTS_TIMEOUT)
    newest = page.locator(EVENTS).first.inner_text()
    assert any(name in newest for name in bots), newest
    assert not_reloaded(page)
    screenshot(page, artifacts, "play-against-bots")


def test_a_player_chooses_hard_bots_plays_them_to_the_end_and_sees_their_level(
    site_server, new_context, artifacts
) -> None:
    base = site_server.url
    page = sign_up(new_context(), base, unique_name("leveller"))

    page.get_by_label("Bots' level").select_option(label="Hard bot")
    page.get_by_role("button", name="Play against bots").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    expect(page.locator(HAND_CARDS)).to_have_count(8, timeout=5_000)
    names = page.locator("#table-seats li.seat:has(.badge--bot) .seat__name")
    expect(names).to_have_text(["Hard bot 2", "Hard bot 3", "Hard bot 4"])
    # The player's own moves on the page, unless the bots win first: more than one when a card
    # lets them play on (a Plus, a Stop at two seats, a TAKI run), until the turn passes.
    expect(page.locator(f"{CONTROLS}, {RESULT}").first).to_be_visible(timeout=BOTS_TIMEOUT)
    for _move in range(20):
        if not page.locator(CONTROLS).count():
            break
        before = version(page)
        take_turn(page)
        wait_for_version(page, before + 1)
    # The hard bots answer on their own, thinking in the clock's worker processes.
    expect(page.locator(EVENTS).first).to_contain_text("Hard bot", timeout=BOTS_TIMEOUT)

    finish_on_site(site_server, table_id_of(page))

    page.reload()
    expect(page.locator(RESULT)).to_be_visible(timeout=5_000)
    expect(names).to_have_text(["Hard bot 2", "Hard bot 3", "Hard bot 4"])
    screenshot(page, artifacts, "play-against-hard-bots")
