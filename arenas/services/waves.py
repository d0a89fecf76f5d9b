"""An arena's waves: every ``WAVE_SECONDS`` the players waiting in its pool are grouped into
tables (:mod:`arenas.pairing`), and each table is opened and started through the games'
services, its people's pages sent there.

One clock at a time runs an arena's wave (a conditional UPDATE of its ``last_wave_at``), and
each table is seated in a transaction of its own that takes its players out of the pool first
(another conditional UPDATE that must change every one of them): a player whose game ends as a
wave runs, or who withdraws while being paired, is seated once or not at all.
"""

from __future__ import annotations

import logging
import random
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import sanctions
from accounts.models import Sanction
from arenas import pairing
from arenas.models import Arena, ArenaPlayer, ArenaTable
from arenas.services import broadcast as arena_broadcast
from games.models import DEFAULT_BOT_LEVEL, Seat, Table
from games.services import broadcast, starting
from lib.sqlite.retry import retried_while_locked
from social import notifications
from social.models import Notification

logger = logging.getLogger(__name__)

WAVE_SECONDS = 2.0  # between two waves of one arena
# A player whose game ended waits this long in the pool before a wave seats them: time to see
# the result, and for others finishing a moment later to be paired with them.
POOL_SECONDS = 3.0
TABLES_PER_WAVE = 50  # the others wait for the next wave (docs/benchmarks.md)
ARENA_BOT = DEFAULT_BOT_LEVEL
UNFINISHED = (Table.Status.OPEN, Table.Status.PLAYING)
State = ArenaPlayer.State


def claim_wave(arena_id: int, now: datetime) -> bool:
    """Whether this clock runs the arena's wave now: one conditional UPDATE, which of two
    clocks asking at once only one passes."""
    due = now - timedelta(seconds=WAVE_SECONDS)
    claimed = (
        Arena.objects.filter(pk=arena_id, status=Arena.Status.RUNNING)
        .filter(Q(last_wave_at__isnull=True) | Q(last_wave_at__lte=due))
        .update(last_wave_at=now)
    )
    return claimed == 1


def waiting_in(arena: Arena, now: datetime) -> list[pairing.Waiting]:
    """The arena's pool as the pairing sees it: the active players waiting ``POOL_SECONDS`` or
    more."""
    rows = ArenaPlayer.objects.filter(
        arena=arena,
        state=State.ACTIVE,
        waiting_since__isnull=False,
        waiting_since__lte=now - timedelta(seconds=POOL_SECONDS),
    ).values_list("pk", "points", "rating", "waiting_since", "apart")
    return [
        pairing.Waiting(pk, points, rating, (now - since).total_seconds(), frozenset(apart))
        for pk, points, rating, since, apart in rows
    ]


def wave(arena: Arena, now: datetime | None = None) -> list[Table]:
    """One wave of ``arena`` if it is due: pair its pool and seat each table. The tables."""
    now = now or timezone.now()
    if not retried_while_locked(lambda: claim_wave(arena.pk, now)):
        return []
    waiting = retried_while_locked(lambda: waiting_in(arena, now))
    if not waiting:
        return []
    groups = pairing.pair(waiting, arena.seats, bots_allowed=arena.bots_allowed)
    seated = []
    for group in groups[:TABLES_PER_WAVE]:
        try:
            table = seat(arena, group, now)
        except Exception:
            logger.exception("the arena %s could not seat a table", arena.pk)
            continue
        if table is not None:
            seated.append(table)
    if seated:
        arena_broadcast.standings_changed(arena.pk)
    return seated


def seat(arena: Arena, group: pairing.Table, now: datetime | None = None) -> Table | None:
    """Seat one group at a new table of the arena and start its game, in one transaction. None
    (nothing written) if one of them is no longer waiting (withdrew, paused, or another wave
    seated them); a player banned meanwhile, or seated at another table, leaves the pool and
    the others wait on."""
    return retried_while_locked(lambda: _seat(arena, group, now or timezone.now()))


def _seat(arena: Arena, group: pairing.Table, now: datetime) -> Table | None:
    with transaction.atomic():
        players = list(
            ArenaPlayer.objects.select_for_update()
            .filter(
                pk__in=group.players, arena=arena, state=State.ACTIVE, waiting_since__isnull=False
            )
            .select_related("user")
        )
        if len(players) != len(group.players):
            return None
        unable = _unable_to_sit(players)
        if unable:
            for player in unable:
                player.waiting_since = None
                if _refused(player):
                    player.state = State.PAUSED
                player.save(update_fields=["waiting_since", "state"])
            return None
        taken = ArenaPlayer.objects.filter(
            pk__in=group.players, state=State.ACTIVE, waiting_since__isnull=False
        ).update(waiting_since=None)
        if taken != len(group.players):
            raise IntegrityError("an arena player left the pool while locked")
        by_id = {player.pk: player for player in players}
        ordered = [by_id[pk] for pk in group.players]
        table = _open_table(arena, ordered, group.bots)
        game = starting.start_seated(table, now)
        ArenaTable.objects.create(arena=arena, table=table, game=game)
        people = [player.user_id for player in ordered]
        broadcast.go_to_table(people, table.pk)
        for player in ordered:
            if player.games == 0 and player.no_shows == 0:  # their first table of the arena
                notifications.notify(
                    player.user_id,
                    Notification.Kind.ARENA_TABLE,
                    arena=arena.name,
                    url=table.page_url(),
                )
    return table


def _refused(player: ArenaPlayer) -> bool:
    user = player.user
    return (
        not user.is_active
        or sanctions.active_sanction(user, Sanction.Kind.PLAY_BAN) is not None
        or sanctions.active_sanction(user, Sanction.Kind.ARENA_BAN) is not None
    )


def _unable_to_sit(players: list[ArenaPlayer]) -> list[ArenaPlayer]:
    """The players banned (from playing or from arenas), or seated at an unfinished table."""
    seated = set(
        Seat.objects.filter(
            user__in=[player.user_id for player in players], table__status__in=UNFINISHED
        ).values_list("user_id", flat=True)
    )
    return [player for player in players if player.user_id in seated or _refused(player)]


def _open_table(arena: Arena, players: list[ArenaPlayer], bots: int) -> Table:
    """The group's table: public unless the arena is private, its people on random seats, bots
    after them."""
    people = [player.user for player in players]
    random.shuffle(people)
    count = len(people) + bots
    table = Table.objects.create(
        name=(_("Arena: %(name)s") % {"name": arena.name})[:60],
        host=people[0],
        seat_count=count,
        tournament=arena.tournament,
        turn_seconds=arena.turn_seconds,
        public=not arena.private,
        rated=arena.rated and bots == 0,
    )
    Seat.objects.bulk_create(
        Seat(
            table=table,
            position=position,
            user=people[position] if position < len(people) else None,
            bot="" if position < len(people) else ARENA_BOT,
        )
        for position in range(count)
    )
    return table
