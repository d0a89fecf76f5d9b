"""The arenas' times: a site arena made by its schedule, its players reminded a few minutes
before it starts, started (every joined person who is online sent to their first table),
paired every few seconds while it runs, and finished when its time is up (the final standings,
the podium). :func:`tick` runs it all, at most every ``TICK_SECONDS``, from the clock
(``arenas.clock``)."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from arenas.models import Arena, ArenaPlayer, ArenaSchedule
from arenas.services import broadcast, results, waves
from games.services import online
from lib.sqlite.retry import retried_while_locked
from social import notifications
from social.models import Notification

logger = logging.getLogger(__name__)

State = ArenaPlayer.State
REMIND_BEFORE = timedelta(minutes=5)
# A schedule makes its next arena this long before it starts, so people can join it.
EVERY = {ArenaSchedule.Every.HOUR: timedelta(hours=1), ArenaSchedule.Every.DAY: timedelta(days=1)}
MADE_AHEAD = EVERY
PODIUM = 3


def make_scheduled(now: datetime) -> list[Arena]:
    """The arenas the schedules owe by ``now``: each schedule's next one, made ``MADE_AHEAD``
    before it starts; a start already past is skipped to the next one to come."""
    made = []
    for schedule in ArenaSchedule.objects.filter(active=True):
        step = EVERY[schedule.every]
        start = schedule.next_start
        while start <= now:
            start += step
        due = start - MADE_AHEAD[schedule.every] <= now
        after = start + step if due else start
        with transaction.atomic():
            # Claimed by one conditional UPDATE: of two clocks, one moves the schedule on.
            claimed = ArenaSchedule.objects.filter(
                pk=schedule.pk, next_start=schedule.next_start
            ).update(next_start=after)
            if not claimed or not due:
                continue
            made.append(
                Arena.objects.create(
                    name=schedule.name,
                    starts_at=start,
                    minutes=schedule.minutes,
                    seats=schedule.seats,
                    turn_seconds=schedule.turn_seconds,
                    tournament=schedule.tournament,
                    rated=schedule.rated,
                    bots_allowed=schedule.bots_allowed,
                    schedule=schedule,
                )
            )
    return made


def remind(now: datetime) -> int:
    """Tell the players of each arena starting within ``REMIND_BEFORE`` that it starts soon,
    once; how many were told."""
    told = 0
    soon = Arena.objects.filter(
        status=Arena.Status.SCHEDULED, reminded=False, starts_at__lte=now + REMIND_BEFORE
    )
    for arena_id in soon.values_list("pk", flat=True):
        with transaction.atomic():
            if not Arena.objects.filter(pk=arena_id, reminded=False).update(reminded=True):
                continue  # another clock did
            arena = Arena.objects.get(pk=arena_id)
            minutes = max(1, round((arena.starts_at - now).total_seconds() / 60))
            for user_id in arena.players.filter(state=State.ACTIVE).values_list(
                "user_id", flat=True
            ):
                notifications.notify(
                    user_id,
                    Notification.Kind.ARENA_STARTING,
                    arena=arena.name,
                    minutes=minutes,
                    url=arena.page_url(),
                )
                told += 1
    return told


def start_due(now: datetime) -> list[Arena]:
    """Start the arenas whose time has come: the joined players who are online go into the pool
    as if they had waited since the start, so the first wave seats them all; the others are
    paused until they come back."""
    started = []
    due = Arena.objects.filter(status=Arena.Status.SCHEDULED, starts_at__lte=now)
    for arena_id in due.values_list("pk", flat=True):
        with transaction.atomic():
            if not Arena.objects.filter(pk=arena_id, status=Arena.Status.SCHEDULED).update(
                status=Arena.Status.RUNNING
            ):
                continue
            arena = Arena.objects.get(pk=arena_id)
            active = arena.players.filter(state=State.ACTIVE)
            here = online.online_among(active.values_list("user_id", flat=True))
            early = min(arena.starts_at, now) - timedelta(seconds=waves.POOL_SECONDS)
            active.filter(user_id__in=here).update(waiting_since=early)
            active.exclude(user_id__in=here).update(state=State.PAUSED, waiting_since=None)
            broadcast.standings_changed(arena.pk)
            started.append(arena)
    return started


def finish_due(now: datetime) -> list[Arena]:
    """Finish the arenas whose time is up (``finish_arena``)."""
    due = Arena.objects.filter(status=Arena.Status.RUNNING, ends_at__lte=now)
    return [arena for arena in due if finish_arena(arena.pk, now)]


def final_order(players: list[ArenaPlayer]) -> list[ArenaPlayer]:
    """The standings' order: more points first, then fewer games (the same points in fewer
    games), then who joined first."""
    return sorted(players, key=lambda p: (-p.points, p.games, p.joined_at, p.pk))


def finish_arena(arena_id: int, now: datetime, status: str = Arena.Status.FINISHED) -> bool:
    """End the arena: nobody is paired any more, games still running count for nothing, every
    player who played is given their final place (the first ``PODIUM`` are its podium, a
    trophy on their profile). False if it had ended already."""
    with transaction.atomic():
        if not Arena.objects.filter(
            pk=arena_id, status__in=(Arena.Status.SCHEDULED, Arena.Status.RUNNING)
        ).update(status=status):
            return False
        players = list(ArenaPlayer.objects.filter(arena_id=arena_id))
        ArenaPlayer.objects.filter(arena_id=arena_id).update(waiting_since=None)
        if status == Arena.Status.FINISHED:
            ranked = [p for p in final_order(players) if p.games > 0 and p.state != State.REMOVED]
            for place, player in enumerate(ranked, start=1):
                ArenaPlayer.objects.filter(pk=player.pk).update(rank=place)
        broadcast.standings_changed(arena_id)
    return True


def tick(now: datetime | None = None) -> None:
    """Everything the arenas owe by ``now``: the schedules' arenas, the reminders, the starts,
    the ends, the waves of the running arenas, the leavers and the no-shows. One part's failure
    is logged and the others go on."""
    now = now or timezone.now()
    for part in (make_scheduled, remind, start_due, finish_due):
        try:
            retried_while_locked(lambda part=part: part(now))
        except Exception:
            logger.exception("the arenas' clock failed: %s", part.__name__)
    for arena in Arena.objects.filter(status=Arena.Status.RUNNING, ends_at__gt=now):
        try:
            waves.wave(arena, now)
        except Exception:
            logger.exception("the wave of arena %s failed", arena.pk)
    for sweep in (results.pause_leavers, results.sweep_no_shows):
        try:
            sweep(now)
        except Exception:
            logger.exception("the arenas' clock failed: %s", sweep.__name__)
