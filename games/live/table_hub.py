"""One listener per process for the tables it has sockets at, and one queue of work per table.

Channels' own way puts each socket in its table's group: every message then reaches every
socket through the channel layer, is dispatched by each (with a thread hop to close stale
database connections on the way) and each looks for the view the others read. Here the process
joins a table's group once, with a channel of its own (:class:`TableHub`), and fans each
message out to the table's sockets itself: the table is read or built once, drawn once per
language, and each socket draws only its own hand; a chat line is read once, with who of the
table's sockets may read it.

Everything about one table runs in order on that table's queue: its changes and chat lines, a
socket's first push, a refused click, a socket joining or leaving. A socket is therefore never
sent an older table after a newer one, and a table's group is never left while a socket has
just joined it. Different tables' queues run side by side.

The hub also takes the moves this process stores (``move_stored``, through the process's
transport, ``games.live.server``): a move's change (``games.services.changes``) is drawn here
without reading the table back, and sent as ``taki-change/1`` to the other processes at the
table, each on its own channel, so that none reads it back either: to none when every socket of
the table is here, which is how a cluster that sends a table's sockets to one process (nginx
hashing the table's path) plays. The hubs of
a table's group know each other by a handshake: a hub that joins a table says so to the group
(``hub.joined``), the others answer it directly (``hub.present``) and a hub that leaves says so
too (``hub.left``). Each answer and each leave carries the newest version its sender's sockets
were sent, so a move stored in the instant before its process heard of another still reaches
the other's sockets: the other reads the table when that version is newer than what it drew.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Protocol

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from django.utils import translation

from games import presenters
from games.live.sends import OrderedSends
from games.models import ChatMessage
from games.presenters import TableView
from games.services import broadcast, chat, moves, presence
from games.services.changes import TableChange, UnreadableChange

logger = logging.getLogger(__name__)


type Job = Callable[[], Awaitable[None]]

# People whose presence one cache round trip keeps (``TableHub._keep_presence``).
PRESENCE_SLICE = 500


class TableSocket(Protocol):
    """What a hub needs of a table's socket (``games.live.consumers.TableConsumer``)."""

    user: Any  # the person it speaks for, or an anonymous user
    language: str  # theirs: what it is sent is drawn in it (the hub makes it the active one)

    async def push(self, view: TableView, flash: str = "") -> None: ...

    async def push_seats(self, view: TableView) -> None: ...

    async def push_chat_line(self, line: ChatMessage) -> None: ...

    async def push_chat_hidden(self, message_id: int) -> None: ...


class TableHub:
    """This process's sockets, per table, and what it holds of each table: the newest view its
    sockets were sent and the newest game version they were all sent. Made on the event loop
    it serves (``games.live.server``), it sends through ``sends``, in order."""

    def __init__(self, layer: Any, sends: OrderedSends | None = None) -> None:
        self.layer = layer
        self.loop = asyncio.get_running_loop()
        self.sends = sends or OrderedSends(layer)
        self.sockets: dict[int, set[TableSocket]] = {}
        self.views: dict[int, TableView] = {}
        # The newest game version every socket of the table here was sent: a change up to it is
        # not drawn again, and a click made against an older one is refused before the
        # database is asked (``moves.is_stale``).
        self.versions: dict[int, int] = {}
        # The other processes' hub channels at each table here, by the handshake: a move stored
        # here is sent to them, and to nobody when there are none.
        self.others: dict[int, set[str]] = {}
        self._queues: dict[int, deque[Job]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self.channel_name = ""  # this hub's own channel on the layer, once it is open
        self._channel: asyncio.Task[str] = self.loop.create_task(self._open())
        self._tasks.add(self.loop.create_task(self._keep_presence()))

    async def close(self) -> None:
        """Stop: its channel is no longer read, its people no longer kept online, and its work
        and sends under way are dropped (the event loop it served is ending)."""
        tasks = set(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # ------------------------------------------------------------------ what sockets ask

    def is_stale(self, table_id: int, version: int) -> bool:
        """Whether a click at the table made at ``version`` is stale by what this process has
        sent its sockets there (the move path checks it again against the game itself)."""
        return moves.is_stale(version, self.versions.get(table_id))

    def join(self, table_id: int, socket: TableSocket) -> None:
        """Add ``socket`` to the table's sockets here and send it the table, read: the page it
        comes from may be newer than the view held here."""

        async def job() -> None:
            first = table_id not in self.sockets
            self.sockets.setdefault(table_id, set()).add(socket)
            # Joined again with every socket: a layer forgets a group member after a day.
            channel = await self._channel
            await self.layer.group_add(broadcast.group_name(table_id), channel)
            if first:  # the table's other processes answer with what they sent: see _listen
                self._send(table_id, None, {"type": "hub.joined", "from": channel})
            view = await self._read(table_id)
            await self._to_each([socket], lambda socket: socket.push(view))

        self._enqueue(table_id, job)

    def leave(self, table_id: int, socket: TableSocket) -> None:
        """Take ``socket`` off the table; with the last one the process leaves the table's
        group and forgets it, since it no longer hears of its changes."""

        async def job() -> None:
            sockets = self.sockets.get(table_id)
            if sockets is None:
                return
            sockets.discard(socket)
            if not sockets:
                del self.sockets[table_id]
                self.views.pop(table_id, None)
                version = self.versions.pop(table_id, None)
                self.others.pop(table_id, None)
                channel = await self._channel
                await self.layer.group_discard(broadcast.group_name(table_id), channel)
                left = {"type": "hub.left", "from": channel, "version": version}
                self._send(table_id, None, left)

        self._enqueue(table_id, job)

    def refuse(self, table_id: int, socket: TableSocket, words: str) -> None:
        """Tell ``socket`` alone why its click was refused, with the table as it stands: the view
        held here, its clock counted again (a newer one is on its way if there is one)."""

        async def job() -> None:
            if socket not in self.sockets.get(table_id, ()):
                return
            view = presenters.as_of_now(self.views.get(table_id) or await self._read(table_id))
            await self._to_each([socket], lambda socket: socket.push(view, words))

        self._enqueue(table_id, job)

    # ------------------------------------------------------------------ what the services hand over

    def move_stored(self, change: TableChange) -> bool:
        """A move this process stored, handed over on the thread that committed it: on the
        hub's loop, the other processes at the table are told of it and its table is drawn
        here from ``change``, in the table's order. Whether the hub took it (not when its loop
        has closed: the server is stopping)."""
        try:
            self.loop.call_soon_threadsafe(self._moved, change)
        except RuntimeError:
            logger.warning("a move of table %s was not handed to its sockets", change.table_id)
            return False
        return True

    def _moved(self, change: TableChange) -> None:
        table_id, version = change.table_id, change.version
        message: dict[str, Any] = {"type": "table.update", "table": table_id, "version": version}
        if table_id not in self.sockets:
            # No socket here: whoever else is at the table is not known here.
            self._send(table_id, None, message)
            return
        others = self.others.get(table_id, ())
        if others:
            # The change goes along, so that the others need not read the table back either.
            message["change"] = change.to_json()
        for channel in others:
            self._send(table_id, channel, message)
        self._enqueue(table_id, functools.partial(self._changed, table_id, version, change))

    # ------------------------------------------------------------------ what the layer brings

    async def _open(self) -> str:
        channel = await self.layer.new_channel()
        self.channel_name = channel
        task = self.loop.create_task(self._listen(channel))
        self._tasks.add(task)
        return channel

    async def _listen(self, channel: str) -> None:
        while True:
            try:
                message = await self.layer.receive(channel)
            except Exception:
                logger.exception("the tables' channel could not be read")
                await asyncio.sleep(1)
                continue
            table_id = message.get("table")
            if table_id not in self.sockets:
                continue
            sender = message.get("from")
            if sender is None:
                self._enqueue(table_id, functools.partial(self._handle, table_id, message))
            elif sender != self.channel_name:
                self._handshake(table_id, sender, message)

    def _handshake(self, table_id: int, sender: str, message: dict[str, Any]) -> None:
        """Another process's hub joined the table, answered this one's joining, or left. It is
        counted (or forgotten) at once, so that every move stored here from now on is sent to
        it. The version it brings is drawn in the table's order (a move it stored before it
        knew of this process). In the table's order too, it is told the newest version sent
        here (the moves stored here before this hub knew of it): in the answer to its joining,
        or after its answer."""
        kind, version = message.get("type"), message.get("version")
        if kind == "hub.left":
            self.others.get(table_id, set()).discard(sender)
        else:
            self.others.setdefault(table_id, set()).add(sender)
        if version is not None:
            self._enqueue(table_id, functools.partial(self._changed, table_id, version))
        if kind == "hub.left":
            return

        async def tell() -> None:
            sent = self.versions.get(table_id)
            if kind == "hub.joined":
                answer = {"type": "hub.present", "from": self.channel_name, "version": sent}
                self._send(table_id, sender, answer)
            elif sent is not None:
                self._send(table_id, sender, {"type": "table.update", "version": sent})

        self._enqueue(table_id, tell)

    def _send(self, table_id: int, channel: str | None, message: dict[str, Any]) -> None:
        """Send ``message`` about the table to one hub's ``channel``, or to the table's group,
        after every send of this process before it."""
        message = {**message, "table": table_id}
        if channel is None:
            self.sends.group_send(broadcast.group_name(table_id), message)
        else:
            self.sends.send(channel, message)

    async def _handle(self, table_id: int, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "table.update":
            change = message.get("change")
            version = message.get("version")
            await self._changed(table_id, version, None if change is None else _read(change))
        elif kind == "table.presence":
            await self._presence(table_id)
        elif kind == "chat.message":
            await self._chat_line(table_id, message["id"])
        elif kind == "chat.hidden":
            sockets = self.sockets.get(table_id, ())
            await self._to_each(sockets, lambda socket: socket.push_chat_hidden(message["id"]))
        else:
            logger.warning("a table message of no known type: %r", kind)

    async def _changed(
        self, table_id: int, version: int | None, change: TableChange | None = None
    ) -> None:
        """The table changed (to the game's ``version`` after a move): drawn from the move's
        ``change`` and the view held here when it can be, else read; then sent to each socket.
        A move its sockets were all sent already (handed here, then its group message) is not
        drawn again."""
        if table_id not in self.sockets:
            return  # the last socket left meanwhile: the table is forgotten here
        sent = self.versions.get(table_id)
        if version is not None:
            if sent is not None and version <= sent:
                return
            self.versions[table_id] = version
        previous = self.views.get(table_id)
        view = None if change is None else presenters.view_after_move(change, previous)
        if view is None:
            view = await self._read(table_id)
        else:
            self._hold(table_id, view)
        self._sent_up_to(table_id, view)  # read after later moves: they are sent too
        await self._to_each(self.sockets.get(table_id, ()), lambda socket: socket.push(view))

    async def _presence(self, table_id: int) -> None:
        """Someone's first socket opened or last one closed: only who is online changes, so the
        view held here is drawn again, not read."""
        view = self.views.get(table_id)
        if view is None:
            view = await self._read(table_id)
        else:
            people = [seat.user_id for seat in view.seats if seat.user_id]
            online = await sync_to_async(presence.connected_users)(table_id, people)
            view = presenters.as_of_now(view, online)
            self._hold(table_id, view)
        await self._to_each(self.sockets.get(table_id, ()), lambda socket: socket.push_seats(view))

    async def _chat_line(self, table_id: int, message_id: int) -> None:
        """A new chat line, read once for all the table's sockets here and sent to those whose
        person may read it (the spectators' room never reaches a player; a muted author's lines
        never reach who muted them)."""
        sockets = tuple(self.sockets.get(table_id, ()))
        read = database_sync_to_async(chat.readers_of)
        line, may_read = await read(message_id, table_id, [socket.user for socket in sockets])
        if line is None:
            return
        readers = [socket for socket, reads in zip(sockets, may_read, strict=True) if reads]
        await self._to_each(readers, lambda socket: socket.push_chat_line(line))

    # ------------------------------------------------------------------ presence

    async def _keep_presence(self) -> None:
        """Every PRESENCE_REFRESH seconds, keep this process's people at its tables counted
        (``presence.people_alive``): one batch for all its sockets, in slices, off the event
        loop and off the database thread, so that neither the moves nor the pushes wait for
        it. A killed process stops; its people's counts expire (``presence.PRESENCE_TTL``)."""
        keep = sync_to_async(presence.people_alive, thread_sensitive=False)
        while True:
            await asyncio.sleep(presence.PRESENCE_REFRESH)
            pairs = sorted(
                {
                    (table_id, socket.user.pk)
                    for table_id, sockets in self.sockets.items()
                    for socket in sockets
                    if getattr(socket.user, "is_authenticated", False)
                }
            )
            for start in range(0, len(pairs), PRESENCE_SLICE):
                try:
                    await keep(pairs[start : start + PRESENCE_SLICE])
                except Exception:
                    logger.exception("the presence of this process's people was not kept")

    # ------------------------------------------------------------------ the queues

    async def _read(self, table_id: int) -> TableView:
        """The table as stored, read for all its sockets here and held as the newest view."""
        view = await database_sync_to_async(presenters.read_table)(table_id)
        self._hold(table_id, view)
        return view

    def _hold(self, table_id: int, view: TableView) -> None:
        if table_id in self.sockets:
            self.views[table_id] = view

    def _sent_up_to(self, table_id: int, view: TableView) -> None:
        """The table's sockets here are sent ``view``: none of them is behind its version."""
        if view.version is not None and view.version > self.versions.get(table_id, -1):
            self.versions[table_id] = view.version

    async def _to_each(
        self, sockets: Iterable[TableSocket], send: Callable[[TableSocket], Awaitable[None]]
    ) -> None:
        """``send`` to each of ``sockets`` in its person's language, made the active one once
        for all the sockets that speak it (each switch is a lookup through asgiref's locals).
        A socket's failure is logged and does not keep the others waiting."""
        by_language: dict[str, list[TableSocket]] = {}
        for socket in tuple(sockets):
            by_language.setdefault(socket.language, []).append(socket)
        for language, group in by_language.items():
            with translation.override(language):
                for socket in group:
                    try:
                        await send(socket)
                    except Exception:
                        logger.exception("a table push failed")

    async def drained(self, table_id: int) -> None:
        """Return once every job queued for the table before this call has run (a socket
        closing for a restart is sent the change its own last move made first)."""
        done = self.loop.create_future()

        async def job() -> None:
            done.set_result(None)

        self._enqueue(table_id, job)
        await done

    def _enqueue(self, table_id: int, job: Job) -> None:
        """Run ``job`` after the table's jobs before it; start the table's queue if idle."""
        queue = self._queues.get(table_id)
        if queue is not None:
            queue.append(job)
            return
        queue = self._queues[table_id] = deque([job])
        task = self.loop.create_task(self._work(table_id, queue))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _work(self, table_id: int, queue: deque[Job]) -> None:
        try:
            while queue:
                job = queue.popleft()
                try:
                    await job()
                except Exception:
                    logger.exception("a job of table %s failed", table_id)
        finally:
            if self._queues.get(table_id) is queue:
                del self._queues[table_id]


def _read(data: Any) -> TableChange | None:
    """The change a move made, as another process sent it; None if this process cannot read it
    (a process of another version of the site sent it): the table is then read back."""
    try:
        return TableChange.from_json(data)
    except UnreadableChange as error:
        logger.warning("a move's change from another process was not read: %s", error)
        return None
