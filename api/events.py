"""The event stream (``/api/stream/event``): what concerns one person, as NDJSON lines.

It listens as the site's sockets do, through the channel layer, never by asking the database
in a loop: a channel of its own in the person's site group (``broadcast.site_group``: told that
a challenge of theirs changed, as their pages are), in the group of all their sockets
(``broadcast.user_group``: told of a log-out, a new password or a ban, after which the stream
asks whether its token still works), in the person's API group (told by
``api.receivers`` as their games start and end) and in its token's group (a newer stream of the
same token, or the token revoked, closes it). A challenge that changed is read once, to say
what became of it; a line is written only when what the person sees of it changed.

On connect it writes the games under way and the open challenges, then a line per event, and
an empty line every ``KEEP_ALIVE`` seconds when there is none.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from channels.db import database_sync_to_async
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Q

from api import present, receivers, tokens
from api.lines import KEEP_ALIVE_LINE, line
from api.models import AccessToken
from games.models import Challenge, Seat, Table
from games.services import broadcast

KEEP_ALIVE = 6.0

# What a challenge's change is called for the person, by its status and their part in it.
_CLOSED = {
    Challenge.Status.CANCELLED: "challengeCanceled",
    Challenge.Status.DECLINED: "challengeDeclined",
    Challenge.Status.EXPIRED: "challengeExpired",
}


async def event_lines(
    token: AccessToken, layer: Any, keep_alive: float = KEEP_ALIVE
) -> AsyncIterator[bytes]:
    """The person's events, for as long as the stream is read."""
    user = token.user
    channel = await layer.new_channel("api-events.")
    groups = (
        broadcast.site_group(user.pk),
        broadcast.user_group(user.pk),
        receivers.user_group(user.pk),
        receivers.token_group(token.pk),
    )
    # The token's stream before this one closes (in whichever process it is).
    await layer.group_send(receivers.token_group(token.pk), {"type": "api.replaced", "by": channel})
    for group in groups:
        await layer.group_add(group, channel)
    # One receive at a time, waited on across keep-alive lines and cancelled only at the end:
    # Redis's pub/sub layer forgets a channel whose receive is cancelled, and what came for it
    # until the next receive with it.
    receiving: asyncio.Future | None = None
    try:
        seen: dict[int, tuple] = {}
        for data in await database_sync_to_async(opening_events)(user, seen):
            yield line(data)
        while True:
            if receiving is None:
                receiving = asyncio.ensure_future(layer.receive(channel))
            done, _ = await asyncio.wait((receiving,), timeout=keep_alive)
            if not done:
                yield KEEP_ALIVE_LINE
                continue
            message, receiving = receiving.result(), None
            kind = message.get("type")
            if kind == "api.replaced" and message.get("by") != channel:
                return
            if kind == "api.revoked":
                return
            if kind == "user.signed_out":  # a log-out, a new password or a ban: which?
                if not await database_sync_to_async(_still_works)(token.pk):
                    return
            elif kind == "api.game":
                yield line(_game_event(message))
            elif kind == "challenge.changed":
                found = await database_sync_to_async(challenge_event)(
                    message.get("challenge"), user, seen
                )
                if found is not None:
                    yield line(found)
    finally:
        if receiving is not None:
            receiving.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await receiving
        for group in groups:
            await layer.group_discard(group, channel)


def _still_works(token_id: str) -> bool:
    token = AccessToken.objects.select_related("user").filter(pk=token_id).first()
    return token is not None and not token.revoked and tokens.may_use_tokens(token.user)


def _game_event(message: dict[str, Any]) -> dict[str, Any]:
    game = {"table": message.get("table"), "game": message.get("game")}
    if message.get("kind") == "gameFinish":
        game.update(ending=message.get("ending"), winner=message.get("winner"))
        return {"type": "gameFinish", "game": game}
    return {"type": "gameStart", "game": game}


def opening_events(user: AbstractBaseUser, seen: dict[int, tuple]) -> list[dict[str, Any]]:
    """The games the person plays now and their open challenges, as a stream opens."""
    events: list[dict[str, Any]] = []
    playing = (
        Seat.objects.filter(user=user, table__status=Table.Status.PLAYING)
        .select_related("table__game")
        .order_by("table_id")
    )
    for seat in playing:
        game = getattr(seat.table, "game", None)
        events.append(
            {"type": "gameStart", "game": {"table": seat.table_id, "game": game and game.pk}}
        )
    open_ones = (
        Challenge.objects.filter(status=Challenge.Status.OPEN)
        .filter(Q(challenger=user) | Q(invitations__user=user))
        .select_related("challenger")
        .distinct()
        .order_by("pk")
    )
    for item in open_ones:
        found = _event_of(item, user, seen)
        if found is not None:
            events.append(found)
    return events


def challenge_event(
    challenge_id: Any, user: AbstractBaseUser, seen: dict[int, tuple]
) -> dict[str, Any] | None:
    """What became of the challenge for ``user``, if it changed since they were last told."""
    if type(challenge_id) is not int:
        return None
    item = Challenge.objects.select_related("challenger").filter(pk=challenge_id).first()
    if item is None:
        return None
    return _event_of(item, user, seen)


def _event_of(item: Challenge, user: AbstractBaseUser, seen: dict[int, tuple]) -> dict | None:
    data = present.challenge(item)
    mine = next((row for row in data["invited"] if row["id"] == user.pk), None)
    if mine is None and item.challenger_id != user.pk:
        return None
    key = (data["status"], tuple(row["answer"] for row in data["invited"]))
    if seen.get(item.pk) == key:
        return None
    before = seen.get(item.pk)
    seen[item.pk] = key
    status = data["status"]
    if status == Challenge.Status.ACCEPTED:
        return None  # its game's start is the event
    if status in _CLOSED:
        return {"type": _CLOSED[status], "challenge": data}
    if mine is not None and mine["answer"] == "declined":
        return {"type": "challengeDeclined", "challenge": data}
    if item.challenger_id == user.pk and before is not None:
        answered = [row for row in data["invited"] if row["answer"] != "pending"]
        if any(row["answer"] == "declined" for row in answered):
            return {"type": "challengeDeclined", "challenge": data}
        return {"type": "challengeAnswered", "challenge": data}
    return {"type": "challenge", "challenge": data}
