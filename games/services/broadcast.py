"""The seam between the site and its transport: group names, sends after commit, presence.

The other services never reach for the channel layer or the cache themselves. A table's group
message carries no cards: each process reads the table from the database once per message and
each socket draws its own user's view. A move need not be read back: after commit the table's
new :class:`TableState` is handed to this process's table listener (:class:`TableListener`,
which the transport gives with :func:`listen`), which draws it here and sends it to the other
processes at the table; the group message without it goes to every process only when no
listener takes the move.
"""

from __future__ import annotations

import asyncio
import logging
import os
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth.models import AbstractBaseUser
from django.core.cache import cache, caches
from django.core.cache.backends.redis import RedisCache
from django.db import transaction

if TYPE_CHECKING:
    from games.engine import GameState
    from games.models import Game, RatingChange, Seat, Table

logger = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"


def group_name(table_id: int) -> str:
    """The channel-layer group of one table's sockets."""
    return f"table-{table_id}"


def user_group(user_id: int) -> str:
    """The group of every socket one person has open, wherever they are."""
    return f"user-{user_id}"


def sessions_ended(user_id: int) -> None:
    """After commit, close every socket of the person: they logged out, changed their password
    or were banned, and a socket opened before must not act for them any longer."""
    message = {"type": "user.signed_out"}
    transaction.on_commit(lambda: _group_send(user_group(user_id), message), robust=True)


class SeatState(NamedTuple):
    """One seat of a table as the services hold it: who sits there, R23's count, and why and
    after how many moves a bot took it over from a person."""

    position: int
    user_id: int | None
    username: str | None  # the person's, None for a bot or an empty seat
    bot: str  # the bot's kind, "" for a person or an empty seat
    timeouts: int  # R23: turns timed out in a row
    replaced_because: str  # "" unless a bot took the seat over (Seat.Takeover)
    replaced_at: int | None  # how many moves had been played then
    replaced_user_id: int | None = None  # the person a bot took the seat from


def seat_states(seats: Iterable[Seat]) -> tuple[SeatState, ...]:
    """Seats (their users loaded) as :class:`TableState` carries them."""
    return tuple(
        SeatState(
            seat.position,
            seat.user_id,
            seat.user.username if seat.user_id else None,
            seat.bot,
            seat.timeouts,
            seat.replaced_because,
            seat.replaced_at,
            seat.replaced_user_id,
        )
        for seat in seats
    )


@dataclass(frozen=True, slots=True)
class TableState:
    """A table just after a move, as the move path that stored it holds it (committed).

    ``move`` is the stored move as the table lists it (seq, seat, source, events, action);
    ``previous_digest`` is the digest of the move before, so a reader can check that the view it
    builds on is the one this move followed; ``online`` the people with a socket at the table;
    ``rating_changes`` the players' rating changes when the move won a rated game (written in
    its transaction), none on any other move.
    """

    table: Table
    game: Game
    engine: GameState
    seats: tuple[SeatState, ...]
    move: dict[str, Any]
    previous_digest: str
    online: frozenset[int]
    rating_changes: tuple[RatingChange, ...] = ()


class TableListener(Protocol):
    """What this process's transport offers the services (``games.live.table_hub.TableHub``):
    the state of each move stored here, handed over in process, so that its sockets need not
    read the table back, and the move's message, which the listener sends to the other
    processes at the table (none when all its sockets are in this one)."""

    def move_stored(self, state: TableState) -> bool:
        """Take the table's state after a move this process stored, just committed, and tell
        the table's sockets in every process of it; whether it was taken (if not, the move's
        message goes to the table's group). Called on the thread that committed it: what the
        listener does with it runs on its own."""
        ...


_listener: TableListener | None = None


def listen(listener: TableListener) -> None:
    """Make ``listener`` this process's table listener, in place of the one before (a process
    serves its sockets from one event loop)."""
    global _listener
    _listener = listener


def table_changed(
    table_id: int, version: int | None = None, state: TableState | None = None
) -> None:
    """After commit, tell the table's sockets to draw it again.

    Each process hears of it once for all its sockets at the table (``games.live.table_hub``);
    ``version`` is the game's new version after a move. ``state``, the table after that move, is
    handed to this process's listener, which tells the other processes; without a listener that
    takes it, the table's group message, which reaches every process, carries the version alone.
    """
    message = {"type": "table.update", "table": table_id, "version": version}

    def send() -> None:
        listener = _listener
        taken = False
        if state is not None and listener is not None:
            try:
                taken = listener.move_stored(state)
            except Exception:
                logger.exception("a move of table %s was not handed to this process", table_id)
        if not taken:
            _group_send(group_name(table_id), message)

    transaction.on_commit(send, robust=True)


def lobby_changed() -> None:
    """After commit, tell the lobby's sockets that the list of open tables changed."""
    message = {"type": "lobby.update", "key": uuid.uuid4().hex}
    transaction.on_commit(lambda: _group_send(LOBBY_GROUP, message), robust=True)


# ---------------------------------------------------------------------------- quick match


def pool_group(pool: str) -> str:
    """The group of the pages waiting in one quick-match pool."""
    return f"pool-{pool}"


def pool_person_group(user_id: int) -> str:
    """The group of one person's pool pages."""
    return f"pool-person-{user_id}"


def pool_changed(pool: str) -> None:
    """After commit, tell the pool's pages that the number of people waiting changed."""
    message = {"type": "pool.update", "pool": pool, "key": uuid.uuid4().hex}
    transaction.on_commit(lambda: _group_send(pool_group(pool), message), robust=True)


def pool_place_changed(user_id: int, table_id: int | None = None) -> None:
    """After commit, tell the person's pool pages that their place is elsewhere now: seated at
    the table ``table_id``, in another pool, or out of the pools. Each page asks the site where
    to go."""
    message = {"type": "pool.elsewhere", "table": table_id}
    transaction.on_commit(lambda: _group_send(pool_person_group(user_id), message), robust=True)


# ---------------------------------------------------------------------------- presence
#
# Who is connected to a table is counted in the cache (shared by every process with REDIS_URL),
# not in the database: it is not part of the game. One counter per person and table, changed
# atomically (incr/decr) by each socket that opens or closes, and kept alive every
# PRESENCE_REFRESH seconds by the process that holds the sockets, for all its people at once
# (``people_alive``): the counts of a process that was killed with its sockets open expire
# within PRESENCE_TTL seconds, and its people show offline, as on lichess, seconds later.

PRESENCE_TTL = 12
PRESENCE_REFRESH = 4
# A person's first socket at a table also notes that they came to it, for as long as a table
# quick match made may wait for its people (``games.services.no_shows``): someone who came and
# is reloading the page has come all the same.
ARRIVAL_TTL = 15 * 60


def socket_opened(table_id: int, user: AbstractBaseUser) -> int:
    """One more socket of ``user`` at the table; return how many they now have there. The
    table's seats are drawn again for everyone only when it is their first (a second tab
    changes nothing that anyone sees)."""
    key = _presence_key(table_id, user.pk)
    if cache.add(key, 1, PRESENCE_TTL):
        count = 1
    else:
        try:
            count = cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.add(key, 1, PRESENCE_TTL)
            count = 1
        cache.touch(key, PRESENCE_TTL)
    if count == 1:
        cache.add(_arrival_key(table_id, user.pk), True, ARRIVAL_TTL)
        _presence_changed(table_id)
    return count


def socket_closed(table_id: int, user: AbstractBaseUser) -> None:
    """One socket fewer; when it was the last one, the seats are drawn again for everyone."""
    key = _presence_key(table_id, user.pk)
    try:
        count = cache.decr(key)
    except ValueError:  # already expired: nobody is counted
        return
    if count <= 0:
        if count < 0:
            cache.set(key, 0, PRESENCE_TTL)
        _presence_changed(table_id)


def socket_alive(table_id: int, user: AbstractBaseUser) -> None:
    """An open socket keeps its person's count from expiring."""
    people_alive([(table_id, user.pk)])


def people_alive(pairs: Iterable[tuple[int, int]]) -> None:
    """Keep the counts of these people at these tables, ``(table_id, user_id)``, from expiring:
    a process's open sockets, every PRESENCE_REFRESH s. With Redis, one round trip for all of
    them. A count that had expired meanwhile is set again and its table's seats drawn again."""
    pairs = list(pairs)
    keys = [_presence_key(table_id, user_id) for table_id, user_id in pairs]
    for (table_id, _user_id), key, kept in zip(pairs, keys, _touch_many(keys), strict=True):
        if not kept and cache.add(key, 1, PRESENCE_TTL):
            _presence_changed(table_id)  # the count had expired: count this socket again


def _touch_many(keys: list[str]) -> list[bool]:
    """Give each key PRESENCE_TTL seconds more; whether it was there."""
    backend = caches["default"]
    if isinstance(backend, RedisCache) and keys:
        pipeline = backend._cache.get_client(write=True).pipeline(transaction=False)
        for key in keys:
            pipeline.expire(backend.make_and_validate_key(key), PRESENCE_TTL)
        return [bool(kept) for kept in pipeline.execute()]
    return [backend.touch(key, PRESENCE_TTL) for key in keys]


def connected_users(table_id: int, user_ids: Iterable[int]) -> set[int]:
    """Which of ``user_ids`` have a socket open at the table (one cache round trip)."""
    keys = {_presence_key(table_id, user_id): user_id for user_id in user_ids}
    counts = cache.get_many(list(keys))
    return {keys[key] for key, count in counts.items() if count and count > 0}


def arrived_users(table_id: int, user_ids: Iterable[int]) -> set[int]:
    """Which of ``user_ids`` opened the table's page in the last ``ARRIVAL_TTL`` seconds, open
    now or not (one cache round trip)."""
    keys = {_arrival_key(table_id, user_id): user_id for user_id in user_ids}
    return {keys[key] for key, came in cache.get_many(list(keys)).items() if came}


def _arrival_key(table_id: int, user_id: int) -> str:
    return f"taki:arrived:{table_id}:{user_id}"


def _presence_changed(table_id: int) -> None:
    message = {"type": "table.presence", "table": table_id}
    transaction.on_commit(lambda: _group_send(group_name(table_id), message), robust=True)


def _presence_key(table_id: int, user_id: int) -> str:
    return f"taki:presence:{table_id}:{user_id}"


def _group_send(group: str, message: dict[str, Any]) -> None:
    """Send ``message`` to the group. From a server's database thread (a consumer's or a view's
    ``sync_to_async`` call) the send is handed to the server's event loop and not waited for:
    the one thread that runs every database call of a process would otherwise idle until the
    loop, busy drawing tables, gets round to it. Sends keep their order either way."""
    layer = get_channel_layer()
    if layer is None:
        return
    loop = _server_loop()
    if loop is None:
        async_to_sync(layer.group_send)(group, message)
        return
    try:
        loop.call_soon_threadsafe(_start_send, layer, group, message)
    except RuntimeError:  # the loop closed meanwhile (the server is stopping)
        logger.warning("not sent to %s: the event loop is closed", group)


def _server_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop that called this thread through ``sync_to_async``, if any."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        pass
    else:
        return None  # called on a loop's own thread: async_to_sync says what is wrong
    local = SyncToAsync.threadlocal
    loop = getattr(local, "main_event_loop", None)
    if loop is None or getattr(local, "main_event_loop_pid", None) != os.getpid():
        return None
    return None if loop.is_closed() else loop


_sending: set[asyncio.Task[None]] = set()  # sends under way (a task needs a reference)
_last_send: list[asyncio.Task[None]] = []  # the newest, which the next one waits for


def _start_send(layer: Any, group: str, message: dict[str, Any]) -> None:
    """Start the send on this loop, after the one before it: a layer's sends may otherwise
    overtake each other (channels-redis makes several round trips for one)."""
    loop = asyncio.get_running_loop()
    previous = _last_send[0] if _last_send and _last_send[0].get_loop() is loop else None
    task = loop.create_task(_send_after(previous, layer, group, message))
    _last_send[:] = [task]
    _sending.add(task)
    task.add_done_callback(_sent)


async def _send_after(
    previous: asyncio.Task[None] | None, layer: Any, group: str, message: dict[str, Any]
) -> None:
    if previous is not None:
        await asyncio.wait([previous])  # done, whether it failed or not
    await layer.group_send(group, message)


def _sent(task: asyncio.Task[None]) -> None:
    _sending.discard(task)
    if not task.cancelled() and task.exception() is not None:
        logger.error("a group send failed", exc_info=task.exception())


# ---------------------------------------------------------------------------- chat


def chat_posted(table_id: int, message_id: int) -> None:
    """After commit, tell the table's sockets of a new chat message; each process works out
    which of its sockets' people may read it (their room, their mutes: ``chat.readers_of``)."""
    message = {"type": "chat.message", "table": table_id, "id": message_id}
    transaction.on_commit(lambda: _group_send(group_name(table_id), message), robust=True)


def chat_hidden(table_id: int, message_id: int) -> None:
    """After commit, take a hidden chat message off the table's pages."""
    message = {"type": "chat.hidden", "table": table_id, "id": message_id}
    transaction.on_commit(lambda: _group_send(group_name(table_id), message), robust=True)
