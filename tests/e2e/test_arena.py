"""In a real browser: four people join a short arena of duels and play two rounds, each sent
from table to table by the site; someone watching the arena's page sees the standings move
without a reload, and the podium when the time is up.

The games are dealt chosen hands (tests/e2e/rig.py): seat 1 opens with a red 3 on the red 9,
and seat 0 answers with a red TAKI run that empties their hand (R14, R21).

Screenshots: test-artifacts/e2e-arena-*.png.
"""

from __future__ import annotations

import re
import sqlite3
from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.axe import assert_accessible
from tests.e2e.conftest import LAPTOP, PHONE
from tests.e2e.pages import (
    HAND,
    TIMEOUT,
    mark_page,
    not_reloaded,
    sign_up,
    unique_name,
    version,
    wait_for_version,
)
from tests.e2e.rig import rig

pytestmark = pytest.mark.e2e

NUMBERS = ["yellow:1", "yellow:3", "yellow:4", "yellow:5", "yellow:6", "yellow:7", "yellow:8"]
HANDS = [
    ["red:taki", "red:1", "red:4", "red:5", "red:6", "red:7", "red:8", "red:9"],
    ["red:3", *NUMBERS],
]
TABLE_URL = re.compile(r"/tables/(\d+)/")


def stamp(moment: datetime) -> str:
    """A time as Django stores it in SQLite (UTC, no zone)."""
    return moment.astimezone(UTC).replace(tzinfo=None).isoformat(sep=" ")


def write(site, sql: str, params: tuple = ()) -> int:
    connection = sqlite3.connect(site.db_path, timeout=10)
    try:
        with connection:
            cursor = connection.execute(sql, params)
            return cursor.lastrowid or cursor.rowcount
    finally:
        connection.close()


def make_arena(site, name: str) -> int:
    """A site arena of duels, untimed, casual, starting in an hour (moved to now below)."""
    now = datetime.now(UTC)
    starts = now + timedelta(hours=1)
    return write(
        site,
        "INSERT INTO arenas_arena (name, seats, turn_seconds, tournament, rated, bots_allowed,"
        " minutes, starts_at, ends_at, status, private, invite_token, reminded, created_at)"
        " VALUES (?, 2, NULL, 0, 0, 0, 30, ?, ?, 'scheduled', 0, ?, 1, ?)",
        (name, stamp(starts), stamp(starts + timedelta(minutes=30)), name, stamp(now)),
    )


def play_card(page: Page, code: str) -> None:
    moves = version(page)
    page.locator(f"{HAND} li[data-card='{code}'] button").click()
    wait_for_version(page, moves + 1)


def sent_to_tables(site, pages: dict[str, Page], seen: set[int]) -> list[tuple[Page, Page]]:
    """Wait until every page was sent to a new table; each table's (seat 0, seat 1) pages."""
    tables: dict[int, dict[int, Page]] = {}
    for name, page in pages.items():
        page.wait_for_url(
            lambda url: (
                bool(TABLE_URL.search(url)) and int(TABLE_URL.search(url).group(1)) not in seen
            ),
            timeout=TIMEOUT,
        )
        table_id = int(TABLE_URL.search(page.url).group(1))
        [(position,)] = site.query(
            "SELECT s.position FROM games_seat s JOIN auth_user u ON u.id = s.user_id"
            " WHERE s.table_id = ? AND u.username = ?",
            (table_id, name),
        )
        tables.setdefault(table_id, {})[position] = page
    seen |= set(tables)
    return [(seats[0], seats[1]) for seats in tables.values()]


def play_round(site, pairs: list[tuple[Page, Page]]) -> None:
    """Each table's seat 1 opens, its seat 0 goes out with a TAKI run."""
    for first, second in pairs:
        table_id = int(TABLE_URL.search(first.url).group(1))
        assert rig(site, table_id, HANDS, leading="red:9", first=1)
        for page in (first, second):
            page.reload()
    for winner, loser in pairs:
        play_card(loser, "red:3")
        wait_for_version(winner, 1)
        for code in HANDS[0]:
            if code == "red:8":
                winner.locator("#say-last-card").click()
            play_card(winner, code)


def test_four_people_play_an_arena_and_see_the_standings_and_the_podium_live(
    site_server, make_context, artifacts
) -> None:
    base = site_server.url
    names = [unique_name(prefix) for prefix in ("ana", "ben", "cy", "dee")]
    arena_id = make_arena(site_server, unique_name("arena"))
    arena_url = f"{base}/arenas/{arena_id}/"
    pages: dict[str, Page] = {}
    for index, name in enumerate(names):
        phone = index % 2 == 1
        page = sign_up(make_context(PHONE if phone else LAPTOP, phone=phone), base, name)
        page.goto(arena_url)
        page.get_by_role("button", name="Join the arena").click()
        expect(page.locator(f"tr[data-player='{name}']")).to_have_attribute("aria-current", "true")
        pages[name] = page
    assert_accessible(pages[names[0]], "the arena page")
    pages[names[0]].screenshot(path=str(artifacts / "e2e-arena-desktop-joined.png"))

    watcher = make_context(LAPTOP).new_page()  # a visitor: the standings, and nothing to play
    watcher.goto(arena_url)
    expect(watcher.locator("#arena-standings caption")).to_have_text("Standings: 4 players")
    mark_page(watcher)

    # The start: every joined person online is sent to their first table.
    write(
        site_server,
        "UPDATE arenas_arena SET starts_at = ? WHERE id = ?",
        (stamp(datetime.now(UTC)), arena_id),
    )
    seen: set[int] = set()
    first_round = sent_to_tables(site_server, pages, seen)
    assert len(first_round) == 2
    expect(watcher.locator(".arena-tables li")).to_have_count(2, timeout=TIMEOUT)
    # The time left counts down on the page between pushes (js/arena.js).
    clock = watcher.locator("#arena-standings [data-clock]")
    counted = clock.inner_text()
    expect(clock).not_to_have_text(counted, timeout=TIMEOUT)
    play_round(site_server, first_round)

    winners = [name for name, page in pages.items() if any(page is w for w, _l in first_round)]
    for name in names:
        points = "1" if name in winners else "0"
        expect(watcher.locator(f"tr[data-player='{name}'] [data-games]")).to_have_text(
            "1", timeout=TIMEOUT
        )
        expect(watcher.locator(f"tr[data-player='{name}'] [data-points]")).to_have_text(points)
    assert not_reloaded(watcher), "the standings came by reloading the page, not by a push"

    # Round two: the two winners meet, the two others too (by score, kept apart).
    second_round = sent_to_tables(site_server, pages, seen)
    met = [{n for n, p in pages.items() if p in pair} for pair in second_round]
    assert set(winners) in met
    play_round(site_server, second_round)
    for name in names:
        expect(watcher.locator(f"tr[data-player='{name}'] [data-games]")).to_have_text(
            "2", timeout=TIMEOUT
        )
    champion = next(
        n for n, p in pages.items() if any(p is w for w, _l in second_round) and n in winners
    )
    expect(watcher.locator(f"tr[data-player='{champion}'] [data-points]")).to_have_text("2")
    expect(watcher.locator("tbody tr").first).to_have_attribute("data-player", champion)

    # The time is up: the podium, pushed.
    write(
        site_server,
        "UPDATE arenas_arena SET ends_at = ? WHERE id = ?",
        (stamp(datetime.now(UTC)), arena_id),
    )
    podium = watcher.locator(".arena-podium li")
    expect(podium).to_have_count(3, timeout=TIMEOUT)
    expect(podium.first).to_contain_text(champion)
    assert not_reloaded(watcher)
    watcher.screenshot(path=str(artifacts / "e2e-arena-desktop-podium.png"), full_page=True)
    phone = pages[names[1]]
    phone.goto(arena_url)
    expect(phone.locator(".arena-podium li")).to_have_count(3)
    assert_accessible(phone, "the finished arena on a phone")
    phone.screenshot(path=str(artifacts / "e2e-arena-phone-podium.png"), full_page=True)
