""" "Play now" across two server processes sharing Redis and one database: two people click it
on different servers, each waits on the pool page (checked with axe on a phone and a laptop),
and both are taken to one table whose game has started by itself."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.axe import assert_accessible
from tests.e2e.conftest import LAPTOP, PHONE
from tests.e2e.pages import TIMEOUT, sign_up, table_id_of, unique_name

pytestmark = pytest.mark.e2e


def play_now(page, pool: str) -> None:
    """Press "Play now" for ``pool``; wait for the pool's page, or for the table when someone
    was waiting already (the clock's wave may pair them before the pool's page is seen)."""
    page.locator("form.play-now").get_by_role("button", name=pool).click()
    page.wait_for_url(re.compile(r"/play-now/waiting/$|/tables/\d+/$"), timeout=TIMEOUT)


def test_two_people_on_two_servers_meet_at_one_table_that_starts_by_itself(
    two_servers, make_context
) -> None:
    server_a, server_b = two_servers
    ana = sign_up(make_context(PHONE, phone=True), server_a, unique_name("ana"))
    bea = sign_up(make_context(LAPTOP), server_b, unique_name("bea"))

    play_now(ana, "Duel, untimed")
    expect(ana.locator("#pool-count")).to_have_text("1 person waiting in this pool")
    # The wait counts up, second by second, from what the server drew.
    expect(ana.locator("#pool-waited")).to_have_text(re.compile(r"^0:0[1-9]$"), timeout=TIMEOUT)
    assert_accessible(ana, "the pool page on a phone")
    # The pool page at a laptop's width, checked on ana's page while no one can pair her: once
    # bea asks, either page may leave for the table at any moment.
    ana.set_viewport_size(LAPTOP)
    assert_accessible(ana, "the pool page on a laptop")
    ana.set_viewport_size(PHONE)

    play_now(bea, "Duel, untimed")

    for page in (ana, bea):
        page.wait_for_url(re.compile(r"/tables/\d+/$"), timeout=TIMEOUT)
        page.locator("#table-hand [data-card]").first.wait_for(timeout=TIMEOUT)
    assert table_id_of(ana) == table_id_of(bea)


def test_cancelling_leaves_the_pool_and_the_other_pages_see_the_count_fall(
    two_servers, make_context
) -> None:
    server_a, server_b = two_servers
    cleo = sign_up(make_context(LAPTOP), server_a, unique_name("cleo"))
    dan = sign_up(make_context(LAPTOP), server_b, unique_name("dan"))
    play_now(cleo, "4 players, 30 s turns")
    play_now(dan, "4 players, 30 s turns")
    expect(cleo.locator("#pool-count")).to_have_text("2 people waiting in this pool")

    dan.get_by_role("button", name="Cancel").click()

    dan.wait_for_url(server_b + "/", timeout=TIMEOUT)
    expect(dan.locator(".messages")).to_contain_text("You left the pool.")
    expect(cleo.locator("#pool-count")).to_have_text("1 person waiting in this pool")


def test_bots_fill_the_table_of_someone_who_asked_after_twenty_seconds(
    two_servers, make_context
) -> None:
    server_a, _server_b = two_servers
    finn = sign_up(make_context(LAPTOP), server_a, unique_name("finn"))
    finn.locator("form.play-now").get_by_label(re.compile("Fill with bots")).check()

    play_now(finn, "Tournament, 3 players, 30 s turns")
    expect(finn.locator(".pool")).to_contain_text("Bots fill the empty seats after 20 seconds")

    finn.wait_for_url(re.compile(r"/tables/\d+/$"), timeout=40_000)
    finn.locator("#table-hand [data-card]").first.wait_for(timeout=TIMEOUT)
    expect(finn.locator("#table-seats .badge--bot")).to_have_count(2)


def test_a_player_whose_opponent_never_comes_is_told_why_and_taken_back_to_the_pool(
    live_site, make_context
) -> None:
    gil = sign_up(make_context(LAPTOP), live_site, unique_name("gil"))
    hal_context = make_context(LAPTOP)
    hal = sign_up(hal_context, live_site, unique_name("hal"))
    # hal is matched but his browser never opens the table: its page is not the site's.
    hal_context.route(
        re.compile(r".*/tables/\d+/$"),
        lambda route: route.fulfill(status=200, content_type="text/html", body="<p>away</p>"),
    )

    play_now(gil, "Duel, untimed")
    play_now(hal, "Duel, untimed")
    gil.wait_for_url(re.compile(r"/tables/\d+/$"), timeout=TIMEOUT)

    # 30 s after the match, and the clock's next look.
    expect(gil.locator("#table-result")).to_contain_text(
        "never came to the table: the game was aborted.", timeout=45_000
    )
    expect(gil.locator("#table-result")).to_contain_text("You are back at the head of the pool.")
    gil.wait_for_url("**/play-now/waiting/", timeout=TIMEOUT)
    expect(gil.locator("#pool-count")).to_have_text("1 person waiting in this pool")
