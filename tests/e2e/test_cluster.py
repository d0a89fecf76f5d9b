"""The site as a server runs it (`make run-cluster`): nginx in front of two Daphne processes,
PostgreSQL, Redis and the clock. Two players whose pages come from different processes play a
game through the proxy; mid-game the process that holds the table's sockets restarts, and
their pages reconnect by themselves and play on to the end, every move in the log. The pages
name their static files after their contents, which nginx lets a browser keep for good.

Needs nginx, PostgreSQL and redis-server: skipped without them, except under CI.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from glob import glob
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.e2e.pages import (
    HAND_CARDS,
    RESULT,
    TIMEOUT,
    hand,
    has_controls,
    mark_page,
    not_reloaded,
    open_table,
    sign_up,
    start_game,
    take_seat,
    take_turn,
    unique_name,
    version,
    wait_for_version,
)
from tests.e2e.rig import rigged_deck
from tests.e2e.site_server import ROOT

pytestmark = pytest.mark.e2e

LAUNCHER = ROOT / ".ci" / "cluster.py"
START_TIMEOUT = 90.0
SERVED_BY = "x-served-by"
SERVICE_RESTART = 1012
# What nginx says of a static file named after its contents, and of any other.
KEPT_FOR_GOOD = "public, max-age=31536000, immutable"
ASKED_AGAIN = "no-cache"
NAMED_FILE = re.compile(r'(?:src|href)="(/static/[^"]+\.[0-9a-f]{12}\.(?:js|css|svg))"')

# A short game where both play every turn: red on red, alice (seat 0) first; she empties her
# hand with her eighth card.
HANDS = [
    ["red:1", "red:3", "red:4", "red:5", "red:6", "red:7", "red:8", "red:1"],
    ["red:3", "red:4", "red:5", "red:6", "red:7", "red:8", "red:9", "yellow:1"],
]
LEADING = "red:9"
RESTART_AFTER_MOVES = 5
MAX_MOVES = 40

# What the table's socket does: opens, and closes with which code.
# The table's socket, not the site socket every signed-in page holds as well: the element
# that connects it names /ws/tables/.
TABLE_SOCKET = "(event) => event.target.closest(\"[ws-connect^='/ws/tables/']\")"

RECORD_SOCKET = f"""() => {{
  const table = {TABLE_SOCKET};
  window.__e2eSocket = {{opened: 0, closed: []}};
  document.body.addEventListener("htmx:wsOpen",
    (event) => {{ if (table(event)) window.__e2eSocket.opened += 1; }});
  document.body.addEventListener("htmx:wsClose",
    (event) => {{ if (table(event)) window.__e2eSocket.closed.push(event.detail.event.code); }});
}}"""


# Every page counts the times its table's socket opened, from its first script on.
COUNT_SOCKETS = f"""document.addEventListener("htmx:wsOpen", (event) => {{
  if (({TABLE_SOCKET})(event)) window.__e2eSocketsOpened = (window.__e2eSocketsOpened || 0) + 1;
}});"""


def wait_for_socket(page: Page, what: str) -> None:
    """Wait until ``page``'s socket has opened: nothing is pushed to a page before."""
    try:
        page.wait_for_function("() => window.__e2eSocketsOpened >= 1", timeout=TIMEOUT, polling=100)
    except PlaywrightTimeoutError:
        scripts = page.evaluate("() => typeof window.htmx === 'undefined'")
        why = "htmx is not loaded: are the static files served?" if scripts else "htmx is loaded"
        raise AssertionError(
            f"{what}: its socket did not open within {TIMEOUT / 1000:.0f} s ({why})"
        ) from None


def _missing() -> list[str]:
    missing = [name for name in ("nginx", "redis-server") if not _installed(name)]
    if not glob("/usr/lib/postgresql/*/bin/initdb"):
        missing.append("postgresql")
    return missing


def _installed(program: str) -> bool:
    return shutil.which(program) is not None or Path("/usr/sbin", program).exists()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Cluster:
    folder: Path
    launcher: subprocess.Popen[bytes]

    @property
    def state(self) -> dict[str, Any]:
        return json.loads((self.folder / "cluster.json").read_text())

    @property
    def url(self) -> str:
        return self.state["url"]

    def web_process(self, port: int) -> dict[str, Any]:
        return next(web for web in self.state["web"] if web["port"] == port)

    def query(self, sql: str, params: tuple = ()) -> list[tuple]:
        import psycopg

        with psycopg.connect(self.state["database_url"], autocommit=True) as connection:
            return connection.execute(sql, params).fetchall()

    def manage(self, *command: str) -> str:
        env = {
            **os.environ,
            "DATABASE_URL": self.state["database_url"],
            "REDIS_URL": self.state["redis_url"],
        }
        done = subprocess.run(
            [sys.executable, "manage.py", *command],
            cwd=ROOT,
            env=env,
            check=True,
            capture_output=True,
            text=True,
        )
        return done.stdout

    def metrics(self, port: int) -> tuple[float, dict[str, float]]:
        """What a Daphne process's /metrics adds up over every process: the moves applied, the
        sockets open per process id."""
        from prometheus_client.parser import text_string_to_metric_families

        text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10).read()
        families = {family.name: family for family in text_string_to_metric_families(text.decode())}
        (applied,) = families["taki_moves_applied"].samples
        sockets = {
            int(sample.labels["pid"]): sample.value
            for sample in families["taki_sockets_open"].samples
        }
        return applied.value, sockets

    def logs(self) -> str:
        return "\n".join(
            f"--- {path.name}\n{path.read_text()[-2000:]}"
            for path in sorted(self.folder.glob("*.log"))
        )


@pytest.fixture(scope="module")
def cluster(tmp_path_factory) -> Iterator[Cluster]:
    """The cluster `make run-cluster` starts (.ci/cluster.py), on a free port; stopped (and
    checked to stop) at the end."""
    missing = _missing()
    if missing:
        reason = f"not installed: {', '.join(missing)} (make system-deps, as root)"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    folder = tmp_path_factory.mktemp("cluster")
    env = {key: value for key, value in os.environ.items() if key not in ("DATABASE_URL",)}
    with (folder / "launcher.log").open("wb") as log:
        launcher = subprocess.Popen(
            [sys.executable, str(LAUNCHER), "--port", str(_free_port()), "--folder", str(folder)],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    cluster = Cluster(folder, launcher)
    deadline = time.monotonic() + START_TIMEOUT
    while not (folder / "cluster.json").exists():
        if launcher.poll() is not None or time.monotonic() > deadline:
            launcher.kill()
            pytest.fail("the cluster did not start:\n" + cluster.logs())
        time.sleep(0.2)
    yield cluster
    launcher.send_signal(signal.SIGTERM)
    launcher.wait(timeout=60)
    assert launcher.returncode == 0, cluster.logs()


def served_by(page: Page, path: str) -> int:
    """Load ``path`` in ``page``; the port of the Daphne process that served it."""
    response = page.goto(path)
    assert response is not None and response.ok
    return int(response.headers[SERVED_BY].split()[0].rsplit(":", 1)[1])


def rig(cluster: Cluster, table_id: int) -> None:
    """Deal HANDS at the table's game before its first move (as tests/e2e/rig.py does on
    SQLite)."""
    from psycopg.types.json import Jsonb

    from games.engine import GameState

    (seed, tournament) = cluster.query(
        "SELECT seed, tournament FROM games_game WHERE table_id = %s", (table_id,)
    )[0]
    deck = rigged_deck(HANDS, LEADING)
    engine = GameState(deck, len(HANDS), 0, seed, bool(tournament))
    cluster.query(
        "UPDATE games_game SET deck = %s, first_player = 0, state = %s, next_due = NULL,"
        " turn_deadline = NULL WHERE table_id = %s AND version = 0 RETURNING id",
        (Jsonb(deck), Jsonb(engine.to_snapshot()), table_id),
    )


def play_one_move(pages: list[Page]) -> None:
    """Whoever has controls takes a turn; every page follows."""
    actors = [page for page in pages if has_controls(page)]
    assert len(actors) == 1, f"{len(actors)} pages offer a move"
    moves = version(actors[0])
    take_turn(actors[0])
    for page in pages:
        wait_for_version(page, moves + 1)


def test_a_game_through_the_proxy_survives_a_restart_of_its_table_s_process(
    cluster, new_context, console
) -> None:
    # While nginx finds no process for a reconnecting socket (the table's, or the page's site
    # socket) the browser may say so.
    console.expect(r"WebSocket connection to '\S+/ws/(tables/\d+|site)/' failed")
    console.expect(r": \[object Event\]$")
    base = cluster.url
    contexts = [new_context(), new_context()]
    for context in contexts:
        context.add_init_script(COUNT_SOCKETS)
    alice = sign_up(contexts[0], base, unique_name("alice"))
    bob = sign_up(contexts[1], base, unique_name("bob"))

    # The pages that are not a table's spread over the processes, round-robin: alice's and
    # bob's lobbies come from different ones. Between two of bob's lobbies nginx passes on
    # the lobby's socket and one or two more requests: whatever else the browser asks for on
    # the way, one of the two is an odd count, and the next lobby comes from the other process.
    alice_lobby = served_by(alice, base + "/")
    bob_lobbies = []
    for attempt in range(4):
        bob_lobbies.append(served_by(bob, base + "/"))
        for _ in range(1 + attempt % 2):
            bob.request.get(base + "/healthz")
    assert {alice_lobby, *bob_lobbies} == {web["port"] for web in cluster.state["web"]}
    assert len(set(bob_lobbies)) == 2, bob_lobbies

    # Every page of a table comes from the one process its sockets go to.
    table_id = open_table(alice, base, f"Cluster {unique_name('t')}")
    take_seat(bob, base, table_id)
    # "Start the game" comes to the host's page over its socket, once bob sits down.
    wait_for_socket(alice, "the host's table page")
    start_game(alice, bob)
    rig(cluster, table_id)
    holders = {served_by(page, f"{base}/tables/{table_id}/") for page in (alice, bob)}
    assert len(holders) == 1, holders
    (holder,) = holders
    pages = [alice, bob]
    for page in pages:
        expect(page.locator(HAND_CARDS)).to_have_count(8, timeout=TIMEOUT)
        mark_page(page)
        page.evaluate(RECORD_SOCKET)
    assert sorted(hand(alice)) == sorted(HANDS[0])

    for _ in range(RESTART_AFTER_MOVES):
        play_one_move(pages)
    moves = version(alice)
    hands = [sorted(hand(page)) for page in pages]
    acting = [has_controls(page) for page in pages]

    # Its moves were counted by the table's process, with both table sockets open there (and
    # none, one or both of the pages' site sockets, which nginx spreads round-robin).
    before = cluster.web_process(holder)
    applied, sockets = cluster.metrics(holder)
    assert applied == moves
    assert 2 <= sockets.get(before["pid"], 0) <= 4, sockets

    # The table's process restarts: SIGTERM, and the cluster starts it again.
    os.kill(before["pid"], signal.SIGTERM)
    for page in pages:
        page.wait_for_function("() => window.__e2eSocket.opened >= 1", timeout=TIMEOUT, polling=100)
    deadline = time.monotonic() + 30
    while cluster.web_process(holder)["restarts"] == before["restarts"]:
        assert time.monotonic() < deadline, "the cluster did not start the process again"
        time.sleep(0.2)
    urllib.request.urlopen(f"http://127.0.0.1:{holder}/healthz", timeout=5)

    # Every process still adds up the moves the stopped one counted; its sockets, gone with it,
    # are no longer counted.
    for web in cluster.state["web"]:
        applied, sockets = cluster.metrics(web["port"])
        assert applied == moves, web
        assert before["pid"] not in sockets, sockets
    assert sum(cluster.metrics(holder)[1].values()) >= 2  # the pages' sockets, open again

    for page, cards, acted in zip(pages, hands, acting, strict=True):
        assert page.evaluate("() => window.__e2eSocket.closed")[:1] == [SERVICE_RESTART]
        assert not_reloaded(page), "the page reloaded instead of reconnecting"
        assert version(page) == moves
        assert sorted(hand(page)) == cards
        assert has_controls(page) == acted

    # They play on to the end over the new sockets.
    while not any(page.locator(RESULT).count() for page in pages):
        assert version(alice) < MAX_MOVES, "no winner"
        play_one_move(pages)
    expect(alice.locator(RESULT)).to_contain_text("You win!", timeout=TIMEOUT)
    expect(bob.locator(RESULT)).to_contain_text("wins!", timeout=TIMEOUT)
    for page in pages:
        assert not_reloaded(page)

    # Every move is in the log, its hash chain whole, replaying to the stored game.
    ((stored_version, winner),) = cluster.query(
        "SELECT version, winner FROM games_game WHERE table_id = %s", (table_id,)
    )
    ((logged,),) = cluster.query(
        "SELECT COUNT(*) FROM games_move JOIN games_game ON games_move.game_id = games_game.id"
        " WHERE games_game.table_id = %s",
        (table_id,),
    )
    assert winner == 0
    assert logged == stored_version == version(alice) == version(bob)
    verified = cluster.manage(
        "shell",
        "-c",
        "from games.models import Game; from games.services.history import verify_game;"
        f" print(verify_game(Game.objects.get(table_id={table_id})))",
    )
    assert verified.strip().splitlines()[-1] == "True", verified


def test_the_pages_name_static_files_that_nginx_lets_a_browser_keep_for_good(cluster) -> None:
    page = urllib.request.urlopen(cluster.url + "/accounts/login/", timeout=10).read().decode()
    named = NAMED_FILE.findall(page)
    assert {"css", "js", "svg"} <= {path.rsplit(".", 1)[1] for path in named}, named
    assert '"/static/js/menu.js"' not in page

    for path in named:
        sent = urllib.request.urlopen(
            urllib.request.Request(cluster.url + path, headers={"Accept-Encoding": "gzip"}),
            timeout=10,
        )
        assert sent.headers["Cache-Control"] == KEPT_FOR_GOOD, path
        assert sent.headers["Content-Encoding"] == "gzip", path  # collectstatic's .gz, as it is
    by_its_own_name = urllib.request.urlopen(cluster.url + "/static/js/menu.js", timeout=10)
    assert by_its_own_name.headers["Cache-Control"] == ASKED_AGAIN


def test_the_cluster_ran_the_daily_jobs_of_deploy_s_timers_as_it_started(cluster) -> None:
    ran = (cluster.folder / "jobs.log").read_text()

    assert "--- taki-clearsessions: manage.py clearsessions\n" in ran
    assert "--- taki-stale-guests: manage.py delete_stale_guests\n" in ran
    assert "deleted 0 guest account(s)" in ran
