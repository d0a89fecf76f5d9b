"""The play table in a real browser, at 1366×768 and on a 390×844 phone: a phone player
wins a 4-seat game without scrolling, a keyboard player wins one with Tab/Enter/Space alone,
"last card" said and forgotten (and the penalty, seen by the player and a spectator), leaving
with a confirmation, "Play again" accepted by both players, and axe-core on the way.

Games are dealt chosen hands (tests/e2e/rig.py) so that each reaches its state in a few
moves. Screenshots: test-artifacts/e2e-feel-*.png.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.axe import assert_accessible
from tests.e2e.conftest import LAPTOP, PHONE
from tests.e2e.pages import (
    HAND,
    HAND_CARDS,
    RESULT,
    TIMEOUT,
    open_table,
    sign_up,
    table_id_of,
    take_seat,
    unique_name,
    version,
    wait_for_version,
)
from tests.e2e.rig import rig

pytestmark = pytest.mark.e2e

BOTS_TIMEOUT = 30_000  # ms: three bots, each pausing ~0.8 s before a move
MY_TURN = f"{HAND}[data-your-turn] form[ws-send]"

NUMBERS = [f"{color}:{n}" for color in ("yellow", "blue") for n in (1, 3, 4, 5, 6, 7, 8, 9)]
# Seat 0 (the person): cards they can always play. Seat 1 holds a +3 for the others to answer.
WINNABLE = [
    ["king", "king", "change-color", "change-color", "change-color", "change-color",
     "super-taki", "red:1"],
    ["plus3", *NUMBERS[0:7]],
    NUMBERS[7:15],
    ["blue:9", "green:1", "green:3", "green:4", "green:6", "green:7", "green:8", "green:9"],
]  # fmt: skip
# Seat 0: a red TAKI run that takes their hand down to one card in their first turn.
RUN_TO_ONE = [
    ["red:taki", "red:1", "red:3", "red:4", "red:5", "red:6", "red:7", "blue:taki"],
    NUMBERS[0:8],
    NUMBERS[8:16],
    ["green:1", "green:3", "green:4", "green:6", "green:7", "green:8", "green:9", "blue:3"],
]

# Two players: seat 0 plays out a red TAKI run and wins in the first turn (R14, R21).
ALL_RED = [
    ["red:taki", "red:1", "red:3", "red:4", "red:5", "red:6", "red:7", "red:8"],
    NUMBERS[0:8],
]


def bot_game(site, page: Page, hands: list[list[str]], leading: str) -> int:
    """From the lobby, "Play against bots" with chosen hands, the person (seat 0) first; return
    the table's id. A bot that moved before the deal could be chosen is avoided by a new game."""
    for _attempt in range(5):
        page.goto(site.url + "/")
        page.get_by_role("button", name="Play against bots").click()
        page.wait_for_url(re.compile(r"/tables/\d+/$"))
        table_id = table_id_of(page)
        if rig(site, table_id, hands, leading, first=0):
            page.reload()
            expect(page.locator(MY_TURN).first).to_be_attached(timeout=TIMEOUT)
            return table_id
        page.locator(".leave-game summary").click()
        page.get_by_role("button", name="Yes, leave the game").click()
        page.wait_for_url(site.url + "/")
    raise AssertionError("a bot always moved before the deal could be chosen")


def in_view(page: Page, selector: str) -> bool:
    """The element's box lies within the window (as it stands, without scrolling)."""
    return page.evaluate(
        """sel => {
          const el = document.querySelector(sel);
          if (!el) return false;
          const r = el.getBoundingClientRect();
          return r.width > 0 && r.top >= 0 && r.left >= 0 &&
                 r.bottom <= window.innerHeight && r.right <= window.innerWidth;
        }""",
        selector,
    )


def assert_all_in_view(page: Page) -> None:
    """The phone promise: hand, pile top, whose turn and any alert in view, nothing scrolled."""
    assert page.evaluate("() => window.scrollY") == 0
    for selector in (
        f"{HAND} .hand",
        f"{HAND_CARDS}",
        ".board__piles .card--large",
        ".board__turn",
    ):
        assert in_view(page, selector), f"{selector} is not in view"
    alerts_in_view = page.evaluate(
        """() => [...document.querySelectorAll('.board .alert')].every(a => {
          const r = a.getBoundingClientRect();
          return r.top >= 0 && r.top < innerHeight - 20;
        })"""
    )
    assert alerts_in_view, "an alert is out of view"


def choose(page: Page) -> str:
    """What a player who wants to win presses now, as a CSS selector of the element: "Last card!"
    when the next play leaves one card, a legal card (numbers first, a Change Color naming
    red), else close the run, pass, accept or draw."""
    return page.evaluate(
        """() => {
          const hand = document.querySelector('#table-hand');
          const say = hand.querySelector('#say-last-card');
          if (say && !say.checked) return '#say-last-card';
          if (hand.querySelector('form:has(input[name=type][value=last_card])'))
            return '#table-hand form:has(input[name=type][value=last_card]) button';
          const legal = [...hand.querySelectorAll('li.hand__card--legal')];
          if (legal.length) {
            const li = legal[0];
            const code = li.dataset.card;
            const pick = li.querySelector('button[value=red]') ? 'button[value=red]' : 'button';
            const nth = [...hand.querySelectorAll('li[data-card]')].indexOf(li) + 1;
            return `#table-hand li[data-card]:nth-child(${nth}) ${pick}`;
          }
          for (const type of ['close_taki', 'pass', 'accept', 'draw']) {
            if (hand.querySelector(`form:has(input[name=type][value=${type}])`))
              return `#table-hand form:has(input[name=type][value=${type}]) button`;
          }
          return '';
        }"""
    )


def play_card(page: Page, code: str) -> None:
    """Click the card ``code`` of the hand and wait until the move is on the page."""
    moves = version(page)
    page.locator(f"{HAND} li[data-card='{code}'] button").click()
    wait_for_version(page, moves + 1)
    assert not page.locator("#flash").inner_text(), page.locator("#flash").inner_text()


def wait_for_my_turn_or_end(page: Page) -> bool:
    """True when it is the page's player's move and nothing else can change the table; False
    when the game is over.

    While a +3 waits for its answers, every seat still to answer may act at once (R18): the
    others' answers are waited for too, so that the page the player reads, measures and acts
    on stays as it is until their own move, which is then the game's next version.
    """
    page.wait_for_function(
        f"""() => {{
          if (document.querySelector('{RESULT}')) return true;
          if (!document.querySelector('{MY_TURN}')) return false;
          const hand = document.querySelector('{HAND}');
          const mine = document.querySelector(
            `#table-seats li.seat[data-seat="${{hand.dataset.mySeat}}"] .seat__name`);
          return [...document.querySelectorAll('.board .alert')]
            .map(alert => alert.textContent.split('Still to answer: ')[1])
            .every(waiting => waiting === undefined || waiting.trim() === mine.textContent.trim());
        }}""",
        timeout=BOTS_TIMEOUT,
        polling=50,
    )
    return page.locator(RESULT).count() == 0


def shot(page: Page, artifacts, name: str, seen: set[str]) -> None:
    """One screenshot of each state per test (the window as the player sees it)."""
    if name not in seen:
        seen.add(name)
        page.screenshot(path=str(artifacts / f"e2e-feel-{name}.png"))


# ------------------------------------------------------------------ the phone


def test_a_phone_player_wins_a_four_seat_game_without_scrolling(
    site_server, make_context, artifacts
) -> None:
    page = sign_up(make_context(PHONE, phone=True), site_server.url, unique_name("phone"))
    bot_game(site_server, page, WINNABLE, leading="green:5")
    seen: set[str] = set()
    turns = 0
    card_tops = set()
    while wait_for_my_turn_or_end(page):
        assert_all_in_view(page)
        # No layout jump: alerts, the log and "Last card!" never move the cards.
        # Read in one go: a push re-drawing the hand between finding a card and measuring it
        # would leave nothing to measure.
        card_tops.add(
            page.evaluate(
                f"() => document.querySelector('{HAND_CARDS}').getBoundingClientRect().top"
            )
        )
        assert len(card_tops) == 1, f"the hand moved: {sorted(card_tops)}" + str(
            page.evaluate(
                """() => ['.table-title', '#table-seats', '#table-board', '#table-events',
                   '#table-hand', '.hand-panel__head', '#flash'].map(s => {
                  const e = document.querySelector(s);
                  if (!e) return s + ' none';
                  const r = e.getBoundingClientRect();
                  return s + ' ' + r.top + ' ' + r.height; })"""
            )
        )
        shot(page, artifacts, "phone-your-turn", seen)
        if page.locator(".board .alert").filter(has_text="+3").count():
            shot(page, artifacts, "phone-plus3-pending", seen)
        if page.locator(".hand__card--choose").count():
            shot(page, artifacts, "phone-colour-choice", seen)
            assert page.locator(".color-choice button", has_text="Red").is_visible()
        if turns == 0:
            assert_accessible(page, "the table on a phone, playing")
        selector = choose(page)
        assert selector, "nothing to press on the player's turn"
        if selector == "#say-last-card":
            shot(page, artifacts, "phone-last-card-prompt", seen)
            page.locator("#say-last-card").tap()
            expect(page.locator("#say-last-card")).to_be_checked()
            continue
        before = version(page)
        page.locator(selector).first.tap()
        wait_for_version(page, before + 1)
        turns += 1
        assert turns < 60, "the game goes on too long"
    expect(page.locator(RESULT)).to_contain_text("You win!")
    assert page.evaluate("() => window.scrollY") == 0
    shot(page, artifacts, "phone-finished", seen)
    assert_accessible(page, "the finished table on a phone")


# ------------------------------------------------------------------ the keyboard


def test_a_keyboard_player_wins_with_tab_enter_and_space(
    site_server, make_context, artifacts
) -> None:
    page = sign_up(make_context(LAPTOP), site_server.url, unique_name("keys"))
    bot_game(site_server, page, WINNABLE, leading="green:5")
    seen: set[str] = set()
    # From the top of the page: the skip link first, then into the hand.
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    page.keyboard.press("Tab")
    expect(page.locator(".skip-link")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator(HAND)).to_be_focused()
    assert_accessible(page, "the table at 1366x768, playing")
    presses = 0
    while wait_for_my_turn_or_end(page):
        shot(page, artifacts, "desktop-your-turn", seen)
        if page.locator(".board .alert").filter(has_text="+3").count():
            shot(page, artifacts, "desktop-plus3-pending", seen)
        if page.locator(".hand__card--choose").count():
            shot(page, artifacts, "desktop-colour-choice", seen)
        # The focus is still in the hand after every push.
        assert page.evaluate(
            "() => document.querySelector('#table-hand').contains(document.activeElement)"
        ), page.evaluate("() => document.activeElement.outerHTML.slice(0, 200)")
        target = choose(page)
        assert target
        for _press in range(40):
            if page.evaluate(
                f"() => document.activeElement === document.querySelector({target!r})"
            ):
                break
            page.keyboard.press("Tab")
            presses += 1
        else:
            raise AssertionError(f"Tab never reached {target}")
        if target == "#say-last-card":
            shot(page, artifacts, "desktop-last-card-prompt", seen)
            page.keyboard.press("Space")
            expect(page.locator("#say-last-card")).to_be_checked()
            continue
        before = version(page)
        page.keyboard.press("Enter")
        wait_for_version(page, before + 1)
    expect(page.locator(RESULT)).to_contain_text("You win!")
    shot(page, artifacts, "desktop-finished", seen)
    assert_accessible(page, "the finished table at 1366x768")


# ------------------------------------------------------------------ last card


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_last_card_said_and_forgotten_with_a_spectator(
    site_server, make_context, artifacts, viewport
) -> None:
    size, phone = (PHONE, True) if viewport == "phone" else (LAPTOP, False)
    name = unique_name("ana")
    page = sign_up(make_context(size, phone=phone), site_server.url, name)

    # Said: the prompt is first in the hand; the others see "ana: last card!" and a badge.
    table_id = bot_game(site_server, page, RUN_TO_ONE, leading="red:9")
    invite = site_server.query("SELECT invite_token FROM games_table WHERE id = ?", (table_id,))
    watcher = make_context(size, phone=phone).new_page()
    watcher.goto(f"{site_server.url}/tables/{table_id}/?invite={invite[0][0]}")
    expect(watcher.locator(".badge--watching")).to_be_visible()
    for code in ["red:taki", "red:1", "red:3", "red:4", "red:5", "red:6"]:
        play_card(page, code)
    first = page.evaluate("() => document.querySelector('#table-hand :is(input, button)').id")
    assert first == "say-last-card", "the last-card prompt is not first in the hand"
    page.screenshot(path=str(artifacts / f"e2e-feel-{viewport}-last-card-prompt.png"))
    page.locator("#say-last-card").click()
    play_card(page, "red:7")
    page.get_by_role("button", name="Close the TAKI run").click()
    said = f"{name}: last card!"
    expect(watcher.locator("#table-events")).to_contain_text(said, timeout=TIMEOUT)
    expect(watcher.locator("#table-seats .seat[data-seat='0']")).to_contain_text("last card!")
    expect(page.locator("#table-events")).to_contain_text(said)
    watcher.screenshot(path=str(artifacts / f"e2e-feel-{viewport}-last-card-said.png"))
    assert page.locator(".penalty-toast").count() == 0

    # Forgotten: four cards, in an alert over the page for the player and the spectator.
    table_id = bot_game(site_server, page, RUN_TO_ONE, leading="red:9")
    invite = site_server.query("SELECT invite_token FROM games_table WHERE id = ?", (table_id,))
    watcher.goto(f"{site_server.url}/tables/{table_id}/?invite={invite[0][0]}")
    for code in ["red:taki", "red:1", "red:3", "red:4", "red:5", "red:6", "red:7"]:
        play_card(page, code)
    page.get_by_role("button", name="Close the TAKI run").click()
    mine = page.locator(".penalty-toast--mine")
    expect(mine).to_have_text("You did not say “last card”: you draw 4 cards!", timeout=TIMEOUT)
    expect(mine).to_be_in_viewport()
    expect(page.locator(HAND_CARDS)).to_have_count(5)
    public = watcher.locator("#table-board .penalty-toast")
    expect(public).to_have_text(f"{name} did not say “last card” and draws 4 cards!")
    expect(public).to_be_in_viewport()
    page.screenshot(path=str(artifacts / f"e2e-feel-{viewport}-penalty.png"))
    watcher.screenshot(path=str(artifacts / f"e2e-feel-{viewport}-penalty-spectator.png"))
    assert_accessible(page, f"the penalty ({viewport})")


# ------------------------------------------------------------------ leaving and rematch


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_leaving_asks_first_and_a_table_left_by_everyone_is_abandoned(
    site_server, make_context, artifacts, viewport
) -> None:
    size, phone = (PHONE, True) if viewport == "phone" else (LAPTOP, False)
    page = sign_up(make_context(size, phone=phone), site_server.url, unique_name("leaver"))
    page.get_by_role("button", name="Play against bots").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    table_id = table_id_of(page)
    expect(page.locator(HAND_CARDS)).to_have_count(8, timeout=TIMEOUT)

    page.locator(".leave-game summary").click()
    confirm = page.get_by_role("button", name="Yes, leave the game")
    expect(confirm).to_be_visible()
    expect(page.locator(".leave-game__confirm")).to_contain_text("A bot plays your seat")
    page.screenshot(path=str(artifacts / f"e2e-feel-{viewport}-leave-confirmation.png"))
    confirm.click()
    page.wait_for_url(site_server.url + "/")

    status = site_server.query("SELECT status FROM games_table WHERE id = ?", (table_id,))
    assert status == [("abandoned",)]
    bot = site_server.query(
        "SELECT bot FROM games_seat WHERE table_id = ? AND position = 0", (table_id,)
    )
    assert bot == [("greedy",)]  # a bot took the seat, as on a timeout
    page.goto(f"{site_server.url}/tables/{table_id}/")
    expect(page.locator("#table-result")).to_contain_text("This game was abandoned")
    page.screenshot(path=str(artifacts / f"e2e-feel-{viewport}-abandoned.png"))


def test_both_players_accept_to_play_again(site_server, make_context, artifacts) -> None:
    base = site_server.url
    ana, ben = unique_name("ana"), unique_name("ben")
    host = sign_up(make_context(LAPTOP), base, ana)
    guest = sign_up(make_context(PHONE, phone=True), base, ben)
    table_id = open_table(host, base, f"Rematch {ana}")
    take_seat(guest, base, table_id)
    with host.expect_navigation(timeout=TIMEOUT):
        host.get_by_role("button", name="Start the game").click()
    assert rig(site_server, table_id, ALL_RED, leading="red:9", first=0)
    host.reload()
    guest.reload()
    # ana empties her hand in one TAKI run (saying "last card" on the way): R21, she wins.
    for code in ["red:taki", "red:1", "red:3", "red:4", "red:5", "red:6", "red:7", "red:8"]:
        if code == "red:7":
            host.locator("#say-last-card").click()
        play_card(host, code)
    expect(host.locator(RESULT)).to_contain_text("You win!", timeout=TIMEOUT)
    expect(guest.locator(RESULT)).to_contain_text(f"{ana} wins!", timeout=TIMEOUT)

    with host.expect_navigation(timeout=TIMEOUT):
        host.get_by_role("button", name="Play again").click()
    expect(host.locator(".invitations")).to_contain_text(f"{ben}: Invited")
    offer = guest.locator(".rematch-offer")
    expect(offer).to_have_text(f"{ana} wants to play again with the same players.")
    guest.screenshot(path=str(artifacts / "e2e-feel-phone-rematch-offer.png"))
    assert_accessible(guest, "the finished table with a rematch offer, on a phone")
    with guest.expect_navigation(timeout=TIMEOUT):
        guest.get_by_role("button", name="Accept: play again").click()
    expect(host.locator(".invitations")).to_contain_text(f"{ben}: Accepted", timeout=TIMEOUT)
    host.screenshot(path=str(artifacts / "e2e-feel-desktop-rematch-waiting.png"))
    with host.expect_navigation(timeout=TIMEOUT):
        host.get_by_role("button", name="Start the game").click()
    for page in (host, guest):
        expect(page.locator(HAND_CARDS)).to_have_count(8, timeout=TIMEOUT)
    assert table_id_of(host) == table_id_of(guest) != table_id
