"""In a real browser: a turn-based table (a day a move). One player moves and closes the page;
the other, reading another page, is told at once (the bell, the alert, "Your move in 1 game")
and moves from the list of their turn-based games; the first opens the site again later and
finds the new position waiting, their move first in their list. axe-core finds nothing serious
on the new pages, and the console stays clean. Screenshots: test-artifacts/e2e-turn-based-*.png.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.axe import assert_accessible
from tests.e2e.conftest import LAPTOP, PHONE
from tests.e2e.pages import (
    HAND_CARDS,
    TIMEOUT,
    has_controls,
    mark_page,
    move_count,
    not_reloaded,
    screenshot,
    sign_up,
    start_game,
    take_seat,
    take_turn,
    unique_name,
    version,
    wait_for_version,
)

pytestmark = pytest.mark.e2e


def open_turn_based_table(host: Page, base: str, name: str) -> int:
    host.goto(base + "/tables/new/")
    form = host.locator("main form")
    form.locator("input[name=name]").fill(name)
    form.locator("select[name=seat_count]").select_option("2")
    form.locator("select[name=turn_days]").select_option(label="1 day a move")
    form.locator("select[name=bot_seats]").select_option("0")
    form.get_by_label("Public: listed in the lobby").check()
    form.get_by_role("button", name="Open the table").click()
    host.wait_for_url(re.compile(r"/tables/\d+/"))
    return int(re.search(r"/tables/(\d+)/", host.url).group(1))


def test_a_move_closes_the_page_and_the_other_is_told(site_server, make_context, artifacts) -> None:
    base = site_server.url
    ana_name, ben_name = unique_name("ana"), unique_name("ben")
    ana_context, ben_context = make_context(LAPTOP), make_context(PHONE, True)
    ana, ben = sign_up(ana_context, base, ana_name), sign_up(ben_context, base, ben_name)
    table_name = f"Slow {ana_name}"

    table_id = open_turn_based_table(ana, base, table_name)
    expect(ana.locator(".badge").first).to_be_visible()
    take_seat(ben, base, table_id)
    start_game(ana, ben)
    mover, other = (ana, ben) if has_controls(ana) else (ben, ana)
    mover_context = ana_context if mover is ana else ben_context
    expect(mover.locator("#your-move")).to_have_text("Your move in 1 game", timeout=TIMEOUT)

    # The other reads the rules meanwhile; the page is never reloaded.
    other.goto(base + "/rules/")
    mark_page(other)
    expect(other.locator("#your-move")).to_be_hidden()

    # One move, then the page is closed.
    while has_controls(mover):  # a TAKI run or a +2 may keep the turn: played to its end
        moves = version(mover)
        take_turn(mover)
        wait_for_version(mover, moves + 1)
    played = move_count(site_server, table_id)
    mover.close()

    # The other is told without a reload, and moves from their list of turn-based games.
    expect(other.locator("#your-move")).to_have_text("Your move in 1 game", timeout=TIMEOUT)
    expect(other.locator("#site-alert")).to_contain_text(f"Your move at {table_name}.")
    assert not_reloaded(other)
    screenshot(other, artifacts, "turn-based-told")
    other.locator("#your-move").click()
    other.wait_for_url(f"{base}/games/turn-based/")
    first = other.locator(".turn-based-list tbody tr").first
    expect(first).to_contain_text("Your move")
    screenshot(other, artifacts, "turn-based-mine")
    assert_accessible(other, "the turn-based games' list")
    first.get_by_role("link", name=table_name).click()
    expect(other.locator(HAND_CARDS).first).to_be_visible(timeout=TIMEOUT)
    wait_for_version(other, played)
    while has_controls(other):
        moves = version(other)
        take_turn(other)
        wait_for_version(other, moves + 1)
    stored = move_count(site_server, table_id)
    assert stored > played

    # Later, the first opens the site again: their move, and the position as it now stands.
    back = mover_context.new_page()
    back.goto(base + "/")
    expect(back.locator("#your-move")).to_have_text("Your move in 1 game")
    back.goto(base + "/games/turn-based/")
    row = back.locator(".turn-based-list tbody tr").first
    expect(row).to_contain_text("Your move")
    screenshot(back, artifacts, "turn-based-list")
    row.get_by_role("link", name=table_name).click()
    expect(back.locator(HAND_CARDS).first).to_be_visible(timeout=TIMEOUT)
    assert version(back) == stored
    assert has_controls(back)
    screenshot(back, artifacts, "turn-based-back")
