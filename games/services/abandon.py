"""Untimed tables whose people have all gone are ended as abandoned.

A timed table never waits for ever: R23 plays for an absent person and, after three timeouts,
gives the seat to a bot. An untimed one waits on its people; when none of them has had the
table open for ``ABANDON_AFTER`` and nothing has been played meanwhile, nobody is coming back.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Max
from django.db.models.functions import Coalesce
from django.utils import timezone

from games.models import Game, Table
from games.services import presence
from games.services.finish import Ending, finish

ABANDON_AFTER = timedelta(minutes=10)


def end_abandoned(now: datetime | None = None, after: timedelta = ABANDON_AFTER) -> list[int]:
    """End every untimed running table left alone for ``after``; return their ids. Turn-based
    tables are not untimed: their clock plays for whoever is away (``games.services.turns``).

    Left alone: nothing played since ``now - after`` (nor the game started), and none of its
    seated people has a socket open there now (``presence.connected_users``).
    """
    now = now or timezone.now()
    quiet = (
        Game.objects.filter(
            table__status=Table.Status.PLAYING,
            table__turn_seconds__isnull=True,
            table__turn_days__isnull=True,  # a turn-based game waits days for a move
            winner__isnull=True,
        )
        .annotate(last=Coalesce(Max("moves__created_at"), "started_at"))
        .filter(last__lte=now - after)
        .values_list("table_id", flat=True)
    )
    ended = []
    for table_id in list(quiet):
        table = Table.objects.get(pk=table_id)
        people = list(table.seats.filter(user__isnull=False).values_list("user_id", flat=True))
        if people and presence.connected_users(table_id, people):
            continue
        if mark_abandoned(table_id, now):
            ended.append(table_id)
    return ended


def mark_abandoned(table_id: int, now: datetime | None = None) -> bool:
    """End a running table as abandoned (``finish``): nothing more is due. False if it no
    longer runs."""
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id).first()
        if table is None or table.status != Table.Status.PLAYING:
            return False
        finish(table, Ending.ABANDONED, now=now or timezone.now())
    return True
