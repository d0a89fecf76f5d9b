"""The simulated players: one asyncio process, real HTTP and websockets (aiohttp).

Each client logs in through the site's log-in page; per table the host opens it, the others
join and the host starts it through the site's pages; then every client opens the table's
socket and the seated ones play what the pushed hand section offers, as htmx would send it.
When a game ends the host opens a new table and the same clients go on, so the load holds.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass

import aiohttp
from yarl import URL

from tools.loadtest.fragments import Payload, Push, read_push
from tools.loadtest.stats import SiteCounters, Window

CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
TABLE_PATH = re.compile(r"/tables/(\d+)/")
DOUBLE_SHARE = 0.02  # share of clicks sent twice in a row, the second to be refused
ACTION_ORDER = ("play", "close_taki", "last_card", "accept", "draw", "pass")
HTTP_TIMEOUT = aiohttp.ClientTimeout(total=60)
DRAIN_SECONDS = 10.0  # how long clients wait for answers to frames already sent, at the end
# After the last answer, how long to wait for a frame that a push of someone else's move made
# look answered (at a +3 several players act at once) before the sockets close on it.
SETTLE_SECONDS = 0.5
# Tables being opened, joined, started and connected to at once: with 200 tables' clients all
# doing it together, sockets waited more than Daphne's 5 s to be accepted and were reset
# before the first move (people do not all sit down in the same second).
SETUP_AT_ONCE = 16


class LoadError(RuntimeError):
    """The site answered something a browser could not go on from."""


@dataclass(frozen=True)
class Think:
    """How long a player waits once it may act: 0 (closed loop) or uniform in [low, high]."""

    low: float = 0.0
    high: float = 0.0

    @classmethod
    def parse(cls, text: str) -> Think:
        """``"0"``, ``"1.5"`` or ``"0.5-1.5"`` (seconds).

        :raises ValueError: anything else, or a negative or reversed range.
        """
        low, _, high = text.partition("-")
        think = cls(float(low), float(high or low))
        if think.low < 0 or think.high < think.low:
            raise ValueError(f"not a think time range: {text!r}")
        return think

    @property
    def closed_loop(self) -> bool:
        return self.high == 0

    def delay(self, rng: random.Random) -> float:
        return rng.uniform(self.low, self.high)


def choose(actions: Sequence[Payload], rng: random.Random) -> Payload:
    """A player's pick among the offered actions: a card if any (at random), else the first
    available of close the run, say "last card", accept, draw, pass. Quick games keep the
    benchmark playing rather than drawing."""
    for kind in ACTION_ORDER:
        options = [action for action in actions if action.get("type") == kind]
        if options:
            return rng.choice(options)
    return rng.choice(actions)


class GameRun:
    """One game at one table, as its clients see it."""

    def __init__(self, table_id: int, group: TableGroup) -> None:
        self.table_id = table_id
        self.group = group
        self.finished = asyncio.Event()
        self.closing = False  # no new moves: the run is ending


class Client:
    """One browser: its own cookies (session, CSRF), one server process, one socket at a time."""

    def __init__(
        self,
        username: str,
        base_url: str,
        connector: aiohttp.BaseConnector,
        counters: SiteCounters,
        rng: random.Random,
        think: Think,
    ) -> None:
        self.username = username
        self.base_url = base_url
        self.counters = counters
        self.rng = rng
        self.think = think
        self.window: Window | None = None
        self.steady: Window | None = None  # the window of moves alone, when there is one
        self.session = aiohttp.ClientSession(
            base_url=base_url,
            connector=connector,
            connector_owner=False,
            cookie_jar=aiohttp.CookieJar(unsafe=True),  # cookies for 127.0.0.1, an address
            timeout=HTTP_TIMEOUT,
        )
        self.seated = False
        self._reset()

    def _reset(self) -> None:
        self.pending: int | None = None  # the version of the move sent and not yet answered
        self.sent_at = 0.0
        self.awaiting_refusal = False  # the second copy of a doubled click is not refused yet
        self.acting = False
        self.latest: Push | None = None

    @property
    def idle(self) -> bool:
        return self.pending is None and not self.awaiting_refusal

    # ------------------------------------------------------------------ pages

    async def log_in(self, password: str) -> None:
        async with self.session.get("/accounts/login/") as response:
            page = await response.text()
        token = CSRF_INPUT.search(page)
        if token is None:
            raise LoadError(f"no CSRF token on the log-in page ({response.status})")
        data = {"csrfmiddlewaretoken": token[1], "username": self.username, "password": password}
        async with self.session.post("/accounts/login/", data=data, allow_redirects=False) as r:
            if r.status != 302:
                raise LoadError(f"{self.username} could not log in ({r.status})")

    async def post(self, path: str, data: dict[str, str] | None = None) -> str:
        """POST a form as the browser would (CSRF token from the cookie); return where the
        site redirects to."""
        csrf = self.session.cookie_jar.filter_cookies(URL(self.base_url)).get("csrftoken")
        if csrf is None:
            raise LoadError(f"{self.username} has no CSRF cookie")
        form = {**(data or {}), "csrfmiddlewaretoken": csrf.value}
        async with self.session.post(path, data=form, allow_redirects=False) as response:
            if response.status != 302:
                raise LoadError(f"POST {path} as {self.username}: {response.status}")
            return response.headers["Location"]

    async def open_table(self, seats: int) -> int:
        """Open a public table with no turn time and no bots; return its id."""
        location = await self.post(
            "/tables/new/",
            {
                "name": f"load {self.username}",
                "seat_count": str(seats),
                "mode": "standard",
                "turn_seconds": "",
                "bot_seats": "0",
                "visibility": "public",
            },
        )
        found = TABLE_PATH.search(location)
        if found is None:
            raise LoadError(f"opening a table led to {location}, not to a table")
        return int(found[1])

    async def join(self, table_id: int) -> None:
        await self.post(f"/tables/{table_id}/join/")

    async def start(self, table_id: int) -> None:
        await self.post(f"/tables/{table_id}/start/")

    # ------------------------------------------------------------------ the table's socket

    async def connect(self, table_id: int) -> aiohttp.ClientWebSocketResponse:
        self._reset()
        return await self.session.ws_connect(
            f"/ws/tables/{table_id}/", origin=self.base_url, max_msg_size=0
        )

    async def listen(self, ws: aiohttp.ClientWebSocketResponse, game: GameRun) -> None:
        """Read pushes until the socket closes; a seated client plays from them."""
        async for message in ws:
            if message.type != aiohttp.WSMsgType.TEXT:
                break
            now = time.monotonic()
            self.counters.pushes += 1
            if self.window is not None and now in self.window:
                self.counters.window_pushes += 1
            push = read_push(message.data, with_hand=self.seated)
            if push.status == "open":
                raise LoadError(f"table {game.table_id} was not started")
            game.group.saw(push)
            if push.finished:
                game.finished.set()
            if self.seated:
                await self._on_push(ws, push, now, game)
        if not game.closing:
            raise LoadError(f"the site closed {self.username}'s socket ({ws.close_code})")

    async def _on_push(
        self, ws: aiohttp.ClientWebSocketResponse, push: Push, now: float, game: GameRun
    ) -> None:
        if self.pending is not None and push.version is not None and push.version > self.pending:
            if self.window is not None and self.sent_at in self.window:
                self.counters.round_trips.append(now - self.sent_at)
            elif self.steady is not None and self.sent_at in self.steady:
                self.counters.steady_round_trips.append(now - self.sent_at)
            self.pending = None
        if push.refused:
            self.counters.refused += 1
            if self.awaiting_refusal:
                self.awaiting_refusal = False
                self.counters.doubled_refused += 1
            else:
                self.pending = None  # this frame's answer: refused
        if not push.has_hand:
            return  # the hand on the page is as it was (a push of the seats alone)
        self.latest = push
        if push.finished or game.closing or self.acting or not self.idle or not push.actions:
            return
        if self.think.closed_loop:
            await self._send(ws, push)
        else:
            self.acting = True
            asyncio.get_running_loop().create_task(self._act_later(ws, game))

    async def _act_later(self, ws: aiohttp.ClientWebSocketResponse, game: GameRun) -> None:
        """Open loop: think, then act on the table as it stands by then."""
        try:
            await asyncio.sleep(self.think.delay(self.rng))
            push = self.latest
            if push and push.actions and self.idle and not game.closing and not ws.closed:
                await self._send(ws, push)
        finally:
            self.acting = False

    async def _send(self, ws: aiohttp.ClientWebSocketResponse, push: Push) -> None:
        text = json.dumps(choose(push.actions, self.rng))
        self.pending = push.version
        self.sent_at = time.monotonic()
        doubled = self.rng.random() < DOUBLE_SHARE
        self.awaiting_refusal = doubled
        await ws.send_str(text)
        self.counters.sent += 1
        if doubled:  # the same click again, at once: same version, so it must be refused
            await ws.send_str(text)
            self.counters.sent += 1
            self.counters.doubled += 1

    async def close(self) -> None:
        await self.session.close()


class TableGroup:
    """The clients of one table: its players (the first is the host) and its spectators.
    Plays game after game at a new table each time, until told to stop."""

    def __init__(
        self, players: list[Client], spectators: list[Client], setup: asyncio.Semaphore
    ) -> None:
        self.players = players
        self.setup = setup  # shared by the groups: how many tables are set up at once
        self.spectators = spectators
        for player in players:
            player.seated = True
        self.ready = asyncio.Event()  # the first game's sockets are open
        self.stop = asyncio.Event()
        # Cleared while only moves are measured: a finished game keeps its sockets open and no
        # new table is opened until it is set again.
        self.opening = asyncio.Event()
        self.opening.set()
        self.last_version = -1
        self.last_progress = time.monotonic()  # when a push last showed a newer version

    @property
    def clients(self) -> list[Client]:
        return self.players + self.spectators

    async def run(self, counters: SiteCounters) -> None:
        while not self.stop.is_set():
            await self._play_one(counters)

    def saw(self, push: Push) -> None:
        if push.version is not None and push.version > self.last_version:
            self.last_version = push.version
            self.last_progress = time.monotonic()

    async def _play_one(self, counters: SiteCounters) -> None:
        host = self.players[0]
        await self.opening.wait()
        async with self.setup:
            table_id = await host.open_table(len(self.players))
            for player in self.players[1:]:
                await player.join(table_id)
            await host.start(table_id)
            counters.games_started += 1
            self.last_version = -1
            game = GameRun(table_id, self)
            sockets = await asyncio.gather(*(client.connect(table_id) for client in self.clients))
        listeners = [
            asyncio.create_task(client.listen(ws, game))
            for client, ws in zip(self.clients, sockets, strict=True)
        ]
        self.ready.set()
        try:
            await _until_over(game, self.stop, listeners)
            game.closing = True
            await self._drain()
            if game.finished.is_set():
                counters.games_finished += 1
            counters.unresolved += sum(not player.idle for player in self.players)
            await self.opening.wait()
        finally:
            game.closing = True
            await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)
            results = await asyncio.gather(*listeners, return_exceptions=True)
        for result in results:
            if isinstance(result, BaseException):
                raise result

    async def _drain(self) -> None:
        """Wait (a bounded time) for answers to the frames already sent: a socket closed on an
        unanswered frame would leave a move neither refused nor surely applied."""
        deadline = time.monotonic() + DRAIN_SECONDS
        for wait in (0.0, SETTLE_SECONDS):
            await asyncio.sleep(wait)
            while any(not player.idle for player in self.players):
                if time.monotonic() >= deadline:
                    return
                await asyncio.sleep(0.02)


async def _until_over(game: GameRun, stop: asyncio.Event, listeners: list[asyncio.Task]) -> None:
    """Wait until the game is finished or the run stops; a listener that failed raises here."""
    waits = [asyncio.create_task(game.finished.wait()), asyncio.create_task(stop.wait())]
    done, _pending = await asyncio.wait([*waits, *listeners], return_when=asyncio.FIRST_COMPLETED)
    for wait in waits:
        wait.cancel()
    for task in done:
        if task in listeners:
            task.result()


# ---------------------------------------------------------------------- the ceiling


class RelayGroup:
    """The ceiling's clients of one group: as many sockets as a table has clients. Closed loop:
    the player whose turn it is sends, waits for its own frame back, then the next one sends."""

    def __init__(self, group: int, base_url: str, size: int, senders: int) -> None:
        self.group = group
        self.base_url = base_url
        self.size = size
        self.senders = senders
        self.sender = 0
        self.token = ""  # the frame in flight: the sender waits for this very text back
        self.echo = asyncio.Event()
        self.messages = 0  # relayed in the window
        self.pushes = 0  # frames received in the window

    async def run(self, session: aiohttp.ClientSession, window: Window) -> None:
        url = f"{self.base_url}/ws/relay/{self.group}/"
        sockets = [await session.ws_connect(url, origin=self.base_url) for _ in range(self.size)]
        listeners = [
            asyncio.create_task(self._listen(ws, index, window)) for index, ws in enumerate(sockets)
        ]
        try:
            turn = 0
            while time.monotonic() < window.end:
                self.sender = turn % self.senders
                self.token = f"{self.group}:{turn}"
                self.echo.clear()
                await sockets[self.sender].send_str(self.token)
                await asyncio.wait_for(self.echo.wait(), timeout=30)
                if time.monotonic() in window:
                    self.messages += 1
                turn += 1
        finally:
            await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)
            await asyncio.gather(*listeners, return_exceptions=True)

    async def _listen(
        self, ws: aiohttp.ClientWebSocketResponse, index: int, window: Window
    ) -> None:
        async for message in ws:
            if message.type != aiohttp.WSMsgType.TEXT:
                break
            if time.monotonic() in window:
                self.pushes += 1
            if index == self.sender and message.data == self.token:
                self.echo.set()
