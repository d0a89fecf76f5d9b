"""Arenas and their players: a private arena made by a person, joining, withdrawing, pausing
and coming back."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import guests
from accounts.models import Sanction
from arenas.models import MAX_SEATS, MIN_SEATS, Arena, ArenaPlayer
from arenas.services import broadcast
from games.models import RatingMode
from games.services import quickmatch, tables
from games.services.errors import ServiceError, refuse_if_sanctioned
from lib.unicode import has_invisible_characters

User = AbstractBaseUser
State = ArenaPlayer.State
# A person may create a private arena after this many finished games.
GAMES_TO_CREATE = 10
PRIVATE_MINUTES = (20, 120)
# How far ahead a private arena may start.
PRIVATE_AHEAD = timedelta(days=7)
TURN_TIMES = (None, 15, 30, 60)


def mode_of(arena: Arena) -> str:
    """The rating an arena's games count for (as ``ratings.mode_of`` a table)."""
    if arena.tournament:
        return RatingMode.TOURNAMENT
    return RatingMode.DUEL if arena.seats == 2 else RatingMode.PARTY


def finished_games(user: User) -> int:
    from games.models import Seat, Table

    return (
        Seat.objects.sat_by(user)
        .filter(table__status=Table.Status.FINISHED)
        .values("table")
        .distinct()
        .count()
    )


def check_may_enter(user: User) -> None:
    """Who may take part in arenas: signed-up people, not banned from playing nor from arenas.

    :raises ServiceError: ``forbidden``, saying why.
    """
    if not getattr(user, "is_authenticated", False):
        raise ServiceError("forbidden", _("Log in to take part in arenas."))
    if guests.is_guest(user):
        raise ServiceError(
            "forbidden", _("Guests play against bots. Keep your account to play in arenas.")
        )
    if not user.is_active:
        raise ServiceError("forbidden", _("This account is banned."))
    tables.check_may_play(user)
    refuse_if_sanctioned(user, Sanction.Kind.ARENA_BAN)


def create_private(
    user: User,
    *,
    name: str,
    starts_at: datetime,
    minutes: int,
    seats: int,
    turn_seconds: int | None,
    tournament: bool = False,
    rated: bool = False,
    bots_allowed: bool = False,
    now: datetime | None = None,
) -> Arena:
    """A private arena, reached by its link, created by ``user``, who joins it.

    :raises ServiceError: ``forbidden`` for fewer than ``GAMES_TO_CREATE`` finished games (or
        anyone who may not take part); ``bad_request`` for a blank name, a start in the past or
        too far ahead, a duration or table size out of range.
    """
    now = now or timezone.now()
    check_may_enter(user)
    played = finished_games(user)
    if played < GAMES_TO_CREATE:
        raise ServiceError(
            "forbidden",
            _("Finish %(count)d games before creating an arena (you have finished %(done)d).")
            % {"count": GAMES_TO_CREATE, "done": played},
        )
    name = (name or "").strip()
    if not name or has_invisible_characters(name) or len(name) > 60:
        raise ServiceError("bad_request", _("Give the arena a name of up to 60 characters."))
    if not now - timedelta(minutes=1) <= starts_at <= now + PRIVATE_AHEAD:
        raise ServiceError("bad_request", _("An arena starts within the next seven days."))
    low, high = PRIVATE_MINUTES
    if not low <= minutes <= high:
        raise ServiceError(
            "bad_request",
            _("An arena lasts %(low)d to %(high)d minutes.") % {"low": low, "high": high},
        )
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise ServiceError(
            "bad_request",
            _("An arena's tables have %(low)d to %(high)d seats.")
            % {"low": MIN_SEATS, "high": MAX_SEATS},
        )
    if turn_seconds not in TURN_TIMES:
        raise ServiceError("bad_request", _("Choose a turn time of 15, 30 or 60 seconds, or none."))
    with transaction.atomic():
        arena = Arena.objects.create(
            name=name,
            starts_at=max(starts_at, now),
            minutes=minutes,
            seats=seats,
            turn_seconds=turn_seconds,
            tournament=tournament,
            rated=rated,
            bots_allowed=bots_allowed,
            private=True,
            created_by=user,
        )
        join(arena.pk, user, invite=arena.invite_token, now=now)
    return arena


def may_see(arena: Arena, user: User | None, invite: str | None = None) -> bool:
    """A private arena is seen with its link, by its creator and by its players."""
    if not arena.private:
        return True
    if invite and invite == arena.invite_token:
        return True
    if user is None or not user.is_authenticated:
        return False
    return (
        arena.created_by_id == user.pk
        or user.is_staff
        or ArenaPlayer.objects.filter(arena=arena, user=user).exists()
    )


def join(
    arena_id: int, user: User, *, invite: str | None = None, now: datetime | None = None
) -> ArenaPlayer:
    """Put ``user`` in the arena: before it starts, or while it runs (straight into its pool).
    Someone who withdrew comes back with their points.

    :raises ServiceError: ``not_found`` (no such arena, or a private one without its link);
        ``forbidden`` (``check_may_enter``, removed by a moderator); ``over`` (finished or
        cancelled).
    """
    now = now or timezone.now()
    check_may_enter(user)
    try:
        return _join(arena_id, user, invite, now)
    except IntegrityError:  # a second click made the place meanwhile
        return _join(arena_id, user, invite, now)


def _join(arena_id: int, user: User, invite: str | None, now: datetime) -> ArenaPlayer:
    with transaction.atomic():
        arena = Arena.objects.select_for_update().filter(pk=arena_id).first()
        if arena is None or not may_see(arena, user, invite):
            raise ServiceError("not_found", _("There is no such arena."))
        if arena.over or (arena.status == Arena.Status.RUNNING and arena.ends_at <= now):
            raise ServiceError("over", _("This arena is over."))
        player = ArenaPlayer.objects.select_for_update().filter(arena=arena, user=user).first()
        if player is not None and player.state == State.REMOVED:
            raise ServiceError("forbidden", _("A moderator removed you from this arena."))
        if player is None:
            player = ArenaPlayer(
                arena=arena, user=user, rating=quickmatch.rating_in(user, mode_of(arena))
            )
        player.state = State.ACTIVE
        player.no_shows = 0
        running = arena.status == Arena.Status.RUNNING
        if running and player.waiting_since is None and not _seated_in(arena, user):
            player.waiting_since = now
        player.save()
        broadcast.standings_changed(arena.pk)
    return player


def _seated_in(arena: Arena, user: User) -> bool:
    """Whether ``user`` plays one of the arena's tables now."""
    from games.models import Table

    return arena.tables.filter(
        table__status__in=(Table.Status.OPEN, Table.Status.PLAYING), table__seats__user=user
    ).exists()


def _change(arena_id: int, user: User, state: str, now: datetime) -> ArenaPlayer:
    with transaction.atomic():
        player = (
            ArenaPlayer.objects.select_for_update()
            .select_related("arena")
            .filter(arena_id=arena_id, user=user)
            .first()
        )
        if player is None:
            raise ServiceError("not_found", _("You are not in this arena."))
        if player.state == State.REMOVED:
            raise ServiceError("forbidden", _("A moderator removed you from this arena."))
        if player.arena.over:
            raise ServiceError("over", _("This arena is over."))
        player.state = state
        player.waiting_since = None
        # Coming back keeps the no-shows in a row: only a game played clears them.
        running = player.arena.status == Arena.Status.RUNNING
        if state == State.ACTIVE and running and not _seated_in(player.arena, user):
            player.waiting_since = now
        player.save(update_fields=["state", "waiting_since"])
        broadcast.standings_changed(arena_id)
    return player


def withdraw(arena_id: int, user: User, now: datetime | None = None) -> ArenaPlayer:
    """``user`` leaves the arena: out of its pool, their points kept; a game they play goes on
    and counts. They may come back (``join``).

    :raises ServiceError: ``not_found`` (not in it), ``forbidden`` (removed), ``over``.
    """
    return _change(arena_id, user, State.WITHDRAWN, now or timezone.now())


def pause(arena_id: int, user: User, now: datetime | None = None) -> ArenaPlayer:
    """``user`` takes a break: out of the pool until they come back (``resume``)."""
    return _change(arena_id, user, State.PAUSED, now or timezone.now())


def resume(arena_id: int, user: User, now: datetime | None = None) -> ArenaPlayer:
    """``user`` comes back from a break, or from being paused for leaving or not coming: back in
    the pool.

    :raises ServiceError: as ``join`` (an arena ban or a play ban meanwhile).
    """
    check_may_enter(user)
    return _change(arena_id, user, State.ACTIVE, now or timezone.now())


def place_of(arena: Arena, user: User | None) -> ArenaPlayer | None:
    if user is None or not user.is_authenticated:
        return None
    return ArenaPlayer.objects.filter(arena=arena, user=user).first()
