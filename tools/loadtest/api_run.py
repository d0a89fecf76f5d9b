"""make bench-api: reference bot clients (clients/taki_bot.py) playing each other through the
API on one Daphne process, then the websocket load test (``tools.loadtest.run``) on another,
in one run: the server's CPU per move through each path, and the game stream's latency (from
a move's POST being sent to the line that tells the other seat of it)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model

from api import tokens
from api.scopes import SCOPES
from clients import taki_bot
from games.models import Move
from tools.loadtest.run import LoadOptions, run
from tools.loadtest.servers import SITE_APP, DaphneGroup
from tools.loadtest.stats import percentile


class Timed(taki_bot.Game):
    """A reference client's game, noting when each action is sent and each state comes."""

    sent: dict[tuple[int, int], float]
    seen: list[tuple[int, int, float]]

    def act(self, state: dict[str, Any]) -> None:
        if state["seat"] in state["seats_to_act"]:
            self.sent[(self.table_id, state["version"] + 1)] = time.monotonic()
        super().act(state)

    def play(self):
        for line in self.api.stream(f"/api/bot/game/stream/{self.table_id}"):
            if line["type"] in ("gameFull", "gameState") and line.get("state"):
                state = line["state"]
                mover = state["seat"] not in state["seats_to_act"]
                if line["type"] == "gameState" and mover:
                    self.seen.append((self.table_id, state["version"], time.monotonic()))
                self.act(state)
            elif line["type"] == "gameFinish":
                return line
        return None


def _pair(server: str, bearers: tuple[str, str], names: tuple[str, str], stop, log) -> None:
    while not stop.is_set():
        clients = []
        for bearer in bearers:
            client = taki_bot.Client(taki_bot.Api(server, bearer), "greedy", games=1)
            client.start = _starter(client, log)
            clients.append(client)
        threads = [threading.Thread(target=client.run, daemon=True) for client in clients]
        for thread in threads:
            thread.start()
        taki_bot.Api(server, bearers[0]).post(f"/api/challenge/{names[1]}", {"seats": 2})
        for thread in threads:
            thread.join(120)


def _starter(client: taki_bot.Client, log: dict[str, Any]) -> Callable[[int], None]:
    def start(table_id: int) -> None:
        game = Timed(client.api, table_id, client.bot_name, client.rng)
        game.sent, game.seen = log["sent"], log["seen"]
        thread = threading.Thread(target=game.play, daemon=True)
        client.threads[table_id] = thread
        thread.start()

    return start


def run_api(pairs: int, seconds: float, warmup: float, log_dir: Path, say) -> dict[str, Any]:
    User = get_user_model()
    stamp = str(int(time.time()))[-6:]
    users = [User.objects.create_user(f"api{stamp}-{index}") for index in range(pairs * 2)]
    bearers = [tokens.create_token(user, "bench", list(SCOPES))[1] for user in users]
    log: dict[str, Any] = {"sent": {}, "seen": []}
    with DaphneGroup(SITE_APP, 1, log_dir, "api") as site:
        stop = threading.Event()
        for index in range(pairs):
            pair = (bearers[2 * index], bearers[2 * index + 1])
            names = (users[2 * index].username, users[2 * index + 1].username)
            args = (site.urls[0], pair, names, stop, log)
            threading.Thread(target=_pair, args=args, daemon=True).start()
        time.sleep(warmup)
        moves_before, cpu_before, start = Move.objects.count(), site.cpu_seconds(), time.monotonic()
        time.sleep(seconds)
        moves, cpu = Move.objects.count() - moves_before, site.cpu_seconds() - cpu_before
        elapsed = time.monotonic() - start
        stop.set()
        site.check_alive()
    latencies = [
        at - log["sent"][(table, version)]
        for table, version, at in list(log["seen"])
        if (table, version) in log["sent"]
    ]
    return {
        "pairs": pairs,
        "seconds": elapsed,
        "moves": moves,
        "moves_per_second": moves / elapsed,
        "server_cpu_ms_per_move": cpu * 1000 / moves if moves else None,
        "stream_latency_ms": {
            "p50": _ms(percentile(latencies, 0.5)),
            "p99": _ms(percentile(latencies, 0.99)),
            "samples": len(latencies),
        },
    }


def _ms(value: float | None) -> float | None:
    return None if value is None else round(value * 1000, 2)


def run_both(pairs: int, seconds: float, warmup: float, log_dir: Path, say) -> dict[str, Any]:
    say(f"API: {pairs} pairs of reference clients")
    api = run_api(pairs, seconds, warmup, log_dir, say)
    say(f"websockets: {pairs} tables of two players")
    options = LoadOptions(
        tables=pairs,
        spectators=0,
        seconds=seconds,
        warmup=warmup,
        ceiling=False,
        steady_seconds=0,
    )
    sockets = run(options, log_dir, say)
    ratio = None
    if api["server_cpu_ms_per_move"] and sockets.server_cpu_ms_per_move:
        ratio = api["server_cpu_ms_per_move"] / sockets.server_cpu_ms_per_move
    return {
        "api": api,
        "websockets": {
            "moves": sockets.moves,
            "moves_per_second": sockets.moves_per_second,
            "server_cpu_ms_per_move": sockets.server_cpu_ms_per_move,
            "round_trip_ms": sockets.round_trip_ms,
        },
        "api_over_websockets_cpu": ratio,
    }
