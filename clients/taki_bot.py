"""A TAKI bot that plays on Taki Online through its API: the example to copy for your own.

It uses Python's standard library only (``http.client``, ``urllib``), and for its choices the
site's own bots (``games.engine.bots``, which need nothing but the standard library either).
Run it from a clone of the site's repository::

    python -m clients.taki_bot --server https://taki.example --token taki_... --bot expert

It opens its event stream (``/api/stream/event``), accepts every challenge made to it (or
declines those it is told to), and for each game that starts opens the game stream of its seat
and plays whenever its seat is to act, each action carrying the version it answers. With
``--challenge NAME`` it first challenges that person or BOT; with ``--games N`` it stops after N
games. docs/api.md describes the API it speaks.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

from games.engine.bots import BOTS, make_bot
from games.engine.cards import CARDS
from games.engine.search import SeatKnowledge, determinize

# Seconds a stream may stay silent before the client takes it for dead (the server writes an
# empty line every few seconds).
STREAM_TIMEOUT = 30.0


class ApiError(Exception):
    """A refusal from the API: its HTTP status, the service's code and words, and how long to
    wait when it was a rate limit."""

    def __init__(self, status: int, code: str, message: str, retry_after: float = 0.0) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.retry_after = retry_after


class Api:
    """The site's API, as one token's holder. Its requests go over one persistent HTTP/1.1
    connection per thread, made again once when the server has closed it; each stream has a
    connection of its own."""

    def __init__(self, server: str, token: str, timeout: float = 10.0) -> None:
        self.server = server.rstrip("/")
        self.token = token
        self.timeout = timeout
        parts = urllib.parse.urlsplit(self.server)
        self._secure = parts.scheme == "https"
        self._host = parts.hostname or ""
        self._port = parts.port
        self._prefix = parts.path
        self._local = threading.local()

    def _request(self, method: str, path: str, body: Any = None) -> urllib.request.Request:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.server + path, data=data, method=method)
        request.add_header("Authorization", f"Bearer {self.token}")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        return request

    def _connection(self) -> http.client.HTTPConnection:
        connection = getattr(self._local, "connection", None)
        if connection is None:
            kind = http.client.HTTPSConnection if self._secure else http.client.HTTPConnection
            connection = kind(self._host, self._port, timeout=self.timeout)
            self._local.connection = connection
        return connection

    def close(self) -> None:
        """Close this thread's connection (the next request opens another)."""
        connection = getattr(self._local, "connection", None)
        if connection is not None:
            connection.close()
            self._local.connection = None

    def _send(self, method: str, path: str, body: Any) -> tuple[int, Any, bytes]:
        """One request on this thread's connection: the answer's status, headers and body. A
        connection the server closed while it was idle is made again, and the request sent
        once more (an action sent twice is refused the second time as stale: it carries the
        version it answers)."""
        data = None if body is None else json.dumps(body).encode()
        headers = {"Authorization": f"Bearer {self.token}"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        for attempt in (1, 2):
            connection = self._connection()
            try:
                connection.request(method, self._prefix + path, body=data, headers=headers)
                answer = connection.getresponse()
                content = answer.read()
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.close()
                if attempt == 2:
                    raise
                continue
            if answer.will_close:
                self.close()
            return answer.status, answer.headers, content
        raise AssertionError("unreachable")

    def call(self, method: str, path: str, body: Any = None) -> Any:
        """One request; its JSON answer. A rate limit is waited out and the request made again.

        :raises ApiError: the API refused it.
        """
        while True:
            status, headers, content = self._send(method, path, body)
            if status < 400:
                return json.loads(content or b"null")
            refusal = _refused(status, headers, content)
            if refusal.status != 429:
                raise refusal
            time.sleep(refusal.retry_after)

    def get(self, path: str) -> Any:
        return self.call("GET", path)

    def post(self, path: str, body: Any = None) -> Any:
        return self.call("POST", path, {} if body is None else body)

    def stream(self, path: str) -> Iterator[dict[str, Any]]:
        """The NDJSON stream at ``path``, a JSON object a line; its empty keep-alive lines are
        skipped. Ends when the server ends it.

        :raises ApiError: the API refused it.
        """
        try:
            answer = urllib.request.urlopen(self._request("GET", path), timeout=STREAM_TIMEOUT)
        except urllib.error.HTTPError as error:
            raise _refusal(error) from None
        with answer:
            for raw in answer:
                if raw.strip():
                    yield json.loads(raw)


def _refusal(error: urllib.error.HTTPError) -> ApiError:
    return _refused(error.code, error.headers, error.read(), error.reason)


def _refused(status: int, headers: Any, content: bytes, reason: str = "") -> ApiError:
    try:
        body = json.loads(content)["error"]
    except (ValueError, KeyError, TypeError):
        body = {"code": "http_error", "message": reason or str(status)}
    retry = float(headers.get("Retry-After") or 0)
    return ApiError(status, body.get("code", ""), body.get("message", ""), retry)


# ------------------------------------------------------------------ thinking


def knowledge_of(state: dict[str, Any]) -> SeatKnowledge:
    """What the seat knows, from the state its game stream sent (every field of it public, or
    the seat's own)."""
    sizes = tuple(state["hand_sizes"])
    pending = state["plus3_pending"]
    run = state["taki_run"]
    return SeatKnowledge(
        seat=state["seat"],
        players=state["players"],
        tournament=state["tournament"],
        hand=tuple(CARDS[code] for code in state["hand"]),
        hand_sizes=sizes,
        discard=tuple(CARDS[code] for code in state["discard"]),
        draw_pile=state["draw_pile"],
        active_color=state["active_color"],
        current=state["current_player"],
        direction=state["direction"],
        plus2_stack=state["plus2_stack"],
        plus3=(pending["by"], tuple(pending["waiting"])) if pending else None,
        taki_run=(run["color"], run["player"], run["open"], run["played"]) if run else None,
        follow_up=state["follow_up"],
        debts=tuple(state["debts"]),
        announced=tuple(state["announced"]),
        stages=tuple(state["stages"]) if state["stages"] is not None else None,
        reshuffles=state["reshuffles"],
        moves=state["version"],
        beliefs=tuple(tuple(frozenset() for _ in range(size)) for size in sizes),
    )


def choose(state: dict[str, Any], bot: Any, rng: random.Random) -> dict[str, Any]:
    """The action the bot chooses for the seat, as the API takes it (with no ``player``: the
    seat is the token's). The bot thinks on one game consistent with what the seat knows; its
    choice is one of the seat's legal actions, or the first of them if it is not."""
    game = determinize(knowledge_of(state), rng)
    action = bot.choose(game, state["seat"]).to_json()
    legal = state["legal_actions"]
    plain = {key: value for key, value in action.items() if key != "last_card"}
    if not any(
        plain == {key: value for key, value in option.items() if key != "last_card"}
        for option in legal
    ):
        action = legal[0]
    return {key: value for key, value in action.items() if key != "player"}


# ------------------------------------------------------------------ playing


class Game:
    """One game of the bot's: its seat's stream read, and an action sent whenever the seat is
    to act."""

    def __init__(self, api: Api, table_id: int, bot_name: str, rng: random.Random) -> None:
        self.api = api
        self.table_id = table_id
        self.bot = make_bot(bot_name, rng)
        self.rng = rng
        self.result: dict[str, Any] | None = None
        self.moves_sent = 0

    def play(self) -> dict[str, Any] | None:
        """Play the game to its end; the ``gameFinish`` line."""
        for line in self.api.stream(f"/api/bot/game/stream/{self.table_id}"):
            kind = line["type"]
            if kind in ("gameFull", "gameState") and line.get("state"):
                self.act(line["state"])
            elif kind == "gameFinish":
                self.result = line
                return line
        return None

    def act(self, state: dict[str, Any]) -> None:
        if state["seat"] not in state["seats_to_act"] or state.get("finished"):
            return
        action = {**choose(state, self.bot, self.rng), "version": state["version"]}
        try:
            self.api.post(f"/api/bot/game/{self.table_id}/action", action)
            self.moves_sent += 1
        except ApiError as refusal:
            # Stale: the game moved on (a bot's move, a timeout) and its new state is on its
            # way. Anything else is this bot's mistake, said once on stderr.
            if refusal.code != "stale":
                print(f"table {self.table_id}: {refusal}", file=sys.stderr)


class Client:
    """The bot on its event stream: challenges answered, a thread per game started."""

    def __init__(
        self,
        api: Api,
        bot_name: str = "greedy",
        *,
        games: int | None = None,
        accept: Callable[[dict[str, Any]], bool] = lambda challenge: True,
        seed: int | None = None,
    ) -> None:
        self.api = api
        self.bot_name = bot_name
        self.games = games
        self.accept = accept
        self.rng = random.Random(seed)
        self.me = api.get("/api/account")
        self.finished: list[dict[str, Any]] = []
        self.threads: dict[int, threading.Thread] = {}

    def run(self) -> None:
        """Listen until ``games`` games have finished (for ever without ``games``)."""
        for event in self.api.stream("/api/stream/event"):
            kind = event["type"]
            if kind == "challenge":
                self.answer(event["challenge"])
            elif kind == "gameStart":
                self.start(event["game"]["table"])
            elif kind == "gameFinish":
                thread = self.threads.pop(event["game"]["table"], None)
                if thread is not None:
                    thread.join(STREAM_TIMEOUT)
                self.finished.append(event["game"])
                if self.games is not None and len(self.finished) >= self.games:
                    return

    def answer(self, challenge: dict[str, Any]) -> None:
        mine = [row for row in challenge["invited"] if row["id"] == self.me["id"]]
        if not mine or mine[0]["answer"] != "pending":
            return  # made by this bot, or answered already
        verb = "accept" if self.accept(challenge) else "decline"
        try:
            self.api.post(f"/api/challenge/{challenge['id']}/{verb}")
        except ApiError as refusal:
            print(f"challenge {challenge['id']}: {refusal}", file=sys.stderr)

    def start(self, table_id: int) -> None:
        if table_id in self.threads:
            return
        game = Game(self.api, table_id, self.bot_name, random.Random(self.rng.getrandbits(64)))
        thread = threading.Thread(target=game.play, name=f"table-{table_id}", daemon=True)
        self.threads[table_id] = thread
        thread.start()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", required=True, help="the site, e.g. https://taki.example")
    parser.add_argument("--token", required=True, help="a personal access token (bot:play)")
    parser.add_argument("--bot", default="greedy", choices=sorted(BOTS), help="how it plays")
    parser.add_argument("--challenge", help="challenge this person or BOT first")
    parser.add_argument("--games", type=int, help="stop after this many games")
    parser.add_argument("--seed", type=int, help="the bot's random seed")
    args = parser.parse_args(argv)
    api = Api(args.server, args.token)
    client = Client(api, args.bot, games=args.games, seed=args.seed)
    print(f"playing as {client.me['username']} ({args.bot})", file=sys.stderr)
    if args.challenge:
        made = api.post(f"/api/challenge/{args.challenge}", {"seats": 2})
        print(f"challenged {args.challenge}: challenge {made['id']}", file=sys.stderr)
    client.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
