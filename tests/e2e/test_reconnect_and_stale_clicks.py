"""A dropped socket reconnects by itself and the page comes back exactly as it was; a stale or
doubled click (two tabs, a slow network) is refused politely and never applied twice.
"""

import json
import sqlite3
from datetime import UTC, datetime

import pytest
from playwright.sync_api import expect

from tests.e2e.pages import (
    CONTROLS,
    FLASH,
    HAND,
    TIMEOUT,
    choose_control,
    hand,
    has_controls,
    mark_page,
    move_count,
    not_reloaded,
    open_table,
    play_until_turn_of,
    sign_up,
    start_game,
    take_seat,
    take_turn,
    unique_name,
    version,
    wait_for_version,
)

pytestmark = pytest.mark.e2e

# Websocket close codes (RFC 6455).
SERVICE_RESTART = 1012
CONNECTION_DROPPED = 1006

STALE = "That move was made against an old position — the table has been refreshed."

# Every text the page's #flash shows, in order, even one replaced a moment later.
RECORD_FLASHES = """() => {
  window.__e2eFlashes = [];
  const record = () => {
    const flash = document.querySelector("#flash");
    const text = flash ? flash.textContent.trim() : "";
    const seen = window.__e2eFlashes;
    if (text && seen[seen.length - 1] !== text) seen.push(text);
  };
  new MutationObserver(record).observe(document.body,
    {childList: true, subtree: true, characterData: true});
}"""

# What the table's socket does: opens, and closes with which code.
RECORD_SOCKET = """() => {
  window.__e2eSocket = {opened: 0, closed: []};
  document.body.addEventListener("htmx:wsOpen", () => { window.__e2eSocket.opened += 1; });
  document.body.addEventListener("htmx:wsClose",
    (event) => { window.__e2eSocket.closed.push(event.detail.event.code); });
}"""


def moves_of(site, table_id: int) -> list[tuple[int, dict]]:
    rows = site.query(
        "SELECT seq, action FROM games_move JOIN games_game ON games_move.game_id = games_game.id"
        " WHERE games_game.table_id = ? ORDER BY seq",
        (table_id,),
    )
    return [(seq, json.loads(action)) for seq, action in rows]


def two_player_game(site, new_context, second_tab: bool = False):
    """alice and bob, each signed up in their own browser, at a started two-seat table; with
    ``second_tab`` alice has the table open in a second tab too. Returns (table id, alice's
    page, bob's page, alice's second page or None)."""
    alice_context, bob_context = new_context(), new_context()
    alice = sign_up(alice_context, site.url, unique_name("alice"))
    bob = sign_up(bob_context, site.url, unique_name("bob"))
    table_id = open_table(alice, site.url, f"Two tabs {unique_name('t')}")
    take_seat(bob, site.url, table_id)
    alice_again = None
    if second_tab:
        alice_again = alice_context.new_page()
        alice_again.goto(f"{site.url}/tables/{table_id}/")
        start_game(alice, bob, alice_again)
    else:
        start_game(alice, bob)
    return table_id, alice, bob, alice_again


def test_a_stale_click_from_a_second_tab_and_a_doubled_click_are_refused_and_applied_once(
    site_server, new_context
) -> None:
    table_id, tab, bob, other_tab = two_player_game(site_server, new_context, second_tab=True)
    pages = [tab, other_tab, bob]

    # alice's move, shown in both her tabs with the same controls.
    play_until_turn_of(tab, pages)
    moves = version(tab)
    expect(other_tab.locator(CONTROLS).first).to_be_visible()
    assert hand(other_tab) == hand(tab)
    stale_controls = other_tab.locator(HAND).evaluate("e => e.outerHTML")

    what = take_turn(tab)
    for page in pages:
        wait_for_version(page, moves + 1)
    # The other tab refreshed itself. Put its old controls back, as a tab that missed the
    # update (a slow network) would still show them, and click the same thing there.
    other_tab.evaluate(
        """html => {
          document.querySelector("#table-hand").outerHTML = html;
          htmx.process(document.querySelector("#table-hand"));
        }""",
        stale_controls,
    )
    assert take_turn(other_tab) == what

    expect(other_tab.locator(FLASH)).to_have_text(STALE, timeout=TIMEOUT)
    assert hand(other_tab) == hand(tab), "the refusal did not bring the table as it stands"
    logged = moves_of(site_server, table_id)
    assert len(logged) == moves + 1, f"{what!r} was applied twice: {logged[-2:]}"
    for page in pages:
        assert version(page) == moves + 1

    # A doubled click: two sends of one control before any answer can arrive.
    play_until_turn_of(tab, pages)
    moves = version(tab)
    tab.evaluate(RECORD_FLASHES)
    what, button = choose_control(tab)
    button.evaluate("b => { b.click(); b.click(); }")
    tab.wait_for_function("text => window.__e2eFlashes.includes(text)", arg=STALE, timeout=TIMEOUT)
    for page in pages:
        wait_for_version(page, moves + 1)
    assert move_count(site_server, table_id) == moves + 1, f"{what!r} was applied twice"
    for page in pages:
        assert version(page) == moves + 1


@pytest.mark.parametrize("graceful", [True, False], ids=["sigterm", "killed"])
def test_a_dropped_socket_reconnects_and_the_page_comes_back_as_it_was(
    restartable_site, new_context, console, graceful: bool
) -> None:
    # While the server is down the browser says each try of a socket failed: the table's, and
    # the site's of every signed-in page.
    console.expect(r"WebSocket connection to '\S+/ws/(tables/\d+|site)/' failed")
    console.expect(r": \[object Event\]$")  # htmx's report of that socket's error
    site = restartable_site
    table_id, alice, bob, _ = two_player_game(site, new_context)
    pages = [alice, bob]
    for page in pages:
        mark_page(page)
        page.evaluate(RECORD_SOCKET)
        # Gone once the server pushes the table again.
        page.evaluate("""() => { document.querySelector("#table-hand").dataset.e2eOld = "1"; }""")
    hands = [hand(page) for page in pages]
    moves = version(alice)
    actor_before = [has_controls(page) for page in pages]

    site.restart(graceful=graceful)

    for page in pages:
        # The htmx ws extension waits up to 1 s, then up to 2 s… between attempts.
        page.wait_for_function("() => window.__e2eSocket.opened >= 1", timeout=30_000, polling=100)
        page.wait_for_function(
            """() => !document.querySelector("#table-hand[data-e2e-old]")""", timeout=TIMEOUT
        )
    closes = [page.evaluate("() => window.__e2eSocket.closed") for page in pages]
    # Stopped by SIGTERM, the server closes each socket for a restart (1012); killed, it
    # cannot, and the page sees the connection drop (1006). htmx reconnects after both.
    expected = SERVICE_RESTART if graceful else CONNECTION_DROPPED
    assert [codes[:1] for codes in closes] == [[expected], [expected]], closes
    for page, cards, acted in zip(pages, hands, actor_before, strict=True):
        assert not_reloaded(page), "the page reloaded instead of reconnecting"
        assert hand(page) == cards
        assert version(page) == moves
        assert has_controls(page) == acted
        seats = page.locator("#table-seats li.seat")
        for index in range(2):
            expect(seats.nth(index)).to_contain_text("online", timeout=TIMEOUT)

    # The controls still work over the new socket.
    actor = next(page for page in pages if has_controls(page))
    take_turn(actor)
    for page in pages:
        wait_for_version(page, moves + 1)
    assert move_count(site, table_id) == moves + 1


def test_a_chat_line_posted_while_the_page_was_reconnecting_shows_without_a_reload(
    restartable_site, new_context, console
) -> None:
    console.expect(r"WebSocket connection to '\S+/ws/(tables/\d+|site)/' failed")
    console.expect(r": \[object Event\]$")  # htmx's report of that socket's error
    site = restartable_site
    table_id, alice, bob, _ = two_player_game(site, new_context)
    mark_page(bob)
    bob.evaluate(RECORD_SOCKET)
    site.stop()
    # While bob's page waits to reconnect, a line reaches the chat (written where the chat
    # service writes it: the site is down).
    (host,) = site.query("SELECT host_id FROM games_table WHERE id = ?", (table_id,))[0]
    connection = sqlite3.connect(site.db_path, timeout=10)
    with connection:
        connection.execute(
            "INSERT INTO games_chatmessage (table_id, author_id, room, text, created_at,"
            " hidden_reason) VALUES (?, ?, 'players', 'back in a minute', ?, '')",
            (table_id, host, datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")),
        )
    connection.close()

    site.start()

    bob.wait_for_function("() => window.__e2eSocket.opened >= 1", timeout=30_000, polling=100)
    expect(bob.locator("#chat-log-players")).to_contain_text("back in a minute", timeout=TIMEOUT)
    assert not_reloaded(bob), "the page reloaded instead of reconnecting"
    assert bob.locator("#chat-log-players li:has-text('back in a minute')").count() == 1
