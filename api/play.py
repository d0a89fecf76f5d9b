"""A seat's game stream (``/api/bot/game/stream/<table>``): the table as that seat sees it, as
NDJSON lines.

The stream is one more socket of the process's table hub (``games.live.table_hub``): it hears
each change of the table as the table's pages do, drawn once for all of them, and never reads
the database for it. What it writes of each view is the engine's perspective of its own seat
(``games.engine.perspectives.seat_view``: its own hand, every other hand's size only, never the
draw pile), and the moves since the view before, whose events are public.

Lines: ``gameFull`` first (the table, its seats, the seat's state), then ``gameState`` after
each change (the moves since, and the seat's state), ``chatLine`` for each line of chat the
seat may read, ``gameFinish`` as the game ends, with its last moves (the stream ends with it;
the game's whole record is then public, ``/api/games/<id>``). An empty line keeps a
quiet stream open.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

from channels.db import database_sync_to_async

from accounts import bots
from api.lines import KEEP_ALIVE_LINE, line
from games.engine import GameState
from games.engine.perspectives import seat_view
from games.models import Seat, Table
from games.presenters import TableView

KEEP_ALIVE = 6.0
# What a stream is allowed to fall behind by before it is closed: a reader that stopped reading.
BACKLOG = 1000

_FINISHED = {Table.Status.FINISHED, Table.Status.ABORTED, Table.Status.ABANDONED}


class SeatStream:
    """One seat's game stream, as a socket of the table hub (``TableSocket``)."""

    def __init__(self, user: Any, table_id: int, language: str = "en") -> None:
        self.user = user
        self.language = language
        self.table_id = table_id
        self.lines: asyncio.Queue[bytes | None] = asyncio.Queue()
        self.last_seq: int | None = None  # the last move written, None before gameFull
        self.finished = False
        # The BOT accounts seated at the table, read before the stream joins the hub (nothing
        # it is pushed reads the database).
        self.robots: set[int] = set()

    # ------------------------------------------------------------------ what the hub pushes

    async def push(self, view: TableView, flash: str = "") -> None:
        for data in self.lines_of(view):
            self._put(line(data))

    async def push_seats(self, view: TableView) -> None:
        return  # who is connected: not the stream's concern

    async def push_chat_line(self, message: Any) -> None:
        if self.finished:
            return
        author = getattr(message, "author", None)
        self._put(
            line(
                {
                    "type": "chatLine",
                    "id": message.pk,
                    "room": message.room,
                    "username": author.get_username() if author is not None else None,
                    "text": message.text,
                }
            )
        )

    async def push_chat_hidden(self, message_id: int) -> None:
        if not self.finished:
            self._put(line({"type": "chatHidden", "id": message_id}))

    def _put(self, data: bytes | None) -> None:
        if self.lines.qsize() >= BACKLOG:
            data = None  # a reader this far behind is not reading: the stream ends
            self.finished = True
        self.lines.put_nowait(data)

    # ------------------------------------------------------------------ what is written

    def lines_of(self, view: TableView) -> list[dict[str, Any]]:
        """What the seat is told of ``view``: nothing it was told already. A finished table's
        view holds no engine: its last moves go with ``gameFinish``."""
        if self.finished:
            return []
        seat = view.seat_of(self.user.pk)
        engine = view.engine
        out: list[dict[str, Any]] = []
        fresh: list[dict[str, Any]] = []
        if self.last_seq is None:
            out.append(self._full(view, seat.position if seat else None))
            self.last_seq = (view.version or 0) - 1
        elif view.version is not None and view.version - 1 > self.last_seq:
            fresh = [_move(move) for move in view.recent_moves if move["seq"] > self.last_seq]
            self.last_seq = view.version - 1
            if engine is not None and seat is not None:
                state = seat_state(engine, seat.position)
                out.append({"type": "gameState", "moves": fresh, "state": state})
                fresh = []
        if view.status in _FINISHED:
            self.finished = True
            out.append(
                {
                    "type": "gameFinish",
                    "status": view.status,
                    "game": view.game_id,
                    "winner": view.result.get("winner") if view.result else None,
                    "moves": fresh,
                }
            )
        return out

    def _full(self, view: TableView, position: int | None) -> dict[str, Any]:
        robots = self.robots
        engine = view.engine
        return {
            "type": "gameFull",
            "table": {
                "id": self.table_id,
                "name": view.table.name,
                "status": view.status,
                "rated": view.table.rated,
                "turn_seconds": view.table.turn_seconds,
            },
            "game": view.game_id,
            "seat": position,
            "seats": [
                {
                    "position": seat.position,
                    "name": seat.username,
                    "bot": seat.bot,
                    "bot_account": seat.user_id in robots,
                    "empty": seat.is_empty,
                }
                for seat in view.seats
            ],
            "state": (
                seat_state(engine, position)
                if engine is not None and position is not None and view.status not in _FINISHED
                else None
            ),
        }


def seat_state(engine: GameState, seat: int) -> dict[str, Any]:
    """What ``seat`` sees (``seat_view``), and the rest of what it may know, all of it played in
    the open, that a program needs to think as the site's own bots do
    (``games.engine.search.SeatKnowledge``): the discard pile, who owes a "last card" (R20),
    how often the pile was reshuffled (R9), how many cards the TAKI run under way holds."""
    state = seat_view(engine, seat)
    state["players"] = engine.players
    state["tournament"] = engine.tournament
    state["discard"] = [card.code for card in engine.discard]
    state["debts"] = list(engine.debts)
    state["reshuffles"] = engine.reshuffles
    if engine.taki_run is not None and state.get("taki_run") is not None:
        state["taki_run"] = {**state["taki_run"], "played": engine.taki_run.played}
    return state


def _bot_accounts_at(table_id: int) -> set[int]:
    return bots.bots_among(Seat.objects.filter(table_id=table_id).values_list("user_id", flat=True))


def _move(move: dict[str, Any]) -> dict[str, Any]:
    return {
        "seq": move["seq"],
        "seat": move["seat"],
        "events": list(move.get("events") or ()),
        "action": move.get("action"),
    }


async def seat_lines(
    stream: SeatStream, hub: Any, keep_alive: float = KEEP_ALIVE
) -> AsyncIterator[bytes]:
    """The stream's lines, for as long as it is read: it is one of the hub's sockets at the
    table meanwhile."""
    stream.robots = await database_sync_to_async(_bot_accounts_at)(stream.table_id)
    hub.join(stream.table_id, stream)
    try:
        while True:
            try:
                data = await asyncio.wait_for(stream.lines.get(), keep_alive)
            except TimeoutError:
                yield KEEP_ALIVE_LINE
                continue
            if data is None:
                return
            yield data
            if stream.finished and stream.lines.empty():
                return
    finally:
        hub.leave(stream.table_id, stream)
