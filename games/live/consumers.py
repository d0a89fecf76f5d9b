"""Websocket transport for the lobby and the tables.

Consumers only move data: who is this, which table, call the services, push fragments. Every
push is drawn from the same partial templates as the page; htmx's ws extension swaps its
top-level elements into the page by id. A table's group message carries no cards and reaches
each process once (``games.live.table_hub``): the process reads the table, or draws it from the
change a move made (``games.services.changes``), and each socket draws its own user's view from
it, the public part drawn once for all (``presenters.table_fragments``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from games import presenters
from games.live import frames, limits, restarts
from games.live.scope import language_of, user_of
from games.live.table_hub import TableHub
from games.models import ChatMessage, Table
from games.presenters import LobbyView, TableView
from games.presenters import chat as chat_fragments
from games.services import access, broadcast, chat, moves, presence
from games.services.errors import ServiceError

logger = logging.getLogger(__name__)

# How many of the lobby's last messages' views a process keeps.
MESSAGES_KEPT = 4
SOCKETS_PER_PERSON_AND_TABLE = 5
# A socket's log-in is checked on its first action and again after this many seconds; a log-out,
# a new password or a ban close the person's sockets at once (``broadcast.sessions_ended``), so
# this only bounds how long a session that ended otherwise (it expired) may still act.
SESSION_RECHECK_SECONDS = 30.0
# Close codes. htmx's ws extension reconnects after 1006, 1011, 1012 and 1013 only, so a client
# closed with these stays closed until the page is loaded again.
CLOSE_FORBIDDEN = 4403
CLOSE_SIGNED_OUT = 4401
CLOSE_TOO_MANY = 4429
CLOSE_TOO_MANY_VISITORS = 4430  # an address holds as many sockets without a log-in as it may
# What Daphne closes a socket with when its application fails.
CLOSE_SERVER_ERROR = 1011
# The process is stopping: the page reconnects, to another process while this one is away.
CLOSE_SERVICE_RESTART = restarts.CLOSE_SERVICE_RESTART
# A chat line's frame: {"type": "chat", "room": ..., "text": ...} (games/partials/chat.html).
CHAT_FRAME = "chat"
# What a page sends each time its socket opens: {"type": "chat_since", "after": <the newest
# line's id it shows>} (static/js/chat.js); it is sent the lines it missed meanwhile.
CHAT_SINCE_FRAME = "chat_since"


class SharedReads[T]:
    """The reads of the last few messages about one thing this process pushes, keyed by the
    broadcast's ``key``.

    Every lobby socket receives the same group messages in the same order; the first to handle
    one starts its read and the others await the same task, so a change costs one read per
    process, not one per socket. The last few messages' reads are kept, for a socket that is a
    message or two behind the others.
    """

    def __init__(self, depth: int = MESSAGES_KEPT) -> None:
        self._depth = depth
        self._reads: OrderedDict[str, asyncio.Future[T]] = OrderedDict()

    async def get(self, key: str, read: Callable[[], Awaitable[T]]) -> T:
        future = self._reads.get(key)
        if future is None:
            future = self._reads[key] = asyncio.ensure_future(read())
            while len(self._reads) > self._depth:
                self._reads.popitem(last=False)
        return await asyncio.shield(future)


lobby_views: SharedReads[LobbyView] = SharedReads()


async def _refuse_visitor_over_limit(consumer: AsyncWebsocketConsumer) -> bool:
    """For an accepted socket without a log-in: count it against its address, or close it
    (4430) when the address holds as many as it may. Whether it was counted."""
    if getattr(user_of(consumer.scope), "is_authenticated", False):
        return False
    if limits.visitors.open(limits.address(consumer.scope)):
        return True
    await consumer.close(code=CLOSE_TOO_MANY_VISITORS, reason="too many sockets from this address")
    return False


class LobbyConsumer(AsyncWebsocketConsumer):
    """``ws/lobby/``: pushes the list of open tables, and the games being played that anyone
    may watch, whenever they change."""

    group = broadcast.LOBBY_GROUP

    visitor = False  # counted against its address (``visitors``)

    async def connect(self) -> None:
        self.language = language_of(self.scope)  # read once: a socket's headers do not change
        await self.accept()
        self.visitor = await _refuse_visitor_over_limit(self)
        if self.visitor or getattr(user_of(self.scope), "is_authenticated", False):
            restarts.opened(self)
            await self.channel_layer.group_add(self.group, self.channel_name)

    async def disconnect(self, code: int) -> None:
        restarts.closed(self)
        if self.visitor:
            limits.visitors.close(limits.address(self.scope))
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def close_for_restart(self) -> None:
        """The process is stopping: close, and the page reconnects elsewhere."""
        await self.close(code=CLOSE_SERVICE_RESTART)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        return  # the lobby socket only listens

    async def lobby_update(self, message: dict[str, Any]) -> None:
        read = database_sync_to_async(presenters.read_lobby)
        view = await lobby_views.get(message.get("key", ""), read)
        with translation.override(self.language):
            await self.send(text_data=presenters.lobby_fragment(view, user_of(self.scope)))


class TableConsumer(AsyncWebsocketConsumer):
    """``ws/tables/<id>/``: one per table page. Sends the table as this user sees it on connect
    and on every change (the process's :class:`TableHub` brings them), and passes the user's
    actions to ``moves.submit_action``."""

    table_id: int
    hub: TableHub

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.user = user_of(self.scope)
        self.language = language_of(self.scope)
        self.bucket = limits.TokenBucket(
            settings.SOCKET_ACTIONS_BURST, settings.SOCKET_ACTIONS_PER_SECOND
        )
        # The frames that arrived and wait for this socket's worker (``_work``), which starts
        # once the socket has joined its table: none is taken before. At most a burst may
        # wait: a client that sends faster than its frames are worked is closed, not queued for.
        self.waiting: asyncio.Queue[str] = asyncio.Queue(maxsize=settings.SOCKET_ACTIONS_BURST)
        self.worker: asyncio.Task[None] | None = None
        self.acting = False  # the worker is working a frame (not waiting for one)
        self.closing = False
        self.restarting = False  # takes no new frame, works those waiting, then closes (1012)
        self.counted = False  # in the presence of its person at the table
        self.visitor = False  # counted against its address (``visitors``)
        self.in_user_group = False  # hears when its person's sessions end
        self.session_checked = float("-inf")  # when the log-in was last seen to stand
        if limits.flooders.holds(self._who):
            await self._close(CLOSE_TOO_MANY)  # before it is accepted: refused at the handshake
            return
        query = parse_qs(self.scope.get("query_string", b"").decode())
        self.invite = (query.get("invite") or [""])[0]
        table = await self._watchable_table()
        if table is None:
            await self._close(CLOSE_FORBIDDEN)
            return
        await self.accept()
        if not self._signed_in:
            self.visitor = await _refuse_visitor_over_limit(self)
            if not self.visitor:
                self._stop_working()
                return
        if self._signed_in:
            self.counted = True
            sockets = await database_sync_to_async(presence.socket_opened)(self.table_id, self.user)
            if sockets > SOCKETS_PER_PERSON_AND_TABLE:
                await self._close(CLOSE_TOO_MANY, "too many sockets at this table")
                return
            await self.channel_layer.group_add(
                broadcast.user_group(self.user.pk), self.channel_name
            )
            self.in_user_group = True
        # Joined once counted: the first push shows this socket's person online. The hub keeps
        # them counted while the socket is open (``TableHub._keep_presence``).
        self.hub = self.scope["table_hub"]
        self.hub.join(self.table_id, self)
        self.worker = asyncio.ensure_future(self._work())
        restarts.opened(self)

    async def disconnect(self, code: int) -> None:
        restarts.closed(self)
        self._stop_working()
        if self.visitor:
            limits.visitors.close(limits.address(self.scope))
        if hasattr(self, "hub"):
            self.hub.leave(self.table_id, self)
        if self.counted:
            if self.in_user_group:
                await self.channel_layer.group_discard(
                    broadcast.user_group(self.user.pk), self.channel_name
                )
            await database_sync_to_async(presence.socket_closed)(self.table_id, self.user)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        # Daphne, like Channels' test communicator, hands a socket's messages to its consumer
        # through an asyncio.Queue, ``receive`` being its ``get``: the queue is kept, to take
        # every frame that has arrived at once (``dispatch``).
        inbox = getattr(receive, "__self__", None)
        self.inbox: asyncio.Queue[dict[str, Any]] | None = (
            inbox if isinstance(inbox, asyncio.Queue) else None
        )
        await super().__call__(scope, receive, send)

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch, except for frames from the browser.

        Channels takes a socket's messages one per turn of the event loop, and closes the
        thread's old database connections before each, a hop to the database thread; the server
        reads a flood thousands of frames at a time, far faster, and queues them without bound.
        So a frame is counted as it arrives instead (``receive``), without awaiting the database,
        and with it every frame the server has queued meanwhile: a flood is refused at the rate
        it comes in, and what it leaves queued is one read's worth at most.
        """
        if message.get("type") != "websocket.receive":
            await super().dispatch(message)
            return
        await self.websocket_receive(message)
        while self.inbox is not None and not self.inbox.empty():
            queued = self.inbox.get_nowait()
            if queued.get("type") == "websocket.receive":
                await self.websocket_receive(queued)
            else:
                await super().dispatch(queued)  # the socket closed: this ends the consumer

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Count a frame and leave it for this socket's worker; a socket that sends more than
        its token bucket allows, or has a burst of frames waiting already, is closed (4429).
        Nothing here awaits the database or another socket."""
        if self.closing or self.restarting or self.worker is None:
            return  # closed, closing or never opened: its frames are dropped as they come
        text = text_data or ""
        if len(text) > frames.MAX_FRAME_CHARS:
            text = ""  # refused as not understood; the waiting queue holds no long frame
        if self.bucket.take():
            try:
                self.waiting.put_nowait(text)
                return
            except asyncio.QueueFull:
                pass
        limits.flooders.add(self._who, limits.FLOOD_PENALTY_SECONDS)
        await self._close(CLOSE_TOO_MANY, "too many messages")

    async def _work(self) -> None:
        """Work this socket's frames one at a time, in the order they came, until it closes: the
        frame being worked then is finished, the others are dropped."""
        while not self.closing:
            text = await self.waiting.get()
            self.acting = True
            try:
                await self._act(text)
            except Exception:
                logger.exception("a frame of table %s failed", self.table_id)
                await self._close(CLOSE_SERVER_ERROR)
            finally:
                self.acting = False
                self.waiting.task_done()

    async def _act(self, text: str) -> None:
        try:
            with translation.override(self.language):
                frame = frames.parse_frame(text)
                kind = frame.get("type") if isinstance(frame, dict) else None
                if kind == CHAT_FRAME:
                    await self._chat(frame)
                elif kind == CHAT_SINCE_FRAME:
                    await self._chat_since(frame)
                else:
                    await self._play(frame)
        except ServiceError as error:
            self.hub.refuse(self.table_id, self, error.message)
        # On success the hub draws the new table for every socket here, this one too.

    async def _close(self, code: int, reason: str = "") -> None:
        """Close the socket and drop the frames it has waiting and those still on their way."""
        if self.closing:
            return
        self._stop_working()
        await self.close(code=code, reason=reason or None)

    def _stop_working(self) -> None:
        """Take no frame any more: drop those waiting, and stop the worker if it waits for one
        (one working a frame finishes it, then stops)."""
        self.closing = True
        while not self.waiting.empty():
            self.waiting.get_nowait()
            self.waiting.task_done()
        if self.worker is not None and not self.acting:
            self.worker.cancel()

    async def close_for_restart(self) -> None:
        """The process is stopping: take no new frame, work those that arrived (a move is
        stored and pushed, or refused), send what the table's queue holds for this socket, then
        close with 1012; the page reconnects, to another process while this one is away."""
        if self.closing or self.restarting:
            return
        self.restarting = True
        await self.waiting.join()
        await self.hub.drained(self.table_id)
        await self._close(CLOSE_SERVICE_RESTART, "the server is restarting")

    async def user_signed_out(self, message: dict[str, Any]) -> None:
        """The person logged out, changed their password or was banned: this socket no longer
        speaks for them."""
        await self._close(CLOSE_SIGNED_OUT, "signed out")

    # What the hub sends, drawn in the active language: the hub makes this socket's the active
    # one (``TableHub._to_each``).

    async def push(self, view: TableView, flash: str = "") -> None:
        """Send the table as this socket's person sees it (the hub calls it on every change)."""
        html = presenters.table_fragments(view, self.user, flash=flash, invite=self.invite)
        await self.send(text_data=html)

    async def push_seats(self, view: TableView) -> None:
        """Send the seats alone: who is online changed."""
        await self.send(text_data=presenters.seats_fragment(view))

    # ------------------------------------------------------------------ helpers

    @property
    def _signed_in(self) -> bool:
        return bool(getattr(self.user, "is_authenticated", False))

    @property
    def _who(self) -> str:
        """Who this socket's client is, for the penalty after a flood: its session, or, without
        one, its address (``limits.client_key``)."""
        return limits.client_key(self.scope)

    @database_sync_to_async
    def _watchable_table(self) -> Table | None:
        """The table, if this visitor may watch it (``access.may_watch``, the table page's own
        rule); else None. A moderator on a table only their role lets them see is logged, as on
        the page."""
        table = Table.objects.select_related("host").filter(pk=self.table_id).first()
        if table is None or not access.may_watch(table, self.user, self.invite):
            return None
        access.note_watch(self.user, table, self.invite, access.ON_THE_SOCKET)
        return table

    async def _play(self, frame: Any) -> None:
        """Pass one action on to the move path.

        :raises ServiceError: the refusal, its message in the active language.
        """
        payload = frames.action_payload(frame)
        if not self._signed_in:
            raise ServiceError("not_seated", _("Log in and take a seat to play."))
        if self.hub.is_stale(self.table_id, payload["version"]):
            raise moves.stale_refusal()
        await self._play_as_session_user(payload)

    @database_sync_to_async
    def _play_as_session_user(self, payload: dict[str, Any]) -> None:
        """Apply the action if the log-in this socket was opened with still stands."""
        self._refuse_if_signed_out()
        moves.submit_action(self.table_id, self.user, payload)

    def _refuse_if_signed_out(self) -> None:
        """Every action a socket takes for its person (a move, a chat line, reading the lines it
        missed) first asks whether the log-in it was opened with still stands: the socket
        outlives a log-out in another tab, and the scope's user is as it was then. Asked of the
        session store on the first action and every ``SESSION_RECHECK_SECONDS`` after; called
        in the database thread.

        :raises ServiceError: ``not_seated`` when the session has ended.
        """
        session = self.scope.get("session")
        now = time.monotonic()
        if session is None or now - self.session_checked < SESSION_RECHECK_SECONDS:
            return
        if not (session.session_key and session.exists(session.session_key)):
            raise ServiceError("not_seated", _("You have been logged out: log in again to play."))
        self.session_checked = now

    # ------------------------------------------------------------------ chat

    async def _chat(self, frame: dict[str, Any]) -> None:
        """Post a chat line; a refusal is told to this socket alone, beside the chat box."""
        room, text = frame.get("room"), frame.get("text")
        try:
            if not isinstance(room, str) or not isinstance(text, str):
                raise frames.not_understood()
            if not self._signed_in:
                raise ServiceError("forbidden", _("Log in to chat."))
            await self._post_as_session_user(room, text)
            words = ""
        except ServiceError as error:
            words = error.message
        await self.send(text_data=chat_fragments.chat_flash_fragment(words))

    @database_sync_to_async
    def _lines_since_as_session_user(self, after: int) -> list[ChatMessage]:
        """The lines after ``after`` this socket's person may read, if the log-in this socket
        was opened with still stands (a spectator's room is theirs only while it does)."""
        self._refuse_if_signed_out()
        return chat.lines_since(self.table_id, self.user, after)

    @database_sync_to_async
    def _post_as_session_user(self, room: str, text: str) -> None:
        """Post the line if the log-in this socket was opened with still stands."""
        self._refuse_if_signed_out()
        chat.post_message(self.table_id, self.user, room, text)

    async def _chat_since(self, frame: dict[str, Any]) -> None:
        """Send the lines this socket's person may read that came after the newest the page
        shows: those posted while it was reconnecting (or loading)."""
        after = frame.get("after")
        if isinstance(after, str) and after.isascii() and after.isdigit() and len(after) < 19:
            after = int(after)
        if type(after) is not int or after < 0:
            raise frames.not_understood()
        lines = await self._lines_since_as_session_user(after)
        if lines:
            html = "".join(chat_fragments.chat_line_fragment(line) for line in lines)
            await self.send(text_data=html)

    async def push_chat_line(self, line: ChatMessage) -> None:
        """A new chat line this socket's person may read (the hub decides who may)."""
        await self.send(text_data=chat_fragments.chat_line_fragment(line))

    async def push_chat_hidden(self, message_id: int) -> None:
        """A moderator hid a chat line: take it off the page."""
        await self.send(text_data=chat_fragments.chat_hidden_fragment(message_id))
