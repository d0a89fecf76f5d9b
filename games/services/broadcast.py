"""The seam between the services and the transport: group names, and what is sent after commit.

The services never reach for the channel layer: they call the functions here, each of which
sends its message once the transaction commits, through the :class:`Transport` this process was
given (``serve_through``). The games app gives every process one as it starts
(``GamesConfig.ready``), which sends straight to the channel layer; a web process's live side
gives it another as it starts serving (``games.live.server``): the process's table hub, which
sends on the server's event loop and takes each move's change in process.

A table's group message carries no cards: each process reads the table once per message for all
its sockets, or draws it from the change a move made (``games.services.changes``), which only the
transport of the process that stored the move is handed, and which it sends on to the other
processes at the table itself.
"""

from __future__ import annotations

import logging
import uuid
from typing import Any, Protocol

from django.db import transaction

from games.services.changes import TableChange

logger = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"


def group_name(table_id: int) -> str:
    """The channel-layer group of one table's sockets."""
    return f"table-{table_id}"


def user_group(user_id: int) -> str:
    """The group of every socket one person has open, wherever they are."""
    return f"user-{user_id}"


def site_group(user_id: int) -> str:
    """The group of one person's site sockets: one per page they have open (``ws/site/``)."""
    return f"site-{user_id}"


def pool_group(pool: str) -> str:
    """The group of the pages waiting in one quick-match pool."""
    return f"pool-{pool}"


def pool_person_group(user_id: int) -> str:
    """The group of one person's pool pages."""
    return f"pool-person-{user_id}"


class Transport(Protocol):
    """What the services tell the site's sockets through, in this process and the others."""

    def send(self, group: str, message: dict[str, Any]) -> None:
        """Send ``message`` to the channel-layer ``group``, after the messages sent before it.
        Called on the thread that committed; need not wait for the send."""
        ...

    def move_stored(self, change: TableChange) -> bool:
        """Take the change of a move this process stored, just committed, and tell the table's
        sockets in every process of it; whether it was taken (if not, the move's message goes
        to the table's group, and every process reads the table back)."""
        ...


_transport: Transport | None = None


def serve_through(transport: Transport) -> Transport | None:
    """Tell the site's sockets through ``transport`` from now on; return the one before. The
    games app gives one as a process starts; a web process's live side, another as it starts
    serving (``games.live.server``)."""
    global _transport
    before, _transport = _transport, transport
    return before


def transport() -> Transport:
    """The transport the services tell now.

    :raises RuntimeError: none was given (the games app gives one when Django starts).
    """
    if _transport is None:
        raise RuntimeError("the services were given no transport to tell the sockets through")
    return _transport


def _send_after_commit(group: str, message: dict[str, Any]) -> None:
    through = transport()
    transaction.on_commit(lambda: through.send(group, message), robust=True)


def sessions_ended(user_id: int) -> None:
    """After commit, close every socket of the person: they logged out, changed their password
    or were banned, and a socket opened before must not act for them any longer."""
    _send_after_commit(user_group(user_id), {"type": "user.signed_out"})


def table_changed(
    table_id: int, version: int | None = None, change: TableChange | None = None
) -> None:
    """After commit, tell the table's sockets to draw it again.

    Each process hears of it once for all its sockets at the table (``games.live.table_hub``);
    ``version`` is the game's new version after a move. ``change``, what that move changed, is
    handed to this process's transport, which tells the other processes; a transport that does
    not take it has the table's group message, which reaches every process, carry the version
    alone.
    """
    message = {"type": "table.update", "table": table_id, "version": version}
    through = transport()

    def send() -> None:
        taken = False
        if change is not None:
            try:
                taken = through.move_stored(change)
            except Exception:
                logger.exception("a move of table %s was not handed to this process", table_id)
        if not taken:
            through.send(group_name(table_id), message)

    transaction.on_commit(send, robust=True)


def presence_changed(table_id: int) -> None:
    """After commit, tell the table's sockets that someone's first socket there opened or their
    last one closed: only who is online changed."""
    _send_after_commit(group_name(table_id), {"type": "table.presence", "table": table_id})


def lobby_changed() -> None:
    """After commit, tell the lobby's sockets that the list of open tables changed."""
    _send_after_commit(LOBBY_GROUP, {"type": "lobby.update", "key": uuid.uuid4().hex})


def pool_changed(pool: str) -> None:
    """After commit, tell the pool's pages that the number of people waiting changed."""
    message = {"type": "pool.update", "pool": pool, "key": uuid.uuid4().hex}
    _send_after_commit(pool_group(pool), message)


def pool_place_changed(user_id: int, table_id: int | None = None) -> None:
    """After commit, tell the person's pool pages that their place is elsewhere now: seated at
    the table ``table_id``, in another pool, or out of the pools. Each page asks the site where
    to go."""
    _send_after_commit(pool_person_group(user_id), {"type": "pool.elsewhere", "table": table_id})


def chat_posted(table_id: int, message_id: int) -> None:
    """After commit, tell the table's sockets of a new chat message; each process works out
    which of its sockets' people may read it (their room, their mutes: ``chat.readers_of``)."""
    message = {"type": "chat.message", "table": table_id, "id": message_id}
    _send_after_commit(group_name(table_id), message)


def chat_hidden(table_id: int, message_id: int) -> None:
    """After commit, take a hidden chat message off the table's pages."""
    message = {"type": "chat.hidden", "table": table_id, "id": message_id}
    _send_after_commit(group_name(table_id), message)


def bell_changed(user_id: int, notification_id: int | None = None) -> None:
    """After commit, tell the person's pages that their unread count changed: a new
    notification (``notification_id``), or some were read."""
    message = {"type": "site.bell", "notification": notification_id}
    _send_after_commit(site_group(user_id), message)


def challenge_changed(challenge_id: int, user_ids: list[int]) -> None:
    """After commit, tell the pages of the people a challenge involves that it changed (an
    answer, a cancel, an expiry, a start)."""
    message = {"type": "challenge.changed", "challenge": challenge_id}
    for user_id in user_ids:
        _send_after_commit(site_group(user_id), message)


def go_to_table(user_ids: list[int], table_id: int) -> None:
    """After commit, send the pages of these people to the table their challenge started."""
    message = {"type": "site.go", "table": table_id}
    for user_id in user_ids:
        _send_after_commit(site_group(user_id), message)


def friends_presence_changed(user_ids: list[int]) -> None:
    """After commit, tell these people's pages that a friend came online, went offline or sat
    down to play: their friends panel is drawn again."""
    message = {"type": "friends.presence"}
    for user_id in user_ids:
        _send_after_commit(site_group(user_id), message)
