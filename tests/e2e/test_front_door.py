"""In a real browser, on a phone and on a laptop: the home page as the site's front door.

A visitor sees TAKI in one look (real cards, a sentence, one primary button) and the signs that
people play. A signed-in person sees Play now as the one primary button, their friends and the
people online; their own links and the log-out are in a menu under their name that opens on a
click and closes on Escape and on a click outside it. When a friend sits down to a game the
friends panel says so without a reload, with a link to watch a public table, and the game comes
into the games being played on the page (the lobby's socket); a visitor sees it there too, with
no card of it; and the panel changes again when the friend leaves the game. axe-core finds
nothing serious, and the console stays clean. Screenshots go to
test-artifacts/e2e-front-door-*.png.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.axe import assert_accessible
from tests.e2e.conftest import LAPTOP, PHONE
from tests.e2e.pages import (
    TIMEOUT,
    mark_page,
    not_reloaded,
    open_menu,
    screenshot,
    sign_up,
    unique_name,
)
from tests.e2e.site_server import SiteServer

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def front_site(tmp_path_factory) -> Iterator[str]:
    """The site on a port of its own, on a fresh database."""
    server = SiteServer(tmp_path_factory.mktemp("front-door-site"))
    server.prepare()
    server.start()
    yield server.url
    server.stop()


def primary_buttons(page: Page) -> list[str]:
    """The visible primary buttons of the page's main part."""
    buttons = page.locator("main .button--primary")
    return [
        buttons.nth(i).inner_text() for i in range(buttons.count()) if buttons.nth(i).is_visible()
    ]


def follow(page: Page, base: str, username: str) -> None:
    page.goto(f"{base}/players/{username}/")
    page.get_by_role("button", name="Follow", exact=True).click()
    expect(page.locator(".messages")).to_contain_text(f"You follow {username}.")


def open_public_bot_table(page: Page, base: str, name: str) -> int:
    """Open a public three-seat table with two bots and a minute a turn, and start it."""
    page.goto(base + "/tables/new/")
    form = page.locator("main form")
    form.locator("input[name=name]").fill(name)
    form.locator("select[name=seat_count]").select_option("3")
    form.locator("select[name=turn_seconds]").select_option("60")
    form.locator("select[name=bot_seats]").select_option("2")
    form.get_by_label("Public: listed in the lobby").check()
    form.get_by_role("button", name="Open the table").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    with page.expect_navigation(timeout=TIMEOUT):
        page.get_by_role("button", name="Start the game").click()
    return int(re.search(r"/tables/(\d+)/", page.url).group(1))


@pytest.mark.parametrize(("viewport", "phone"), [(PHONE, True), (LAPTOP, False)])
def test_the_front_door_for_a_visitor_and_for_a_friend(
    front_site, make_context, artifacts, viewport, phone
) -> None:
    base = front_site
    size = "phone" if phone else "laptop"

    # A visitor: the cards, a sentence, one obvious button, and the signs of play.
    visitor = make_context(viewport, phone).new_page()
    visitor.goto(base + "/")
    door = visitor.locator(".front-door")
    expect(door.get_by_role("heading", level=1)).to_be_visible()
    expect(door.locator(".card")).to_have_count(5)
    expect(door.get_by_role("img", name="blue +2")).to_be_visible()
    assert primary_buttons(visitor) == ["Try a game against bots"]
    expect(visitor.locator(".site-life__playing")).to_contain_text("Playing now")
    expect(visitor.locator(".site-life__leaders")).to_contain_text("Leaderboards")
    assert visitor.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"]
    assert_accessible(visitor, f"the home page of a visitor ({size})")
    screenshot(visitor, artifacts, f"front-door-visitor-{size}")

    # Two people, friends.
    ana_name, ben_name = unique_name("ana"), unique_name("ben")
    ana = sign_up(make_context(viewport, phone), base, ana_name)
    ben = sign_up(make_context(viewport, phone), base, ben_name)
    follow(ana, base, ben_name)
    follow(ben, base, ana_name)

    ana.goto(base + "/")
    mark_page(ana)
    assert primary_buttons(ana) == [ana.locator("form.play-now .button--primary").inner_text()]
    friend = ana.locator(f"#friends-panel [data-friend='{ben_name}']")
    expect(friend).to_have_attribute("data-state", "online", timeout=TIMEOUT)
    expect(ana.locator(".site-life__online")).to_contain_text("2 people online")
    assert ana.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"]

    # The menu under ana's name: opens on a click, closes on Escape and on a click outside.
    open_menu(ana)
    name = ana.locator("header .account-menu__button")
    log_out = ana.locator("#account-menu").get_by_role("button", name=f"Log out ({ana_name})")
    expect(name).to_have_text(ana_name)
    expect(log_out).to_be_hidden()
    name.click()
    expect(name).to_have_attribute("aria-expanded", "true")
    expect(log_out).to_be_visible()
    expect(ana.locator("#account-menu").get_by_role("link", name="My profile")).to_be_visible()
    assert_accessible(ana, f"the home page, the account menu open ({size})")
    screenshot(ana, artifacts, f"front-door-menu-{size}")
    ana.keyboard.press("Escape")
    expect(name).to_have_attribute("aria-expanded", "false")
    expect(log_out).to_be_hidden()
    expect(name).to_be_focused()
    name.press("Enter")  # the keyboard opens it too
    expect(name).to_have_attribute("aria-expanded", "true")
    ana.mouse.click(5, viewport["height"] - 5)  # outside the menus
    expect(name).to_have_attribute("aria-expanded", "false")
    if phone:  # the phone's menu closes the same ways
        menu = ana.locator("header .menu-button")
        expect(menu).to_have_attribute("aria-expanded", "false")
        open_menu(ana)
        ana.keyboard.press("Escape")
        expect(menu).to_have_attribute("aria-expanded", "false")
        expect(menu).to_be_focused()

    # ben sits down to a public game with two bots: ana's panel says so, without a reload,
    # with a link to watch it.
    table_id = open_public_bot_table(ben, base, unique_name("Front"))
    expect(friend).to_have_attribute("data-state", "playing", timeout=TIMEOUT)
    expect(friend).to_contain_text("Playing")
    expect(friend.get_by_role("link", name=f"Watch {ben_name}")).to_have_attribute(
        "href", f"/tables/{table_id}/"
    )
    # The games being played on ana's page: the lobby's socket brings ben's in.
    expect(ana.locator(f"#playing-now tr[data-table='{table_id}']")).to_be_visible()
    expect(ana.locator("#playing-now")).to_contain_text("1 game being played")
    assert_accessible(ana, f"the home page, signed in ({size})")
    screenshot(ana, artifacts, f"front-door-signed-in-{size}")

    # A visitor sees it among the games being played, with a link to watch, and no card of it.
    visitor.goto(base + "/")
    playing = visitor.locator(f".site-life__playing tr[data-table='{table_id}']")
    expect(playing.get_by_role("link", name=re.compile("^Watch "))).to_have_attribute(
        "href", f"/tables/{table_id}/"
    )
    expect(playing).to_contain_text(ben_name)
    expect(visitor.locator("main [data-card]")).to_have_count(0)
    expect(visitor.locator("main .card")).to_have_count(5)  # the look at TAKI's cards only
    assert visitor.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"]
    assert_accessible(visitor, f"the home page of a visitor, a game being played ({size})")
    screenshot(visitor, artifacts, f"front-door-visitor-playing-{size}")

    # ben leaves it (a bot plays his seat on): back to online, still without a reload.
    ben.locator(".leave-game summary").click()
    ben.get_by_role("button", name="Yes, leave the game").click()
    ben.wait_for_url(base + "/")
    expect(friend).to_have_attribute("data-state", "online", timeout=TIMEOUT)
    expect(friend.get_by_role("link", name=re.compile("^Watch"))).to_have_count(0)
    assert not_reloaded(ana)
