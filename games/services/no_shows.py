"""A matched player who never comes: quick match's untimed tables are aborted when one of their
people has not opened the table within ``NO_SHOW_AFTER`` of the match.

A timed table never waits for a missing player (R23 plays for them, then gives their seat to a
bot); an untimed one would wait until the others left. So, as on lichess, an untimed table that
quick match made is aborted when one of its people has neither opened it (``broadcast``'s note
of their first socket there) nor played by then, while someone else came: it counts for no one
(no result, no rating: ``finish``), and each person who came is put back at the head of the pool
(``quickmatch.put_back``) and told why on the table's page. A table nobody came to is left to
``abandon``. Every clock looks every ``SWEEP_SECONDS``; the abort takes the table's lock and
happens once, whichever clock gets there first.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from games.models import Move, Seat, Table
from games.services import presence, quickmatch
from games.services.abandon import ABANDON_AFTER
from games.services.finish import Ending, finish
from lib.sqlite.retry import retried_while_locked

NO_SHOW_AFTER = timedelta(seconds=30)
SWEEP_SECONDS = 2.0  # between two looks, per clock


@dataclass(frozen=True, slots=True)
class Attendance:
    """Who of a matched table's people came to it, and who did not."""

    table_id: int
    came: tuple[int, ...]
    absent: tuple[int, ...]


def abort_no_shows(now: datetime | None = None) -> list[int]:
    """Abort every untimed matched table one of whose people never came, where another did;
    return their ids."""
    now = now or timezone.now()
    aborted = []
    for attendance in retried_while_locked(lambda: attendances(now)):
        if attendance.absent and attendance.came and abort_for_no_show(attendance, now):
            aborted.append(attendance.table_id)
    return aborted


def attendances(now: datetime, among: list[int] | None = None) -> list[Attendance]:
    """Who came to each untimed matched table still running ``NO_SHOW_AFTER`` after its match
    (``among`` these tables only, if given), among those one of whose people has not played
    yet. Tables older than ``ABANDON_AFTER`` are ``abandon``'s. Three statements and a cache
    round trip per table with a person who has not played."""
    candidates = Table.objects.filter(
        status=Table.Status.PLAYING,
        turn_seconds__isnull=True,
        turn_days__isnull=True,
        created_at__lte=now - NO_SHOW_AFTER,
        created_at__gt=now - ABANDON_AFTER,
    ).exclude(pool="")
    if among is not None:
        candidates = candidates.filter(pk__in=among)
    tables = list(candidates.values_list("pk", flat=True))
    if not tables:
        return []
    people: dict[int, dict[int, int]] = defaultdict(dict)  # table -> seat -> person
    seats = Seat.objects.filter(table_id__in=tables, user__isnull=False)
    for table_id, position, user_id in seats.values_list("table_id", "position", "user_id"):
        people[table_id][position] = user_id
    played = set(
        Move.objects.filter(game__table_id__in=tables, source=Move.Source.PLAYER)
        .values_list("game__table_id", "seat")
        .distinct()
    )
    found = []
    for table_id, seated in people.items():
        waiting = [user for seat, user in seated.items() if (table_id, seat) not in played]
        if not waiting:
            continue
        came = presence.arrived_users(table_id, waiting)
        came |= presence.connected_users(table_id, waiting)
        came |= set(seated.values()) - set(waiting)
        absent = tuple(user for user in seated.values() if user not in came)
        found.append(Attendance(table_id, tuple(sorted(came)), absent))
    return found


def abort_for_no_show(attendance: Attendance, now: datetime) -> bool:
    """Abort the table for its first absent person, and put back in its pool each person who
    came, in one transaction. False if the table no longer runs (another clock aborted it, or
    it ended meanwhile)."""
    return retried_while_locked(lambda: _abort(attendance, now))


def _abort(attendance: Attendance, now: datetime) -> bool:
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=attendance.table_id).first()
        if table is None or table.status != Table.Status.PLAYING:
            return False
        # Asked again under the lock: the missing player may have come, or played, meanwhile.
        fresh = attendances(now, [table.pk])
        if not fresh or not (fresh[0].absent and fresh[0].came):
            return False
        attendance = fresh[0]
        table.no_show_id = attendance.absent[0]
        table.save(update_fields=["no_show"])
        finish(table, Ending.ABORTED, now=now)
        if table.pool not in quickmatch.POOLS:
            return True  # a pool the site no longer offers: the lobby is where they go
        for person in get_user_model().objects.filter(pk__in=attendance.came, is_active=True):
            quickmatch.put_back(person, table.pool, table.created_at, now)
    return True
