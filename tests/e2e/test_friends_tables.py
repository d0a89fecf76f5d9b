"""In a real browser, challenges with several people, an expiry and a block, on a phone and on a
laptop.

A host invites three people to one table: one declines, the host sees each answer live and
starts with the two who accepted, whose pages (each on another page of the site) go to the
table; nobody sits twice, and the decliner's page says they declined. A challenge whose time is
up is closed by the site's clock, and both people's pages say so live. A blocked player's
challenge is refused in words that do not say who blocked whom, and at a third person's table
their chat lines are gone for the one who blocked them and still seen by the host. axe-core finds
nothing serious on the pages these reach, and the console stays clean.
Screenshots go to test-artifacts/e2e-friends-tables-*.png.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.axe import assert_accessible
from tests.e2e.conftest import LAPTOP, PHONE
from tests.e2e.pages import (
    HAND_CARDS,
    TIMEOUT,
    mark_page,
    not_reloaded,
    open_table,
    screenshot,
    sign_up,
    start_game,
    table_id_of,
    take_seat,
    unique_name,
)
from tests.e2e.site_server import SiteServer

pytestmark = pytest.mark.e2e

PORT = 8106  # this file's port for a site of its own

CHALLENGE_URL = re.compile(r"/challenges/(\d+)/$")
TABLE_URL = re.compile(r"/tables/\d+/$")


@pytest.fixture(scope="module")
def tables_site(tmp_path_factory) -> Iterator[SiteServer]:
    """The site on a port of its own, on a fresh database."""
    server = SiteServer(tmp_path_factory.mktemp("friends-tables-site"))
    server.port = PORT
    server.url = f"http://127.0.0.1:{PORT}"
    server.prepare()
    server.start()
    yield server
    server.stop()


# Every page counts the times its sockets opened (the site's; a table page's own too), from its
# first script on.
COUNT_SOCKETS = """document.addEventListener("htmx:wsOpen", () => {
  window.__e2eSocketsOpened = (window.__e2eSocketsOpened || 0) + 1;
});"""


def person(make_context, base: str, name: str, viewport=LAPTOP, phone: bool = False):
    """A new person in a browser of the given size, signed up; their context and first page."""
    context = make_context(viewport, phone)
    context.add_init_script(COUNT_SOCKETS)
    return context, sign_up(context, base, name)


def wait_for_sockets(page: Page, count: int = 1) -> None:
    """Wait until the page's sockets have opened (a signed-in page has the site's, a table page
    its own too): nothing is pushed to a page before."""
    page.wait_for_function(
        "n => (window.__e2eSocketsOpened || 0) >= n", arg=count, timeout=TIMEOUT, polling=50
    )


def send_challenge(page: Page, base: str, names: list[str], seats: int) -> None:
    """The challenge form, filled in for ``names`` at a casual table of ``seats`` and sent;
    the page is left on what the site answers."""
    page.goto(base + "/challenges/new/")
    form = page.locator("main form")
    form.get_by_label("Whom to challenge").fill(", ".join(names))
    form.locator("select[name=seat_count]").select_option(str(seats))
    form.get_by_label("Casual: for fun, no rating changes").check()
    form.get_by_role("button", name="Send the challenge").click()


def challenge(page: Page, base: str, names: list[str], seats: int = 2) -> int:
    """Challenge ``names``; return the challenge's id, the page left on it."""
    send_challenge(page, base, names, seats)
    page.wait_for_url(CHALLENGE_URL)
    return int(CHALLENGE_URL.search(page.url).group(1))


def user_id(site: SiteServer, username: str) -> int:
    return site.query("SELECT id FROM auth_user WHERE username = ?", (username,))[0][0]


def answer_line(page: Page, username: str):
    return page.locator(".challenge__answers li").filter(has_text=f"{username}:")


# ------------------------------------------------------------------ several people


def test_a_host_invites_three_one_declines_and_the_others_land_at_the_table(
    tables_site, make_context, artifacts
) -> None:
    """The host on a laptop, the three asked on phones."""
    base = tables_site.url
    host_name = unique_name("host")
    names = [unique_name(who) for who in ("bea", "cal", "dov")]
    _context, host = person(make_context, base, host_name)
    bea, cal, dov = (person(make_context, base, name, PHONE, True)[1] for name in names)
    bea_name, cal_name, dov_name = names

    # Each of the three reads another page, never reloaded.
    bea.goto(base + "/rules/")
    cal.goto(f"{base}/players/{host_name}/")
    dov.goto(base + "/notifications/")
    for page in (bea, cal, dov):
        mark_page(page)
        wait_for_sockets(page)

    challenge_id = challenge(host, base, names, seats=4)
    mark_page(host)
    wait_for_sockets(host)
    for name in names:
        expect(answer_line(host, name)).to_have_text(f"{name}: Not answered yet")
    words = f"{host_name} challenges you to a game."
    for page in (bea, cal, dov):
        expect(page.locator("#site-alert")).to_contain_text(words, timeout=TIMEOUT)
        assert not_reloaded(page)

    # bea accepts from the alert, then goes on to the home page.
    bea.locator("#site-alert").get_by_role("button", name="Accept").click()
    bea.wait_for_url(f"{base}/challenges/{challenge_id}/")
    expect(answer_line(host, bea_name)).to_have_text(f"{bea_name}: Accepted", timeout=TIMEOUT)
    bea.goto(base + "/")

    # dov declines from the alert: his page is left on the challenge.
    dov.locator("#site-alert").get_by_role("button", name="Decline").click()
    dov.wait_for_url(f"{base}/challenges/{challenge_id}/")
    expect(answer_line(host, dov_name)).to_have_text(f"{dov_name}: Declined", timeout=TIMEOUT)
    expect(host.locator(".challenge__status")).to_have_text("Waiting for answers")
    mark_page(dov)
    wait_for_sockets(dov)

    # cal accepts from the challenge's page, then reads the rules.
    cal.locator("#site-alert").get_by_role("link", name=words).click()
    cal.wait_for_url(f"{base}/challenges/{challenge_id}/")
    cal.locator(".challenge__actions").get_by_role("button", name="Accept").click()
    expect(cal.locator(".challenge__actions")).to_contain_text("You accepted")
    expect(answer_line(host, cal_name)).to_have_text(f"{cal_name}: Accepted", timeout=TIMEOUT)
    cal.goto(base + "/rules/")
    for page in (bea, cal):
        mark_page(page)
        wait_for_sockets(page)
    assert not_reloaded(host)
    screenshot(host, artifacts, "friends-tables-answers")

    # The host starts with the two who accepted; every page of theirs goes to the table (the
    # host's by the answer to the click and by the site socket: the later navigation cuts the
    # earlier short, and where the page ends up is what counts).
    host.get_by_role("button", name="Start with those who accepted").click()
    for page in (host, bea, cal):
        expect(page).to_have_url(TABLE_URL, timeout=TIMEOUT)
    assert host.url == bea.url == cal.url
    for page in (host, bea, cal):
        expect(page.locator(HAND_CARDS)).to_have_count(8, timeout=TIMEOUT)
        expect(page.locator("#table-seats li.seat")).to_have_count(3)
    screenshot(cal, artifacts, "friends-tables-table-phone")

    table_id = table_id_of(host)
    seated = [
        row[0]
        for row in tables_site.query(
            "SELECT user_id FROM games_seat WHERE table_id = ? AND user_id IS NOT NULL",
            (table_id,),
        )
    ]
    expected = {user_id(tables_site, name) for name in (host_name, bea_name, cal_name)}
    assert sorted(seated) == sorted(expected), "each of the three seated exactly once"
    running = tables_site.query(
        "SELECT COUNT(*) FROM games_seat JOIN games_table ON games_seat.table_id = games_table.id"
        " WHERE games_table.status = 'playing' AND games_seat.user_id = ?",
        (user_id(tables_site, dov_name),),
    )
    assert running == [(0,)], "the decliner sits nowhere"

    # dov's page, still on the challenge, says live that he declined; no table for him.
    expect(dov.locator(".challenge__status")).to_have_text(
        "Accepted: the game started", timeout=TIMEOUT
    )
    expect(dov.locator(".challenge")).to_contain_text("You declined.")
    expect(answer_line(dov, dov_name)).to_have_text(f"{dov_name}: Declined")
    expect(dov.get_by_role("link", name="Go to the table")).to_have_count(0)
    assert CHALLENGE_URL.search(dov.url) and not_reloaded(dov)
    assert_accessible(dov, "a declined challenge once it started (phone)")
    screenshot(dov, artifacts, "friends-tables-declined-phone")


# ------------------------------------------------------------------ expiry


def expire(site: SiteServer, challenge_id: int) -> None:
    """Move the challenge's time into the past in the site's database, as if a day went by;
    the site's clock closes it on its next sweep."""
    connection = sqlite3.connect(site.db_path, timeout=10)
    try:
        with connection:
            changed = connection.execute(
                "UPDATE games_challenge SET expires_at = '2000-01-01 00:00:00' WHERE id = ?",
                (challenge_id,),
            ).rowcount
    finally:
        connection.close()
    assert changed == 1


@pytest.mark.parametrize(("viewport", "phone"), [(PHONE, True), (LAPTOP, False)])
def test_an_expired_challenge_says_so_on_both_sides_live(
    tables_site, make_context, artifacts, viewport, phone
) -> None:
    base = tables_site.url
    size = "phone" if phone else "laptop"
    eli_name, fay_name = unique_name("eli"), unique_name("fay")
    _context, eli = person(make_context, base, eli_name, viewport, phone)
    _context, fay = person(make_context, base, fay_name, viewport, phone)

    challenge_id = challenge(eli, base, [fay_name])
    mark_page(eli)
    wait_for_sockets(eli)
    # fay is on the home page, where her open challenges are listed.
    fay.goto(base + "/")
    listed = fay.locator(f"#open-challenges [data-challenge='{challenge_id}']")
    expect(listed).to_contain_text(f"From {eli_name}")
    mark_page(fay)
    wait_for_sockets(fay)

    expire(tables_site, challenge_id)
    expect(eli.locator(".challenge__status")).to_have_text("Expired", timeout=TIMEOUT)
    expect(eli.locator(".challenge__actions")).to_have_count(0)
    expect(eli.locator("#site-alert")).to_contain_text("Your challenge expired.")
    expect(fay.locator("#site-alert")).to_contain_text(
        f"The challenge from {eli_name} expired.", timeout=TIMEOUT
    )
    expect(listed).to_have_count(0, timeout=TIMEOUT)
    expect(fay.locator("#open-challenges")).to_contain_text("No open challenges.")
    assert not_reloaded(eli) and not_reloaded(fay)
    screenshot(fay, artifacts, f"friends-tables-expired-{size}")

    # Her way to it now says it expired, and offers no answer.
    fay.locator("#site-alert").get_by_role("link").click()
    fay.wait_for_url(f"{base}/challenges/{challenge_id}/")
    expect(fay.locator(".challenge__status")).to_have_text("Expired")
    expect(fay.locator(".challenge__actions")).to_have_count(0)
    assert_accessible(fay, f"an expired challenge ({size})")


# ------------------------------------------------------------------ a block


def chat(page: Page, text: str) -> None:
    form = page.locator("#chat-log-players + form")
    form.locator("input[name=text]").fill(text)
    form.get_by_role("button", name="Send").click()
    expect(form.locator("input[name=text]")).to_have_value("")


def test_a_block_refuses_the_challenge_and_hides_the_chat_at_a_third_persons_table(
    tables_site, make_context, artifacts
) -> None:
    """gil (phone) blocks hal (laptop); ivy (laptop) hosts the table they both sit at."""
    base = tables_site.url
    gil_name, hal_name, ivy_name = (unique_name(who) for who in ("gil", "hal", "ivy"))
    gil_context, gil = person(make_context, base, gil_name, PHONE, True)
    _context, hal = person(make_context, base, hal_name)
    _context, ivy = person(make_context, base, ivy_name)

    table_id = open_table(ivy, base, "Three friends", seats=3)
    take_seat(gil, base, table_id)
    take_seat(hal, base, table_id)
    start_game(ivy, gil, hal)
    chat(hal, "hello before")
    for page in (gil, ivy):
        expect(page.locator("#chat-log-players")).to_contain_text("hello before", timeout=TIMEOUT)

    # gil blocks hal from hal's profile, in another page of his.
    profile = gil_context.new_page()
    profile.goto(f"{base}/players/{hal_name}/")
    profile.get_by_role("button", name="Block", exact=True).click()
    expect(profile.locator(".messages")).to_contain_text(f"You blocked {hal_name}")
    expect(profile.locator(".profile__people")).to_contain_text("You blocked this player.")
    assert_accessible(profile, "the profile of someone one blocked (phone)")
    profile.close()

    # At the table: hal's lines are gone for gil, and still there for ivy and hal. Each line
    # of hal's is sent before one of ivy's that gil's page does show.
    gil.reload()
    expect(gil.locator(HAND_CARDS)).to_have_count(8, timeout=TIMEOUT)
    expect(gil.locator("#chat-log-players")).not_to_contain_text("hello before")
    wait_for_sockets(gil, 2)
    chat(ivy, "ivy here")
    expect(gil.locator("#chat-log-players")).to_contain_text("ivy here", timeout=TIMEOUT)
    chat(hal, "hello after")
    expect(ivy.locator("#chat-log-players")).to_contain_text("hello after", timeout=TIMEOUT)
    chat(ivy, "ivy again")
    expect(gil.locator("#chat-log-players")).to_contain_text("ivy again", timeout=TIMEOUT)
    expect(gil.locator("#chat-log-players")).not_to_contain_text("hello")
    for text in ("hello before", "ivy here", "hello after", "ivy again"):
        expect(hal.locator("#chat-log-players")).to_contain_text(text, timeout=TIMEOUT)
    screenshot(gil, artifacts, "friends-tables-chat-blocked-phone")

    # hal's challenge to gil is refused, in words that do not say who blocked whom.
    send_challenge(hal, base, [gil_name], seats=2)
    form = hal.locator("main form")
    expect(form).to_contain_text(f"{gil_name} is not taking challenges from you.")
    assert hal.url == base + "/challenges/new/"
    assert_accessible(hal, "a refused challenge (laptop)")
    for page, where in (
        (hal, "/challenges/new/"),
        (hal, f"/players/{gil_name}/"),
        (hal, "/notifications/"),
        (hal, f"/tables/{table_id}/"),
    ):
        if where != "/challenges/new/":
            page.goto(base + where)
        assert not re.search(r"blocked", page.locator("main").inner_text(), re.IGNORECASE), where
    screenshot(hal, artifacts, "friends-tables-refused-laptop")
