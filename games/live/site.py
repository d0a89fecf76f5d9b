"""``ws/site/``: the socket of every signed-in page, as lila-ws keeps one per page.

It counts its person online while it is open (``online.page_opened``, the process's
:class:`Heartbeat`, ``page_closed``), and pushes to the page what concerns its person wherever
they are: the header's bell with the unread count (read from the database as it opens, so a page
that was closed sees what it missed), each new notification, and "go to this table" when a
challenge of theirs starts. A page says in its address what else it shows, and is pushed that
only: ``?friends=1`` the friends panel (drawn again when a friend comes or goes),
``?challenges=1`` the open challenges, ``?challenge=<id>`` that challenge. htmx's ws extension
swaps each pushed element into the page by its id; an element the page does not hold would be
an error in its console, so none is sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import translation

from games.live import heartbeat, restarts
from games.live.consumers import CLOSE_FORBIDDEN, CLOSE_SIGNED_OUT, CLOSE_TOO_MANY
from games.live.scope import language_of, user_of
from games.presenters import site as fragments
from games.services import broadcast, online, turns
from social import notifications

logger = logging.getLogger(__name__)

# Pages one person may have open at once in one process.
PAGES_PER_PERSON = 30

# The looks, a moment after a page closed, at whether its person has gone (kept, so that they
# are not collected before they are done).
_leaving: set[asyncio.Task[None]] = set()


class Heartbeat(heartbeat.Heartbeat):
    """The people with a page open in this process, kept online in the cache in one round
    trip every ``online.ONLINE_REFRESH`` seconds, however many pages, and written again for the
    count of the people online."""

    def __init__(self) -> None:
        super().__init__()
        # This process's name in the count of the people online (``online.process_people``).
        self.process = uuid.uuid4().hex

    def interval(self) -> float:
        return online.ONLINE_REFRESH

    def alive(self, user_ids: list[int]) -> None:
        online.pages_alive(user_ids)

    async def after_beat(self) -> None:
        await self.write_count()

    async def write_count(self) -> None:
        """The people here written for the count of the people online, as one comes or goes
        (the heartbeat writes them again every ``online.ONLINE_REFRESH`` seconds)."""
        with contextlib.suppress(Exception):  # the cache away for a moment: next beat
            await database_sync_to_async(online.process_people)(self.process, list(self.people))


def _shown(scope: dict[str, Any]) -> tuple[bool, bool, int | None]:
    """What else the page shows, from its socket's address: the friends panel, the open
    challenges, one challenge."""
    query = parse_qs(scope.get("query_string", b"").decode())
    challenge = (query.get("challenge") or [""])[0]
    return (
        (query.get("friends") or [""])[0] == "1",
        (query.get("challenges") or [""])[0] == "1",
        int(challenge)
        if challenge.isascii() and challenge.isdigit() and len(challenge) < 12
        else None,
    )


class SiteConsumer(AsyncWebsocketConsumer):
    """One signed-in page."""

    counted = False

    async def connect(self) -> None:
        self.user = user_of(self.scope)
        if not getattr(self.user, "is_authenticated", False):
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.language = language_of(self.scope)
        self.friends, self.challenges, self.challenge_id = _shown(self.scope)
        await self.accept()
        if Heartbeat.here().add(self.user.pk) > PAGES_PER_PERSON:
            Heartbeat.here().discard(self.user.pk)
            await self.close(code=CLOSE_TOO_MANY, reason="too many pages")
            return
        self.counted = True
        await Heartbeat.here().write_count()
        restarts.opened(self)
        for group in self._groups:
            await self.channel_layer.group_add(group, self.channel_name)
        await database_sync_to_async(online.page_opened)(self.user)
        await self.site_bell({})

    async def disconnect(self, code: int) -> None:
        if not self.counted:
            return
        restarts.closed(self)
        Heartbeat.here().discard(self.user.pk)
        await Heartbeat.here().write_count()
        for group in self._groups:
            await self.channel_layer.group_discard(group, self.channel_name)
        await database_sync_to_async(online.page_closed)(self.user)
        # Going from one page to the next opens another socket at once: whether the person has
        # gone is asked a moment later, by a task of its own (this consumer is ending).
        task = asyncio.ensure_future(_gone_later(self.user))
        _leaving.add(task)
        task.add_done_callback(_leaving.discard)

    @property
    def _groups(self) -> tuple[str, ...]:
        """Its person's pages, and every socket of theirs (told when their sessions end)."""
        return broadcast.site_group(self.user.pk), broadcast.user_group(self.user.pk)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        return  # the page only listens

    async def close_for_restart(self) -> None:
        await self.close(code=restarts.CLOSE_SERVICE_RESTART)

    async def user_signed_out(self, message: dict[str, Any]) -> None:
        await self.close(code=CLOSE_SIGNED_OUT)

    # ------------------------------------------------------------------ pushes

    async def site_bell(self, message: dict[str, Any]) -> None:
        """The unread count changed; with ``notification``, a new one came."""
        html = await self._draw(_bell, self.user, message.get("notification"))
        await self.send(text_data=html)

    async def challenge_changed(self, message: dict[str, Any]) -> None:
        """A challenge of its person's changed: drawn again where the page shows it."""
        challenge = message.get("challenge")
        parts = []
        if self.challenge_id is not None and challenge == self.challenge_id:
            parts.append(await self._draw(fragments.challenge_fragment, challenge, self.user))
        if self.challenges:
            parts.append(await self._draw(fragments.open_challenges_fragment, self.user))
        if any(parts):
            await self.send(text_data="".join(parts))

    async def friends_presence(self, message: dict[str, Any]) -> None:
        """A friend came online or went: the friends panel drawn again, where it is shown."""
        if self.friends:
            await self.send(text_data=await self._draw(fragments.friends_panel_fragment, self.user))

    async def site_go(self, message: dict[str, Any]) -> None:
        """A challenge of its person's started: the page goes to the table."""
        table = message.get("table")
        if isinstance(table, int):
            with translation.override(self.language):
                await self.send(text_data=fragments.go_fragment(table))

    async def _draw(self, draw, *args: Any) -> str:
        """``draw(*args)`` in the database thread, in the page's language."""

        def drawn() -> str:
            with translation.override(self.language):
                return draw(*args)

        return await database_sync_to_async(drawn)()


def _bell(user, notification_id: int | None) -> str:
    html = fragments.bell_fragment(notifications.unread_count(user))
    html += fragments.your_move_fragment(turns.my_move_count(user))
    if isinstance(notification_id, int):
        html += fragments.alert_fragment(fragments.read_alert(user, notification_id))
    return html


async def _gone_later(user) -> None:
    await asyncio.sleep(online.GONE_AFTER)
    try:
        await database_sync_to_async(online.gone)(user)
    except Exception:
        logger.exception("could not tell the friends of %s they left", user.pk)
