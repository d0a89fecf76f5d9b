"""The reference bot client (clients/taki_bot.py) on the real site, served by Daphne: a person
makes a token on their tokens page, the client turns the account into a BOT and accepts the
challenge a person sends it from the browser, and the two play a game to its end, the person
clicking, the BOT through the API; then two reference clients play each other. Both games'
records verify. Screenshots: test-artifacts/e2e-api-*.png.
"""

from __future__ import annotations

import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from clients.taki_bot import Api, Client
from tests.e2e.conftest import LAPTOP, PHONE
from tests.e2e.pages import HAND, RESULT, TIMEOUT, sign_up, unique_name, version
from tests.e2e.rig import rig
from tests.e2e.site_server import ROOT, SiteServer

pytestmark = pytest.mark.e2e

NUMBERS = ["yellow:1", "yellow:3", "yellow:4", "yellow:5", "yellow:6", "yellow:7", "yellow:8"]
# Seat 0 (the challenger) opens with a red 3 on the red 9; seat 1 answers with a red TAKI run
# that empties its hand (R14, R21).
HANDS = [
    ["red:3", *NUMBERS],
    ["red:taki", "red:1", "red:4", "red:5", "red:6", "red:7", "red:8", "red:9"],
]


@pytest.fixture(scope="module")
def api_site(tmp_path_factory) -> Iterator[SiteServer]:
    server = SiteServer(tmp_path_factory.mktemp("api-site"))
    server.prepare()
    server.start()
    yield server
    server.stop()


class DealtClient(Client):
    """The reference client, the game it is sent to dealt the test's hands before it plays."""

    def __init__(self, api: Api, site: SiteServer, **options: Any) -> None:
        super().__init__(api, **options)
        self.site = site
        self.dealt = threading.Event()

    def start(self, table_id: int) -> None:
        rig(self.site, table_id, HANDS, leading="red:9", first=0)
        self.dealt.set()
        super().start(table_id)


def token_from_the_page(context: BrowserContext, base: str, username: str) -> tuple[Page, str]:
    """Sign ``username`` up, and make a token of every scope on their tokens page."""
    page = sign_up(context, base, username)
    page.goto(base + "/account/")
    page.get_by_role("link", name="Personal access tokens").click()
    page.get_by_label("Name").fill("reference client")
    for box in page.locator("input[name=scopes]").all():
        box.check()
    page.get_by_role("button", name="Make the token").click()
    bearer = page.locator("[data-bearer]").inner_text()
    assert bearer.startswith("taki_")
    expect(page.locator("[data-list=tokens] li")).to_have_count(1)
    return page, bearer


def run_in_thread(client: Client) -> threading.Thread:
    thread = threading.Thread(target=client.run, daemon=True)
    thread.start()
    return thread


def verified(site: SiteServer, table_id: int) -> bool:
    """The table's game checked by ``history.verify_game`` on the site's own database."""
    code = (
        "import django, sys; django.setup();"
        "from games.models import Game; from games.services.history import verify_game;"
        f"sys.exit(0 if verify_game(Game.objects.get(table_id={table_id})) else 1)"
    )
    env = {**site.env, "DJANGO_SETTINGS_MODULE": "taki_site.settings"}
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env).returncode == 0


def test_a_person_in_the_browser_plays_the_reference_bot(api_site, make_context, artifacts):
    base = api_site.url
    bot_name, person_name = unique_name("bot"), unique_name("ana")
    tokens_page, bearer = token_from_the_page(make_context(PHONE, phone=True), base, bot_name)
    tokens_page.screenshot(path=str(artifacts / "e2e-api-tokens-phone.png"), full_page=True)
    api = Api(base, bearer)
    assert api.post("/api/bot/account/upgrade")["bot"] is True
    client = DealtClient(api, api_site, games=1, seed=1)
    thread = run_in_thread(client)

    person = sign_up(make_context(LAPTOP), base, person_name)
    person.goto(f"{base}/players/{bot_name}/")
    expect(person.locator("h1 [data-bot-account]")).to_have_text("BOT")
    person.get_by_role("link", name="Challenge", exact=True).click()
    form = person.locator("main form")
    form.get_by_label("Casual: for fun, no rating changes").check()
    form.get_by_role("button", name="Send the challenge").click()
    # The client accepts at once. The site socket sends the page to the table; an answer made
    # before the challenge page's socket opened is not pushed, and the page shows the way to
    # the table once it is loaded again.
    at_table = re.compile(r"/tables/\d+/$")
    try:
        expect(person).to_have_url(at_table, timeout=3000)
    except AssertionError:
        person.reload()
        person.get_by_role("link", name="Go to the table").click()
        expect(person).to_have_url(at_table, timeout=TIMEOUT)
    table_id = int(re.search(r"/tables/(\d+)/", person.url).group(1))
    assert client.dealt.wait(TIMEOUT / 1000)
    person.reload()
    expect(person.locator(f"{HAND} [data-card]")).to_have_count(8, timeout=TIMEOUT)
    assert version(person) == 0

    person.locator(f"{HAND} li[data-card='red:3'] button").click()
    # The BOT answers through the API with its whole TAKI run, and wins.
    expect(person.locator(RESULT).locator("h2")).to_have_text(f"{bot_name} wins!", timeout=TIMEOUT)
    person.screenshot(path=str(artifacts / "e2e-api-person-vs-bot.png"), full_page=True)
    thread.join(TIMEOUT / 1000)
    assert not thread.is_alive()
    assert [game["table"] for game in client.finished] == [table_id]
    assert verified(api_site, table_id)
    # The record, as anyone exports it: the BOT's moves are in it.
    [(game_id,)] = api_site.query("SELECT id FROM games_game WHERE table_id = ?", (table_id,))
    record = Api(base, bearer).get(f"/api/games/{game_id}")
    assert record["result"]["winner_name"] == bot_name
    assert len(record["actions"]) == 9


def test_two_reference_clients_play_each_other(api_site, make_context):
    base = api_site.url
    names = [unique_name("botA"), unique_name("botB")]
    bearers = [token_from_the_page(make_context(), base, name)[1] for name in names]
    apis = [Api(base, bearer) for bearer in bearers]
    for api in apis:
        api.post("/api/bot/account/upgrade")
    clients = [DealtClient(api, api_site, games=1, seed=index) for index, api in enumerate(apis)]
    threads = [run_in_thread(client) for client in clients]
    made = apis[0].post(f"/api/challenge/{names[1]}", {"seats": 2})
    assert made["invited"][0]["bot"] is True
    for thread in threads:
        thread.join(TIMEOUT / 1000)
        assert not thread.is_alive()
    [table_a], [table_b] = ([game["table"] for game in client.finished] for client in clients)
    assert table_a == table_b
    [(winner,)] = api_site.query("SELECT winner FROM games_game WHERE table_id = ?", (table_a,))
    assert winner == 1  # the challenged BOT's TAKI run
    assert verified(api_site, table_a)
