"""Driving the site's pages in the browser tests: sign up, open and join tables, read the table
page and take one turn by clicking what the page offers.

Every wait here is a Playwright wait for something on the page, never a fixed sleep.
"""

from __future__ import annotations

import json
import re
import secrets
from collections import Counter
from pathlib import Path
from typing import Any

from playwright.sync_api import BrowserContext, Locator, Page, expect

PASSWORD = "taki-e2e-Passw0rd!"
# Generous: CI machines can be slow, and a bot waits ~0.8 s before each move.
TIMEOUT = 15_000  # ms

# The table page's live parts (games/jinja2/games/live/table_state.html).
HAND = "#table-hand"
HAND_CARDS = "#table-hand [data-card]"
CONTROLS = "#table-hand form[ws-send]"
RESULT = "#table-result .result"
EVENTS = "#table-events ol.events li"
FLASH = "#flash"

# The number of moves a page shows: the events list is numbered by move, newest first, so its
# first item's value is the game's version (moves applied). No list yet: no move yet.
VERSION_JS = """() => {
  const li = document.querySelector("#table-events ol.events li");
  return li ? Number(li.getAttribute("value")) : 0;
}"""


def unique_name(prefix: str) -> str:
    """A fresh username (3–20 letters, digits, "_" or "-"): the shared site keeps its users."""
    return f"{prefix}_{secrets.token_hex(4)}"[:20]


def sign_up(context: BrowserContext, base: str, username: str) -> Page:
    """Sign up through the sign-up page; return the page, now on the lobby, signed in."""
    page = context.new_page()
    page.goto(base + "/")
    open_menu(page)
    page.locator("header").get_by_role("link", name="Sign up").click()
    fill_sign_up_form(page, base, username)
    expect(page.locator("header")).to_contain_text(f"Log out ({username})")
    return page


def open_menu(page: Page) -> None:
    """On a phone the header's links are behind its menu button: open it (on a wider screen
    the button is hidden and the links are there)."""
    button = page.locator("header .menu-button")
    if button.is_visible():
        button.click()
        expect(button).to_have_attribute("aria-expanded", "true")


def fill_sign_up_form(page: Page, base: str, username: str) -> None:
    """On the sign-up page: fill in the form, send it, and land on the lobby."""
    form = page.locator(".account-form form")
    form.get_by_label("Username").fill(username)
    form.locator("input[name=password1]").fill(PASSWORD)
    form.locator("input[name=password2]").fill(PASSWORD)
    form.get_by_role("button", name="Sign up").click()
    page.wait_for_url(base + "/")


def mark_page(page: Page) -> None:
    """Leave a mark in the page's window: it is gone if the page ever reloads."""
    page.evaluate("() => { window.__e2eNoReload = true; }")


def not_reloaded(page: Page) -> bool:
    return page.evaluate("() => window.__e2eNoReload === true")


def version(page: Page) -> int:
    return page.evaluate(VERSION_JS)


def wait_for_version(page: Page, at_least: int, timeout: float = TIMEOUT) -> None:
    page.wait_for_function(f"n => ({VERSION_JS})() >= n", arg=at_least, timeout=timeout, polling=50)


def hand(page: Page) -> list[str]:
    """The card codes of the hand the page shows."""
    return page.locator(HAND_CARDS).evaluate_all("els => els.map(e => e.dataset.card)")


def own_seat(page: Page) -> Locator:
    """The seat the page marks as the visitor's own: the seats are drawn alike for everyone,
    and only the visitor's seat shows its "you" badge."""
    return page.locator("#table-seats li.seat").filter(has=page.locator(".seat__you:visible"))


def my_seat(page: Page) -> int | None:
    seat = own_seat(page)
    if seat.count() == 0:
        return None
    return int(seat.get_attribute("data-seat"))


def seat_hand_sizes(page: Page) -> list[int]:
    """Each seat's hand size as the seat list shows it ("7 cards")."""
    texts = page.locator("#table-seats li.seat").all_inner_texts()
    sizes = []
    for text in texts:
        match = re.search(r"(\d+) cards?\b", text)
        assert match, f"no hand size in the seat {text!r}"
        sizes.append(int(match.group(1)))
    return sizes


def has_controls(page: Page) -> bool:
    return page.locator(CONTROLS).count() > 0


def game_state(site: Any, table_id: int) -> tuple[int, dict[str, Any]]:
    """The game's version and snapshot (every hand) as stored in the site's database."""
    rows = site.query("SELECT version, state FROM games_game WHERE table_id = ?", (table_id,))
    assert rows, f"table {table_id} has no game"
    stored_version, state = rows[0]
    return stored_version, json.loads(state)


def move_count(site: Any, table_id: int) -> int:
    rows = site.query(
        "SELECT COUNT(*) FROM games_move JOIN games_game ON games_move.game_id = games_game.id"
        " WHERE games_game.table_id = ?",
        (table_id,),
    )
    return rows[0][0]


def table_id_of(page: Page) -> int:
    match = re.search(r"/tables/(\d+)/", page.url)
    assert match, f"not a table page: {page.url}"
    return int(match.group(1))


def screenshot(page: Page, folder: Path, name: str) -> Path:
    path = folder / f"e2e-{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


# ------------------------------------------------------------------ taking a turn


def _button_of(page: Page, action: str) -> Locator:
    """The button of the ws-send form that sends ``type=<action>`` (draw, pass, accept…)."""
    form = page.locator(f"{HAND} form:has(input[name=type][value={action}])")
    return form.locator("button")


def _best_color(cards: list[str]) -> str:
    """The colour most of the other cards in hand have (so a Change Color helps finish)."""
    colors = Counter(code.split(":")[0] for code in cards if ":" in code)
    return colors.most_common(1)[0][0] if colors else "red"


def choose_control(page: Page) -> tuple[str, Locator]:
    """The control ``take_turn`` clicks, and what it does: say "last card" if offered, else play
    a legal card (naming the colour most of the hand has for a Change Color; ticking "last
    card" when the play leaves one), else close the TAKI run, pass, accept a +3 or draw.

    The page must be showing controls (``has_controls``).
    """
    announce = _button_of(page, "last_card")
    if announce.count():
        return "last_card", announce
    say = page.locator("#say-last-card")
    if say.count():
        say.check()
    legal = page.locator(f"{HAND} li.hand__card--legal")
    if legal.count():
        # Prefer a coloured card, so a game between two clicking players moves along.
        codes = legal.evaluate_all("els => els.map(e => e.dataset.card)")
        index = next((i for i, code in enumerate(codes) if ":" in code), 0)
        card, code = legal.nth(index), codes[index]
        if card.locator(".color-choice").count():
            color = _best_color([c for c in hand(page) if c != code])
            return f"play {code} naming {color}", card.locator(f"button[value={color}]")
        return f"play {code}", card.locator("button.card-button")
    for action in ("close_taki", "pass", "accept", "draw"):
        button = _button_of(page, action)
        if button.count():
            return action, button
    breaker = page.locator(f"{HAND} .controls form:has(input[name=card][value=breaker]) button")
    if breaker.count():
        return "play breaker", breaker
    raise AssertionError("the page shows controls but none this test knows: " + page.content())


def take_turn(page: Page) -> str:
    """Click one thing the page offers its player (see ``choose_control``); return what."""
    what, button = choose_control(page)
    button.click()
    return what


# ------------------------------------------------------------------ tables


def open_table(host: Page, base: str, name: str, seats: int = 2) -> int:
    """Open a public, standard table without bots or time limit through the form; return its
    id. The host's page is left on the table."""
    host.goto(base + "/")
    host.get_by_role("link", name="Open a table").click()
    form = host.locator("main form")
    form.locator("input[name=name]").fill(name)
    form.locator("select[name=seat_count]").select_option(str(seats))
    form.get_by_label("Standard: first to empty their hand wins").check()
    form.locator("select[name=turn_seconds]").select_option(label="No limit")
    form.locator("select[name=bot_seats]").select_option("0")
    form.get_by_label("Public: listed in the lobby").check()
    form.get_by_role("button", name="Open the table").click()
    host.wait_for_url(re.compile(r"/tables/\d+/$"))
    return table_id_of(host)


def take_seat(page: Page, base: str, table_id: int) -> None:
    page.goto(f"{base}/tables/{table_id}/")
    # The button posts with htmx; the answer sends the browser to the table page again.
    with page.expect_navigation(timeout=TIMEOUT):
        page.get_by_role("button", name="Take a seat").click()
    expect(page.get_by_text("The host starts the game.")).to_be_visible(timeout=TIMEOUT)


def start_game(host: Page, *others: Page) -> None:
    """The host presses start (offered once the others sat down); every page shows a hand."""
    # Posted with htmx, which then loads the table page again: wait for that load, or the
    # host's page could be read (from a push) just before it goes away.
    with host.expect_navigation(timeout=TIMEOUT):
        host.get_by_role("button", name="Start the game").click(timeout=TIMEOUT)
    for page in (host, *others):
        expect(page.locator(HAND_CARDS)).to_have_count(8, timeout=TIMEOUT)  # R4: eight each


def play_until_turn_of(target: Page, players: list[Page], limit: int = 50) -> None:
    """Let the other players take turns until ``target`` shows controls (everyone at the same
    version each time)."""
    for _step in range(limit):
        if has_controls(target):
            return
        assert not any(page.locator(RESULT).count() for page in players), "the game ended"
        actor = next(page for page in players if has_controls(page))
        moves = version(actor)
        take_turn(actor)
        for page in players:
            wait_for_version(page, moves + 1)
    raise AssertionError(f"no turn for the target page after {limit} moves")
