"""A newcomer's first minutes, in Chromium at laptop sizes (1366×768, 1280×720) and on a
390×844 phone: what a player needs on their turn is in view without scrolling, with or without
the guest's message over the table and for 2 to 10 seats; a player who sat down before the
start may leave and turn the sound on once it starts, without reloading; on a phone, "Last
card!" says what it is for, and neither the hand's heading nor a seat's clock is cut.

Screenshots: test-artifacts/e2e-first-*.png.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.axe import assert_accessible
from tests.e2e.conftest import PHONE
from tests.e2e.pages import (
    EVENTS,
    HAND,
    HAND_CARDS,
    TIMEOUT,
    mark_page,
    not_reloaded,
    open_table,
    sign_up,
    take_seat,
    unique_name,
    version,
    wait_for_version,
)
from tests.e2e.rig import rig
from tests.e2e.test_table_feel import BOTS_TIMEOUT, MY_TURN, RUN_TO_ONE, bot_game, play_card

pytestmark = pytest.mark.e2e

LAPTOPS = {"1366x768": {"width": 1366, "height": 768}, "1280x720": {"width": 1280, "height": 720}}

# What a player needs on their turn: the whole hand, the pile, whose turn it is, the buttons.
TURN_PARTS = (f"{HAND} .hand", ".board__piles", ".board__turn", f"{HAND} .controls")


def box_of(page: Page, selector: str) -> dict[str, float]:
    """The element's box once it is laid out: a push may be swapping it in at that moment."""
    element = page.locator(selector).first
    for _attempt in range(100):
        box = element.bounding_box()
        if box is not None:
            return box
        page.wait_for_timeout(50)
    raise AssertionError(f"{selector} has no box")


def box_in_view(page: Page, selector: str) -> dict[str, float]:
    """The element's box, asserted to lie whole within the window as it stands."""
    expect(page.locator(selector).first).to_be_visible()
    box = box_of(page, selector)  # a push may swap it in again right after it was seen
    size = page.viewport_size
    assert box["x"] >= 0 and box["y"] >= 0, f"{selector} starts outside the window: {box}"
    assert box["x"] + box["width"] <= size["width"], f"{selector} is cut on the right: {box}"
    assert box["y"] + box["height"] <= size["height"], (
        f"{selector} ends below the fold ({size['height']} px): {box}"
    )
    return box


def assert_turn_in_view(page: Page) -> None:
    """Nothing scrolled, and every part of the turn within the window."""
    assert page.evaluate("() => window.scrollY") == 0
    for selector in TURN_PARTS:
        box_in_view(page, selector)


# Where the first element a selector finds starts on the page, once it is in the page and laid
# out: a push may swap the hand in the instant it is measured, and an element swapped out has no
# box. Given up after about five seconds of frames (null: the assertion on it then fails).
LAID_OUT_TOP = """async selector => {
    for (let frame = 0; frame < 300; frame++) {
        const element = document.querySelector(selector);
        if (element && element.isConnected) {
            const box = element.getBoundingClientRect();
            if (box.height > 0) return box.top + window.scrollY;
        }
        await new Promise(resolve => requestAnimationFrame(resolve));
    }
    return null;
}"""


def page_top(page: Page, selector: str) -> float:
    """Where the element starts on the page, wherever the window is scrolled to."""
    return page.evaluate(LAID_OUT_TOP, selector)


def wait_for_my_turn(page: Page) -> None:
    expect(page.locator(MY_TURN).first).to_be_attached(timeout=BOTS_TIMEOUT)


def play_bots(page: Page, base: str, seats: int) -> None:
    """From the lobby, "Play against bots" at a table of ``seats`` (the lobby's button asks for
    three bots; the form takes one to nine)."""
    page.goto(base + "/")
    page.locator("input[name=opponents]").evaluate("(input, n) => { input.value = n; }", seats - 1)
    page.get_by_role("button", name="Play against bots").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    expect(page.locator("#table-seats li.seat")).to_have_count(seats, timeout=TIMEOUT)


def leave_the_game(page: Page, base: str) -> None:
    page.get_by_text("Leave the game", exact=True).click()
    page.get_by_role("button", name="Yes, leave the game").click()
    page.wait_for_url(base + "/")


# ------------------------------------------------------------------ a laptop


@pytest.mark.parametrize("size", LAPTOPS)
def test_on_a_laptop_the_first_turn_is_in_view_with_the_guest_message_and_for_2_to_10_seats(
    site_server, make_context, artifacts, size
) -> None:
    base = site_server.url
    page = make_context(LAPTOPS[size]).new_page()
    page.goto(base + "/")
    page.get_by_role("button", name="Try a game against bots").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    banner = page.locator(".messages li").filter(has_text="a guest")
    expect(banner).to_be_visible()
    wait_for_my_turn(page)
    page.screenshot(path=str(artifacts / f"e2e-first-{size}-guest.png"))
    assert_turn_in_view(page)
    expect(banner.get_by_role("link", name="Keep your account")).to_have_attribute(
        "href", "/accounts/claim/"
    )
    panel, send = page.locator(".chat").bounding_box(), page.locator(".chat__form button")
    send_box = send.bounding_box()
    assert send_box["x"] + send_box["width"] <= panel["x"] + panel["width"], "Send sticks out"
    assert_accessible(page, f"a guest's first table ({size})")

    for seats in (2, 10):
        leave_the_game(page, base)
        play_bots(page, base, seats)
        wait_for_my_turn(page)
        page.screenshot(path=str(artifacts / f"e2e-first-{size}-{seats}-seats.png"))
        assert_turn_in_view(page)


def test_leaving_opens_over_the_table_and_the_lobby_says_what_became_of_the_seat(
    site_server, make_context
) -> None:
    base = site_server.url
    page = sign_up(make_context(LAPTOPS["1366x768"]), base, unique_name("leaver"))
    play_bots(page, base, 4)
    expect(page.locator(HAND_CARDS)).to_have_count(8, timeout=TIMEOUT)
    seats_before = box_of(page, "#table-seats")
    page.get_by_text("Leave the game", exact=True).click()
    expect(page.get_by_role("button", name="Yes, leave the game")).to_be_visible()
    assert box_of(page, "#table-seats") == seats_before, "the table moved"
    page.get_by_role("button", name="Yes, leave the game").click()
    page.wait_for_url(base + "/")
    expect(page.locator(".messages")).to_contain_text("a bot plays your seat until it ends")


# ------------------------------------------------------------------ joined before the start


def test_a_player_seated_before_the_start_may_leave_and_turn_the_sound_on_once_it_starts(
    site_server, make_context
) -> None:
    base = site_server.url
    host = sign_up(make_context(LAPTOPS["1366x768"]), base, unique_name("host"))
    player = sign_up(make_context(PHONE, phone=True), base, unique_name("early"))
    table_id = open_table(host, base, unique_name("Early"))
    take_seat(player, base, table_id)
    mark_page(player)
    expect(player.get_by_text("Leave the game", exact=True)).to_be_hidden()
    expect(player.get_by_label("Sound on my turn")).to_be_hidden()

    with host.expect_navigation(timeout=TIMEOUT):
        host.get_by_role("button", name="Start the game").click()
    expect(player.locator(HAND_CARDS)).to_have_count(8, timeout=TIMEOUT)
    assert not_reloaded(player)
    expect(player.get_by_label("Sound on my turn")).to_be_visible()
    player.get_by_text("Leave the game", exact=True).click()
    expect(player.get_by_role("button", name="Yes, leave the game")).to_be_visible()
    assert_accessible(player, "the table of a player seated before the start, on a phone")


# ------------------------------------------------------------------ a phone


def test_on_a_phone_last_card_is_explained_and_the_hand_heading_is_whole(
    site_server, make_context, artifacts
) -> None:
    page = sign_up(make_context(PHONE, phone=True), site_server.url, unique_name("phone"))
    bot_game(site_server, page, RUN_TO_ONE, leading="red:9")
    head = page.locator(f"{HAND} .hand-panel__head h2")
    expect(page.locator(HAND_CARDS).first).to_be_visible()  # drawn and laid out, not mid-swap
    cards_top = page_top(page, HAND_CARDS)
    for code in ["red:taki", "red:1", "red:3", "red:4", "red:5", "red:6"]:
        play_card(page, code)
    expect(page.locator("#say-last-card")).to_be_attached()
    page.screenshot(path=str(artifacts / "e2e-first-phone-last-card.png"))
    hint = box_in_view(page, "#last-card-hint")
    assert hint["width"] > 100 and hint["height"] > 8, f"the hint is hidden: {hint}"
    expect(page.locator("#last-card-hint")).to_contain_text("press this first")
    heading = box_in_view(page, f"{HAND} .hand-panel__head h2")
    assert head.evaluate("h => h.scrollWidth <= h.clientWidth"), "the hand's heading is cut"
    assert heading["height"] > 0
    assert page_top(page, HAND_CARDS) == cards_top, "the hand moved"
    assert_accessible(page, "the last-card prompt on a phone")


def test_on_a_phone_a_seat_shows_its_whole_turn_clock(site_server, make_context, artifacts):
    base = site_server.url
    page = sign_up(make_context(PHONE, phone=True), base, unique_name("timed"))
    page.goto(base + "/")
    page.get_by_role("link", name="Open a table").click()
    form = page.locator("main form")
    form.locator("input[name=name]").fill(unique_name("Timed"))
    form.locator("select[name=seat_count]").select_option("2")
    form.locator("select[name=turn_seconds]").select_option("60")
    form.locator("select[name=bot_seats]").select_option("1")
    form.get_by_role("button", name="Open the table").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    with page.expect_navigation(timeout=TIMEOUT):
        page.get_by_role("button", name="Start the game").click()
    wait_for_my_turn(page)
    page.screenshot(path=str(artifacts / "e2e-first-phone-seat-clock.png"))
    seat = page.locator("#table-seats li.seat--turn").filter(has=page.locator(".seat__you"))
    seat_box = seat.bounding_box()
    for part in (seat.get_by_text("to play"), seat.locator(".clock")):
        box = part.bounding_box()
        assert box is not None
        assert box["y"] + box["height"] <= seat_box["y"] + seat_box["height"], (
            f"cut by its seat: {box} in {seat_box}"
        )
        assert box["x"] + box["width"] <= seat_box["x"] + seat_box["width"]
    expect(seat).to_contain_text("s left")


PHONES = {"390x844": PHONE, "360x740": {"width": 360, "height": 740}}
DRAW = f"{HAND} form:has(input[name=type][value=draw]) button"

# Hands that bring the player's turn into the states that take the most room, seat 0 the player
# and first to play; the bots (seats 1 to 3) hold nothing they can play on the pile at first,
# so the log fills with their moves. Four Change Color, each with its colours to choose from,
# and a hand that grows as the player draws.
TALL_HAND = [
    ["change-color", "change-color", "change-color", "change-color", "green:1", "green:3",
     "king", "super-taki"],
    ["red:1", "red:3", "red:4", "red:6", "red:7", "red:8", "red:9", "yellow:1"],
    ["yellow:3", "yellow:4", "yellow:6", "yellow:7", "yellow:8", "yellow:9", "blue:1", "blue:3"],
    ["blue:4", "blue:6", "blue:7", "blue:8", "blue:9", "red:1", "yellow:1", "blue:1"],
]  # fmt: skip
# Seat 3 can play nothing but its +3: the player answers it, with a Breaker in hand.
PLUS3_TO_ANSWER = [
    ["breaker", "green:1", "green:3", "green:4", "red:taki", "blue:taki", "yellow:5",
     "change-color"],
    TALL_HAND[1],
    TALL_HAND[2],
    ["plus3", "blue:4", "blue:6", "blue:7", "blue:8", "blue:9", "red:3", "yellow:3"],
]  # fmt: skip
# A red TAKI run the player plays down to two cards, a line of the log each: "Last card!" is
# offered.
RED_RUN = [
    ["red:taki", "red:1", "red:3", "red:4", "red:5", "red:6", "red:7", "blue:taki"],
    ["yellow:1", "yellow:3", "yellow:4", "yellow:6", "yellow:7", "yellow:8", "blue:1", "blue:3"],
    ["green:1", "green:3", "green:4", "green:6", "green:7", "green:8", "blue:4", "blue:6"],
    ["yellow:1", "yellow:3", "green:1", "green:3", "blue:7", "blue:8", "yellow:4", "green:4"],
]  # fmt: skip


def assert_turn_reachable(page: Page, artifacts, name: str) -> None:
    """On the player's turn, the page at its top: the hand's first row, right below its
    heading, the pile and every button of the turn ("Draw a card" among them when drawing is
    allowed) lie within the window.

    Playwright may scroll a page a few pixels to click a card when it tries the click again
    (the page with its chat below is taller than a phone's window): a player's tap does not.
    """
    wait_for_my_turn(page)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=str(artifacts / f"e2e-first-phone-{name}.png"))
    heading = box_in_view(page, f"{HAND} h2")
    first_row = box_in_view(page, HAND_CARDS)
    band = first_row["y"] - (heading["y"] + heading["height"])
    assert band < 16, f"{band:.0f} px between the hand's heading and its cards"
    box_in_view(page, ".board__piles")
    buttons = page.locator(f"{HAND} .controls button")
    assert buttons.count() >= 1, "no button on the player's turn"
    for index in range(buttons.count()):
        box_in_view(page, f"{HAND} .controls form:nth-child({index + 1}) button")


def guest_first_table(site, make_context, viewport, hands: list[list[str]], leading: str) -> Page:
    """A guest's first table, "Try a game against bots", dealt ``hands`` before its page is
    first drawn: the message that the visitor plays as a guest is over it, as on a newcomer's
    first screen (a message is shown once, so the page is not loaded again to deal)."""
    for _attempt in range(5):
        page = make_context(viewport, phone=True).new_page()
        page.goto(site.url + "/")
        token = page.locator("form[action='/accounts/guest/'] input[name=csrfmiddlewaretoken]")
        answer = page.request.post(
            site.url + "/accounts/guest/",
            form={"csrfmiddlewaretoken": token.input_value()},
            headers={"Referer": site.url + "/"},
            max_redirects=0,
        )
        table = re.fullmatch(r"/tables/(\d+)/", answer.headers.get("location", ""))
        assert answer.status == 302 and table, f"no table for the guest: {answer.status}"
        if rig(site, int(table.group(1)), hands, leading, first=0):
            page.goto(site.url + table.group(0))
            return page
        page.context.close()
    raise AssertionError("a bot always moved before the deal could be chosen")


def draw_and_wait_for_my_turn(page: Page) -> None:
    moves = version(page)
    page.locator(DRAW).click()
    wait_for_version(page, moves + 1)
    wait_for_my_turn(page)


@pytest.mark.parametrize("size", PHONES)
def test_on_a_phone_the_hand_the_pile_and_the_buttons_are_in_view_on_every_turn(
    site_server, make_context, artifacts, size
) -> None:
    base = site_server.url
    page = guest_first_table(site_server, make_context, PHONES[size], TALL_HAND, "green:5")
    expect(page.locator(".messages li").filter(has_text="a guest")).to_be_visible()
    assert_turn_reachable(page, artifacts, f"{size}-change-colors")
    for turn in range(4):
        draw_and_wait_for_my_turn(page)
        assert page.locator(EVENTS).count() >= 4
        assert_turn_reachable(page, artifacts, f"{size}-drawn-{turn + 1}")
    assert page.locator(HAND_CARDS).count() >= 12
    leave_the_game(page, base)

    bot_game(site_server, page, PLUS3_TO_ANSWER, leading="green:5")
    draw_and_wait_for_my_turn(page)
    expect(page.get_by_role("button", name="Break the +3")).to_be_visible()
    assert page.locator(EVENTS).count() >= 4
    assert_turn_reachable(page, artifacts, f"{size}-plus3")
    leave_the_game(page, base)

    bot_game(site_server, page, RED_RUN, leading="red:9")
    play_card(page, "red:taki")
    expect(page.get_by_role("button", name="Pass (leave the run open)")).to_be_visible()
    assert_turn_reachable(page, artifacts, f"{size}-taki-run")
    play_card(page, "red:1")
    expect(page.get_by_role("button", name="Close the TAKI run")).to_be_visible()
    assert_turn_reachable(page, artifacts, f"{size}-taki-run-to-close")
    for code in ["red:3", "red:4", "red:5", "red:6"]:
        play_card(page, code)
    expect(page.locator("#say-last-card")).to_be_attached()
    assert page.locator(EVENTS).count() >= 6
    assert_turn_reachable(page, artifacts, f"{size}-last-card")
    box_in_view(page, "#last-card-hint")
