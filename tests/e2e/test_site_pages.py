"""The site's pages in the browser: a guest's bot game kept by claiming the account, the
replay stepped with the keyboard, and axe-core on every page at a laptop's and a phone's size
(the profile with a rating chart, the leaderboards with a player on them).

Screenshots: test-artifacts/e2e-guest-*.png and test-artifacts/pages/<page>-<size>.png; the
table page's axe findings: test-artifacts/pages/axe-table.json.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from tests.e2e.axe import axe_violations
from tests.e2e.finish_game import finish_on_site as finish_game
from tests.e2e.pages import (
    CONTROLS,
    HAND_CARDS,
    PASSWORD,
    RESULT,
    TIMEOUT,
    screenshot,
    sign_up,
    table_id_of,
    take_turn,
    unique_name,
)
from tests.e2e.rated_games import play_rated_duels

pytestmark = pytest.mark.e2e

SIZES = {"laptop": (1366, 768), "phone": (390, 844)}
BOTS_TIMEOUT = 30_000


def test_a_guest_plays_bots_then_keeps_the_account_and_the_game(
    site_server, new_context, artifacts
) -> None:
    base = site_server.url
    page = new_context().new_page()
    page.goto(base + "/")

    page.get_by_role("button", name="Try a game against bots").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    expect(page.locator(HAND_CARDS)).to_have_count(8, timeout=TIMEOUT)
    guest = page.locator("header .account-menu__button").inner_text()
    assert re.fullmatch(r"Guest-\d+", guest)
    expect(page.get_by_text(f"You are playing as {guest}, a guest.")).to_be_visible()
    # The guest's own move, clicked on the page (unless the bots win first).
    expect(page.locator(f"{CONTROLS}, {RESULT}").first).to_be_visible(timeout=BOTS_TIMEOUT)
    if page.locator(CONTROLS).count():
        take_turn(page)
    screenshot(page, artifacts, "guest-playing")
    table_id = table_id_of(page)
    game_id = finish_game(site_server, table_id)

    page.reload()
    expect(page.locator(RESULT)).to_be_visible(timeout=TIMEOUT)
    page.goto(base + "/games/mine/")
    expect(page.locator(f'tr[data-game="{game_id}"]')).to_have_count(1)
    # A guest plays bots only: opening a table asks them to keep the account first.
    page.goto(base + "/tables/new/")
    page.wait_for_url(base + "/accounts/claim/")

    username = unique_name("kept")
    form = page.locator(".account-form form")
    form.get_by_label("Username").fill(username)
    form.locator("input[name=password1]").fill(PASSWORD)
    form.locator("input[name=password2]").fill(PASSWORD)
    form.get_by_role("button", name="Keep my account").click()
    page.wait_for_url(f"{base}/players/{username}/")
    expect(page.get_by_text(f"Welcome, {username}!")).to_be_visible()
    expect(page.locator("header")).to_contain_text(f"Log out ({username})")
    screenshot(page, artifacts, "guest-claimed-profile")
    page.goto(base + "/games/mine/")
    expect(page.locator(f'tr[data-game="{game_id}"]')).to_have_count(1)
    screenshot(page, artifacts, "guest-my-games")


def open_bot_table(page, base: str, name: str, *, start: bool) -> int:
    """Open a public three-seat table with two bots through the form (and start it)."""
    page.goto(base + "/tables/new/")
    form = page.locator("main form")
    form.locator("input[name=name]").fill(name)
    form.locator("select[name=seat_count]").select_option("3")
    form.locator("select[name=bot_seats]").select_option("2")
    form.get_by_label("Public: listed in the lobby").check()
    form.get_by_role("button", name="Open the table").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    if start:
        with page.expect_navigation(timeout=TIMEOUT):
            page.get_by_role("button", name="Start the game").click()
        expect(page.locator(HAND_CARDS)).to_have_count(8, timeout=TIMEOUT)
    return table_id_of(page)


@pytest.fixture(scope="module")
def site_pages(site_server, browser) -> dict:
    """A player with a finished bot game, a finished public game and eight rated duels (a duel
    rating past provisional, so on the leaderboard, with a chart on the profile), a public game
    being played and an open table: what every page of the site needs to show something."""
    base = site_server.url
    context = browser.new_context()
    username = unique_name("axe")
    page = sign_up(context, base, username)
    page.get_by_role("button", name="Play against bots").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    finished = finish_game(site_server, table_id_of(page))
    finish_game(site_server, open_bot_table(page, base, "Done in public", start=True))
    play_rated_duels(site_server, username, unique_name("rival"), 8)
    live = open_bot_table(page, base, "Watch me", start=True)
    open_bot_table(page, base, "Waiting for you", start=False)
    state = context.storage_state()
    context.close()
    return {"username": username, "finished": finished, "live": live, "state": state}


PAGES = {
    "home": ("/", False),
    "sign-up": ("/accounts/signup/", False),
    "log-in": ("/accounts/login/", False),
    "rules": ("/rules/", False),
    "watch": ("/games/live/", False),
    "finished-games": ("/games/", False),
    "not-found": ("/no-such-page/", False),
    "lobby": ("/", True),
    "profile": ("/players/{username}/", True),
    "leaderboards": ("/leaderboards/", False),
    "my-games": ("/games/mine/", True),
    "finished-game": ("/games/{finished}/", True),
    "replay": ("/games/{finished}/?move=3", True),
    "password-change": ("/accounts/password/", True),
    "create-table": ("/tables/new/", True),
    "table": ("/tables/{live}/", True),
}

# Pages whose data must be on them for axe to look at it: a rating chart, a leaderboard's rows.
SHOWING = {
    "profile": "svg.rating-chart",
    "leaderboards": "[data-board='duel'] tbody tr",
}


@pytest.mark.parametrize("size", SIZES)
def test_axe_finds_no_serious_violation_on_any_page(
    site_server, browser, site_pages, artifacts, console, size
) -> None:
    # The missing page's own 404, and nothing else.
    console.expect(r"/no-such-page/: Failed to load resource: .* 404")
    width, height = SIZES[size]
    folder = artifacts / "pages"
    folder.mkdir(exist_ok=True)
    found: dict[str, list] = {}
    contexts = {
        logged_in: browser.new_context(
            viewport={"width": width, "height": height},
            storage_state=site_pages["state"] if logged_in else None,
        )
        for logged_in in (False, True)
    }
    try:
        for name, (path, logged_in) in PAGES.items():
            page = contexts[logged_in].new_page()
            page.goto(site_server.url + path.format(**site_pages))
            page.wait_for_load_state("networkidle")
            if name in SHOWING:
                assert page.locator(SHOWING[name]).count() >= 1, f"{name} shows no ratings"
            found[name] = axe_violations(page)
            page.screenshot(path=str(folder / f"{name}-{size}.png"), full_page=True)
            page.close()
    finally:
        for context in contexts.values():
            context.close()
    # The live table's templates are another piece of work's: its findings are recorded here.
    (folder / f"axe-table-{size}.json").write_text(json.dumps(found.pop("table"), indent=2))
    assert {name: violations for name, violations in found.items() if violations} == {}


def test_the_replay_steps_with_the_keyboard_without_loading_the_page(
    site_server, browser, site_pages, artifacts
) -> None:
    context = browser.new_context(storage_state=site_pages["state"])
    page = context.new_page()
    page.goto(f"{site_server.url}/games/{site_pages['finished']}/?move=0")
    page.evaluate("() => { window.notReloaded = true; }")
    step = page.locator("#replay .stepper [aria-live]")
    expect(step).to_contain_text("After move 0 of")

    page.keyboard.press("ArrowRight")
    expect(step).to_contain_text("After move 1 of")
    page.keyboard.press("ArrowRight")
    expect(step).to_contain_text("After move 2 of")
    page.keyboard.press("ArrowLeft")
    expect(step).to_contain_text("After move 1 of")
    page.keyboard.press("End")
    total = re.search(r"of (\d+)", step.inner_text()).group(1)
    expect(step).to_contain_text(f"After move {total} of {total}")
    page.keyboard.press("Home")
    expect(step).to_contain_text("After move 0 of")
    # htmx has taken over the new fragment's form (else Enter would load the page, as without
    # JavaScript).
    page.wait_for_function(
        "() => { const f = document.querySelector('#replay form');"
        " return Boolean(f && f['htmx-internal-data'] && f['htmx-internal-data'].initHash); }"
    )
    page.locator("#replay-move").fill("5")
    page.locator("#replay-move").press("Enter")
    expect(step).to_contain_text("After move 5 of")
    assert page.evaluate("() => window.notReloaded") is True
    assert page.url.endswith("?move=5")
    screenshot(page, artifacts, "replay-step-5")

    # Choosing a language in the header changes it at once (js/language.js): no button press.
    expect(page.locator(".language-form__button")).to_have_class(re.compile("visually-hidden"))
    with page.expect_navigation(timeout=TIMEOUT):
        page.locator("#site-language").select_option("es")
    expect(page.locator("#replay h2")).to_have_text("Repetición")
    context.close()


STEPS = 15  # past the ten pages htmx keeps in its history


def test_back_through_the_replay_s_steps_shows_the_whole_page_every_time(
    site_server, browser, site_pages, artifacts
) -> None:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, storage_state=site_pages["state"]
    )
    page = context.new_page()
    page.goto(f"{site_server.url}/games/{site_pages['finished']}/?move=0")
    page.evaluate("() => { window.notReloaded = true; }")
    step = page.locator("#replay .stepper [aria-live]")
    total = int(re.search(r"of (\d+)", step.inner_text()).group(1))
    assert total > STEPS
    for number in range(1, STEPS + 1):
        page.locator('#replay [data-step="next"]').click()
        expect(step).to_contain_text(f"After move {number} of")

    # Back puts the page's main part back, from htmx's history or from the server: the header,
    # and the live socket it opened, stay as they are. Two quick presses first: a socket torn
    # down while it is still opening would show an error in the console.
    page.evaluate("() => { window.header = document.querySelector('header.site-header'); }")
    sockets = []
    page.on("websocket", lambda socket: sockets.append(socket.url))
    page.evaluate("() => { history.back(); history.back(); }")
    expect(page).to_have_url(re.compile(rf"\?move={STEPS - 2}$"))
    expect(step).to_contain_text(f"After move {STEPS - 2} of {total}")
    for number in (STEPS - 1, STEPS):
        page.go_forward()
        expect(page).to_have_url(re.compile(rf"\?move={number}$"))
        expect(step).to_contain_text(f"After move {number} of {total}")

    for number in range(STEPS - 1, -1, -1):
        page.go_back()
        expect(page).to_have_url(re.compile(rf"\?move={number}$"))
        expect(step).to_contain_text(f"After move {number} of {total}")
        expect(page.locator("header.site-header")).to_have_count(1)
        expect(page.locator("main.site-main h1")).to_be_visible()
        expect(page.get_by_role("heading", name="Players' chat")).to_be_visible()
        expect(page.locator("main.site-main ol.moves li")).to_have_count(total)
        assert page.locator("#replay").count() == 1
    assert page.evaluate("() => window.notReloaded") is True
    same_header = "() => document.querySelector('header.site-header') === window.header"
    assert page.evaluate(same_header), "Back replaced the header"
    assert sockets == [], f"Back opened sockets again: {sockets}"
    screenshot(page, artifacts, "replay-back-to-0")

    # The page's scripts work as before: a key steps once (one request), the header's menu
    # opens, choosing a language changes it.
    asked = []
    page.on("request", lambda request: asked.append(request.url))
    page.keyboard.press("ArrowRight")
    expect(step).to_contain_text(f"After move 1 of {total}")
    page.wait_for_load_state("networkidle")
    assert [url for url in asked if "move=" in url] == [page.url]
    menu = page.locator("header .menu-button")
    expect(menu).to_be_visible()
    menu.click()
    expect(menu).to_have_attribute("aria-expanded", "true")
    expect(page.locator("#site-nav").get_by_role("link", name="Leaderboards")).to_be_visible()
    with page.expect_navigation(timeout=TIMEOUT):
        page.locator("#site-language").select_option("es")
    expect(page.locator("#replay h2")).to_have_text("Repetición")
    context.close()
