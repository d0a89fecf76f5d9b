"""Several Daphne processes serve one site once REDIS_URL is set: two players, each on another
server process (same database, same Redis), see each other's moves live."""

import pytest

from tests.e2e.pages import TIMEOUT, sign_up, unique_name

pytestmark = pytest.mark.e2e


def test_players_on_two_server_processes_play_one_game_live(two_servers, new_context) -> None:
    server_a, server_b = two_servers
    host = sign_up(new_context(), server_a, unique_name("ana"))
    guest = sign_up(new_context(), server_b, unique_name("bea"))  # bea's lobby is on server b

    host.goto(server_a + "/tables/new/")
    host.fill("input[name=name]", "Across processes")
    host.select_option("select[name=seat_count]", "2")
    host.select_option("select[name=turn_seconds]", "")
    host.get_by_role("button", name="Open the table").click()
    host.wait_for_url("**/tables/*/", timeout=TIMEOUT)

    # The new table reaches bea's lobby on server b through Redis, without a reload.
    row = guest.locator("#lobby-tables tr", has_text="Across processes")
    row.wait_for(timeout=TIMEOUT)
    row.get_by_role("button", name="Join").click()
    guest.wait_for_url("**/tables/**")

    # ana, on server a, sees bea sit down (pushed from b) and starts the game.
    host.get_by_role("button", name="Start the game").click(timeout=TIMEOUT)
    for page in (host, guest):
        page.locator("#table-hand [data-card]").first.wait_for(timeout=TIMEOUT)

    # Whoever is to play moves; the other server's page shows it live.
    mover, watcher = (host, guest) if _my_move(host) else (guest, host)
    before = watcher.locator("#table-events").inner_text()
    legal = mover.locator("#table-hand .hand__card--legal button")
    if legal.count():
        legal.first.click()
    else:
        mover.get_by_role("button", name="Draw a card").click()
    watcher.wait_for_function(
        "b => document.querySelector('#table-events').innerText !== b", arg=before, timeout=TIMEOUT
    )
    assert watcher.locator("#table-events li, #table-events p").count() >= 1


def _my_move(page) -> bool:
    page.wait_for_function(
        "() => document.querySelector('#table-hand .badge--live') !== null"
        " || document.querySelector('#table-seats') !== null"
    )
    return page.locator("#table-hand .badge--live").count() > 0
