"""In a real browser: two people sign up, one opens a table, the other sees it
appear in the lobby and joins, and they play by clicking until one wins, watched live by a
spectator. Screenshots of every page go to test-artifacts/e2e-two-players-*.png.
"""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.pages import (
    CONTROLS,
    EVENTS,
    HAND,
    HAND_CARDS,
    RESULT,
    TIMEOUT,
    game_state,
    hand,
    has_controls,
    mark_page,
    move_count,
    my_seat,
    not_reloaded,
    open_table,
    screenshot,
    seat_hand_sizes,
    sign_up,
    start_game,
    take_turn,
    unique_name,
    version,
    wait_for_version,
)

pytestmark = pytest.mark.e2e

MAX_MOVES = 600
MID_GAME = 8  # moves: when the mid-game screenshots are taken (if the game lasts)


def test_two_players_play_to_the_end_watched_by_a_spectator(
    site_server, new_context, artifacts
) -> None:
    base = site_server.url
    host_name, guest_name = unique_name("dana"), unique_name("ben")
    host = sign_up(new_context(), base, host_name)
    guest = sign_up(new_context(), base, guest_name)

    # The guest waits in the lobby; the table must appear there live, without a reload.
    guest.goto(base + "/")
    mark_page(guest)
    table_name = f"Friday TAKI {host_name}"

    table_id = open_table(host, base, table_name)
    expect(host.locator("h1")).to_have_text(table_name)

    row = guest.locator(f"#lobby-tables tr[data-table='{table_id}']")
    expect(row).to_be_visible(timeout=TIMEOUT)
    assert not_reloaded(guest), "the lobby reloaded instead of updating over its socket"
    for cell in (table_name, host_name, "1 of 2", "Standard", "No limit"):
        expect(row).to_contain_text(cell)

    # Anyone may watch a public table: the spectator is a visitor who is not signed in.
    spectator = new_context().new_page()
    spectator.goto(f"{base}/tables/{table_id}/")
    expect(spectator.get_by_text("Waiting for players")).to_be_visible()

    row.get_by_role("button", name="Join").click()
    guest.wait_for_url(f"{base}/tables/{table_id}/")
    expect(guest.get_by_text("The host starts the game.")).to_be_visible()

    # The host's page learns of the guest over its socket, and offers to start.
    start_game(host, guest)

    pages = {"host": host, "guest": guest, "spectator": spectator}
    players = {"host": host, "guest": guest}
    expect(spectator.locator("#table-board .board")).to_be_visible(timeout=TIMEOUT)
    for page in pages.values():
        mark_page(page)
    seats = {role: my_seat(page) for role, page in players.items()}
    assert sorted(seats.values()) == [0, 1]
    assert my_seat(spectator) is None

    def check_every_page(moves: int) -> None:
        """Each page at ``moves`` moves shows the table as the database holds it, and each
        player only their own hand; the spectator no hand at all."""
        stored_version, state = game_state(site_server, table_id)
        assert stored_version == moves
        sizes = [len(cards) for cards in state["hands"]]
        for role, page in pages.items():
            if state["winner"] is None:
                assert seat_hand_sizes(page) == sizes, role
            # No card codes anywhere on the page but in its own hand.
            assert page.locator("[data-card]").count() == page.locator(HAND_CARDS).count()
        for role, page in players.items():
            if state["winner"] is None:
                assert sorted(hand(page)) == sorted(state["hands"][seats[role]]), role
        if moves:  # everyone reads the same events, in the same words
            newest = {page.locator(EVENTS).first.inner_text() for page in pages.values()}
            assert len(newest) == 1, newest
        assert spectator.locator(HAND_CARDS).count() == 0
        assert spectator.locator(f"{HAND} .hand-panel").count() == 0
        assert spectator.locator(CONTROLS).count() == 0

    check_every_page(0)
    for role, page in pages.items():
        screenshot(page, artifacts, f"two-players-{role}-start")

    moves = 0
    log = []
    while True:
        if host.locator(RESULT).count() or guest.locator(RESULT).count():
            break
        if moves >= MAX_MOVES:
            pytest.fail(f"no winner after {MAX_MOVES} moves; the last ones: {log[-20:]}")
        actors = [role for role, page in players.items() if has_controls(page)]
        assert len(actors) == 1, f"after move {moves} these pages offer a move: {actors}"
        actor = players[actors[0]]

        log.append((actors[0], take_turn(actor)))
        moves += 1
        # Every page follows the move live, the spectator's too: a new event on top.
        for page in pages.values():
            wait_for_version(page, moves)
        check_every_page(moves)
        if moves == MID_GAME:
            for role, page in pages.items():
                screenshot(page, artifacts, f"two-players-{role}-mid")

    # The end: every page shows the result at once, with a link to the finished game.
    stored_version, state = game_state(site_server, table_id)
    winner_role = next(role for role, seat in seats.items() if seat == state["winner"])
    winner_name = host_name if winner_role == "host" else guest_name
    game_links = set()
    for role, page in pages.items():
        result = page.locator(RESULT)
        expect(result).to_be_visible(timeout=5_000)
        expected = "You win!" if role == winner_role else f"{winner_name} wins!"
        expect(result.locator("h2")).to_have_text(expected)
        link = result.get_by_role("link", name="See the whole game")
        game_links.add(link.get_attribute("href"))
        assert page.locator(CONTROLS).count() == 0, f"{role} still has controls"
        assert not_reloaded(page), f"the {role}'s page reloaded during the game"
        screenshot(page, artifacts, f"two-players-{role}-end")
    assert len(game_links) == 1
    assert stored_version == moves == move_count(site_server, table_id)
    assert version(spectator) == moves

    # The finished game's page: players, result, and every move in words.
    spectator.get_by_role("link", name="See the whole game").click()
    spectator.wait_for_url(base + game_links.pop())
    expect(spectator.locator("p.result")).to_have_text(f"{winner_name} won.")
    expect(spectator.locator("dl.facts")).to_contain_text(f"{moves} move")
    listed = spectator.locator("ol.moves li")
    expect(listed).to_have_count(moves)
    words = listed.all_inner_texts()
    assert all(re.search(r"[a-z]{3}", text) for text in words), words[:5]
    assert any(host_name in text for text in words) and any(guest_name in text for text in words)
    assert any("played" in text for text in words), words[:5]
    screenshot(spectator, artifacts, "two-players-finished-game")
