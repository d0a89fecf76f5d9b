"""In a real browser, on a phone and on a laptop: two people follow each other and become
friends; one challenges the other, who is reading another page: their bell counts up without a
reload, they decline, and the challenger's page says so live; the second challenge is accepted
from the bell, and both pages land at the started table. axe-core finds nothing serious on the
new pages, and the console stays clean. Screenshots go to test-artifacts/e2e-friends-*.png.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.axe import assert_accessible
from tests.e2e.conftest import LAPTOP, PHONE
from tests.e2e.pages import TIMEOUT, mark_page, not_reloaded, screenshot, sign_up, unique_name
from tests.e2e.site_server import SiteServer

pytestmark = pytest.mark.e2e

PORT = 8105  # this feature's port for a site of its own


@pytest.fixture(scope="module")
def friends_site(tmp_path_factory) -> Iterator[str]:
    """The site on a port of its own, on a fresh database."""
    server = SiteServer(tmp_path_factory.mktemp("friends-site"))
    server.port = PORT
    server.url = f"http://127.0.0.1:{PORT}"
    server.prepare()
    server.start()
    yield server.url
    server.stop()


def follow(page: Page, base: str, username: str) -> None:
    page.goto(f"{base}/players/{username}/")
    page.get_by_role("button", name="Follow", exact=True).click()
    expect(page.locator(".messages")).to_contain_text(f"You follow {username}.")


def challenge(page: Page, base: str, username: str) -> int:
    """From the home page's friends panel: the challenge form, filled in for ``username``;
    return the challenge's id. The page is left on the challenge."""
    page.goto(base + "/")
    friend = page.locator(f"#friends-panel [data-friend='{username}']")
    expect(friend).to_have_attribute("data-state", "online", timeout=TIMEOUT)
    friend.get_by_role("link", name=re.compile("^Challenge")).click()
    form = page.locator("main form")
    expect(form.locator("input[name=players]")).to_have_value(username)
    form.get_by_label("Casual: for fun, no rating changes").check()
    form.get_by_role("button", name="Send the challenge").click()
    page.wait_for_url(re.compile(r"/challenges/\d+/$"))
    return int(re.search(r"/challenges/(\d+)/", page.url).group(1))


@pytest.mark.parametrize(("viewport", "phone"), [(PHONE, True), (LAPTOP, False)])
def test_friends_challenge_each_other_and_land_at_the_table(
    friends_site, make_context, artifacts, viewport, phone
) -> None:
    base = friends_site
    size = "phone" if phone else "laptop"
    ana_name, ben_name = unique_name("ana"), unique_name("ben")
    ana = sign_up(make_context(viewport, phone), base, ana_name)
    ben = sign_up(make_context(viewport, phone), base, ben_name)

    # They follow each other: friends.
    follow(ana, base, ben_name)
    follow(ben, base, ana_name)
    expect(ben.locator(".profile__friends")).to_have_text("Friends")
    assert_accessible(ben, f"a friend's profile ({size})")

    # ben reads the rules; the page is never reloaded.
    ben.goto(base + "/rules/")
    mark_page(ben)
    bell = ben.locator("#bell")
    expect(bell).to_have_text(re.compile(r"Notifications 1"))  # ana's follow, from before

    first = challenge(ana, base, ben_name)
    assert_accessible(ana, f"a challenge's page ({size})")
    expect(bell.locator(".bell__count")).to_have_text("2", timeout=TIMEOUT)
    alert = ben.locator("#site-alert")
    expect(alert).to_contain_text(f"{ana_name} challenges you to a game.")
    screenshot(ben, artifacts, f"friends-bell-{size}")

    # A decline, seen on both sides: ana's page of the challenge without a reload.
    mark_page(ana)
    alert.get_by_role("button", name="Decline").click()
    ben.wait_for_url(f"{base}/challenges/{first}/")
    expect(ben.locator(".challenge__status")).to_have_text("Declined")
    expect(ana.locator(".challenge__status")).to_have_text("Declined", timeout=TIMEOUT)
    expect(ana.locator(".challenge__answers")).to_contain_text(f"{ben_name}: Declined")
    expect(ana.locator("#bell .bell__count")).to_have_text("2", timeout=TIMEOUT)
    assert not_reloaded(ana)

    # The second challenge: ben, on another page, accepts from the bell's alert.
    ben.goto(base + "/rules/")
    mark_page(ben)
    second = challenge(ana, base, ben_name)
    expect(alert).to_contain_text(f"{ana_name} challenges you to a game.", timeout=TIMEOUT)
    assert not_reloaded(ben)
    alert.get_by_role("button", name="Accept").click()

    # Ben's page is sent to the table twice, by the answer to his click and by his site socket,
    # and the later navigation cuts the earlier short: where the page ends up is what counts.
    table = re.compile(r"/tables/\d+/$")
    expect(ben).to_have_url(table, timeout=TIMEOUT)
    expect(ana).to_have_url(table, timeout=TIMEOUT)  # sent there by the site socket
    assert ana.url == ben.url
    for page in (ana, ben):
        expect(page.locator("#table-hand [data-card]")).to_have_count(8, timeout=TIMEOUT)
    screenshot(ana, artifacts, f"friends-table-{size}")
    ana.goto(f"{base}/challenges/{second}/")
    expect(ana.locator(".challenge__status")).to_have_text("Accepted: the game started")

    # The new pages, for axe: the notifications, the account, the home page's panels.
    for page, where in (
        (ben, "/notifications/"),
        (ben, "/account/"),
        (ana, "/"),
        (ana, "/challenges/new/"),
    ):
        page.goto(base + where)
        assert_accessible(page, f"{where} ({size})")
    ben.goto(base + "/notifications/")
    expect(ben.locator(".notification").first).to_contain_text(f"{ana_name} challenges you")
    expect(ben.locator("#bell .bell__count")).to_have_count(0)  # read once shown
