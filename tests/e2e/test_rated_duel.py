"""In a real browser: two signed-up people play a rated duel to its end, each seeing their
rating change on the end screen the moment the last card is played, then on the finished
game's page and on their profiles. The numbers are the ones the site stored (RatingChange).

Screenshots: test-artifacts/e2e-rated-duel-*.png.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import LAPTOP, PHONE
from tests.e2e.pages import (
    HAND,
    RESULT,
    TIMEOUT,
    mark_page,
    not_reloaded,
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

NUMBERS = ["yellow:1", "yellow:3", "yellow:4", "yellow:5", "yellow:6", "yellow:7", "yellow:8"]
# Seat 1 (the guest) opens with a red 3 on the red 9; seat 0 (the host) answers with a red TAKI
# run that empties their hand (R14, R21).
HANDS = [
    ["red:taki", "red:1", "red:4", "red:5", "red:6", "red:7", "red:8", "red:9"],
    ["red:3", *NUMBERS],
]
RUN = HANDS[0]


def minus(delta: int) -> str:
    """A change as the site writes it: ``+14``, ``−9`` (a true minus sign)."""
    return f"+{delta}" if delta > 0 else f"\u2212{-delta}"


def play_card(page: Page, code: str) -> None:
    """Click the card ``code`` of the hand and wait until the move is on the page."""
    moves = version(page)
    page.locator(f"{HAND} li[data-card='{code}'] button").click()
    wait_for_version(page, moves + 1)
    assert not page.locator("#flash").inner_text(), page.locator("#flash").inner_text()


def stored_changes(site, table_id: int) -> dict[str, tuple[int, int, float]]:
    """Each player's stored change of the table's game: (shown before, shown after, sigma)."""
    rows = site.query(
        "SELECT u.username, c.shown_before, c.shown_after, c.sigma_after"
        " FROM games_ratingchange c JOIN auth_user u ON u.id = c.user_id"
        " JOIN games_game g ON g.id = c.game_id WHERE g.table_id = ?",
        (table_id,),
    )
    return {name: (before, after, sigma) for name, before, after, sigma in rows}


def label(after: int, sigma: float) -> str:
    """The rating as the site shows it: provisional (a question mark) while sigma is above 7."""
    return f"{after}?" if sigma > 7 else str(after)


def test_two_people_play_a_rated_duel_and_each_sees_both_rating_changes(
    site_server, make_context, artifacts
) -> None:
    base = site_server.url
    ana, ben = unique_name("ana"), unique_name("ben")
    host = sign_up(make_context(LAPTOP), base, ana)
    guest = sign_up(make_context(PHONE, phone=True), base, ben)

    # A public table of signed-up people, without bots: rated, as the form offers by default.
    table_id = open_table(host, base, f"Rated {ana}")
    assert site_server.query("SELECT rated FROM games_table WHERE id = ?", (table_id,)) == [(1,)]
    take_seat(guest, base, table_id)
    with host.expect_navigation(timeout=TIMEOUT):
        host.get_by_role("button", name="Start the game").click()
    assert table_id_of(host) == table_id
    assert rig(site_server, table_id, HANDS, leading="red:9", first=1)
    for page in (host, guest):
        page.reload()
        # Both newcomers: their rating beside their name, provisional.
        expect(page.locator("#table-seats .seat__rating")).to_have_text(["1500?", "1500?"])
        mark_page(page)

    play_card(guest, "red:3")
    wait_for_version(host, 1)
    for code in RUN:
        if code == "red:8":  # the next card leaves one: "last card!"
            host.locator("#say-last-card").click()
        play_card(host, code)

    # The last card's push carries both changes to both pages, without a reload.
    changes = stored_changes(site_server, table_id)
    assert set(changes) == {ana, ben}
    (ana_before, ana_after, ana_sigma), (ben_before, ben_after, ben_sigma) = (
        changes[ana],
        changes[ben],
    )
    assert ana_before == ben_before == 1500
    assert ana_after > 1500 > ben_after
    ana_line = f"{ana}: {minus(ana_after - ana_before)}, now {label(ana_after, ana_sigma)}"
    ben_line = f"{ben}: {minus(ben_after - ben_before)}, now {label(ben_after, ben_sigma)}"
    for page, heading in ((host, "You win!"), (guest, f"{ana} wins!")):
        result = page.locator(RESULT)
        expect(result.locator("h2")).to_have_text(heading, timeout=TIMEOUT)
        expect(result.locator(".result__ratings li")).to_have_text([ana_line, ben_line])
        assert not_reloaded(page), "the end screen came by reloading the page, not by a push"
    host.screenshot(path=str(artifacts / "e2e-rated-duel-desktop-end.png"), full_page=True)
    guest.screenshot(path=str(artifacts / "e2e-rated-duel-phone-end.png"), full_page=True)

    # The finished game's page: both changes, and the ratings they led to.
    game_id = site_server.query("SELECT id FROM games_game WHERE table_id = ?", (table_id,))[0][0]
    guest.goto(f"{base}/games/{game_id}/")
    expect(guest.locator("[data-ratings]")).to_have_text(
        f"{ana} {minus(ana_after - ana_before)} (now {ana_after}), "
        f"{ben} {minus(ben_after - ben_before)} (now {ben_after})"
    )
    guest.screenshot(path=str(artifacts / "e2e-rated-duel-phone-game.png"), full_page=True)

    # Each profile: the new duel rating, one rated game, and the game in its history.
    for page, name, after, sigma in (
        (host, ana, ana_after, ana_sigma),
        (guest, ben, ben_after, ben_sigma),
    ):
        page.goto(f"{base}/players/{name}/")
        expect(page.locator("[data-rating='duel']")).to_have_text(label(after, sigma))
        expect(page.locator(".rating").first).to_contain_text("1 rated game")
        history = page.locator(".rating-history tbody tr")
        expect(history).to_have_count(1)
        expect(history.first).to_contain_text(f"#{game_id}")
        expect(page.locator("svg.rating-chart")).to_have_count(1)
    host.screenshot(path=str(artifacts / "e2e-rated-duel-desktop-profile.png"), full_page=True)
