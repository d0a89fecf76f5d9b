"""Turn-based tables: days per move, the reminders, vacations, the cap, and "your move".

A turn-based table (``Table.turn_days``) plays through the same move path and the same clock as
a live one: its deadline is ``turn_deadline``, in days rather than seconds, and what happens
when it passes is R23's timeout (``moves._play_timeout``). What is its own:

- the deadline does not run while a person to act is on vacation (:class:`Vacation`, whole
  days within ``VACATION_DAYS_PER_YEAR``);
- the people whose move it becomes are told (``social`` notifications of kind ``your_move``),
  and told again when less than ``REMINDER_BEFORE`` is left (``move_reminder``, due through the
  game's ``next_due`` like any deadline);
- a person plays at most ``MAX_TURN_BASED`` turn-based games at once (:func:`check_cap`);
- the games where it is someone's move are counted from ``Game.to_act``, which only turn-based
  games keep.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.models import Game, Seat, Table, Vacation
from games.services.errors import ServiceError
from social import notifications
from social.models import Notification

MAX_TURN_BASED = 20  # turn-based games a person plays at once (waiting tables included)
REMINDER_BEFORE = timedelta(days=1)
VACATION_DAYS_PER_YEAR = 30
MAX_VACATION_DAYS = 30  # one vacation at most
UNFINISHED = (Table.Status.OPEN, Table.Status.PLAYING)

type Period = tuple[datetime, datetime]


# ---------------------------------------------------------------------- the deadline in days


def run_until(start: datetime, length: timedelta, stopped: Iterable[Period]) -> datetime:
    """When a clock started at ``start`` has run ``length``, not running during the
    ``stopped`` periods (vacations, in any order, overlapping or not)."""
    cursor, remaining = start, length
    for begins, ends in sorted(stopped):
        if ends <= cursor:
            continue
        if begins > cursor:
            if begins - cursor >= remaining:
                break
            remaining -= begins - cursor
        cursor = max(cursor, ends)
    return cursor + remaining


def running_between(start: datetime, end: datetime, stopped: Iterable[Period]) -> timedelta:
    """How long a clock runs from ``start`` to ``end``, not running during ``stopped``."""
    ran, cursor = timedelta(0), start
    for begins, ends in sorted(stopped):
        if ends <= cursor or begins >= end:
            continue
        if begins > cursor:
            ran += begins - cursor
        cursor = max(cursor, min(ends, end))
    return ran + max(end - cursor, timedelta(0))


def _vacations(user_ids: Sequence[int], since: datetime) -> dict[int, list[Period]]:
    periods: dict[int, list[Period]] = {user_id: [] for user_id in user_ids}
    if not user_ids:
        return periods
    rows = Vacation.objects.filter(user_id__in=user_ids, ends_at__gt=since)
    for user_id, begins, ends in rows.values_list("user_id", "starts_at", "ends_at"):
        periods[user_id].append((begins, ends))
    return periods


def deadline(days: int, user_ids: Sequence[int], now: datetime) -> datetime:
    """The deadline of a move given ``days`` from ``now`` to the people ``user_ids`` (several
    during a +3): the latest of theirs, each one's clock stopped by their vacations."""
    length = timedelta(days=days)
    if not user_ids:
        return now + length
    stopped = _vacations(user_ids, now)
    return max(run_until(now, length, stopped[user_id]) for user_id in user_ids)


def reminder_for(turn_deadline: datetime, now: datetime) -> datetime | None:
    """When to remind the people to act of ``turn_deadline``: a day before it, unless that is
    past already."""
    at = turn_deadline - REMINDER_BEFORE
    return at if at > now else None


def told_their_move(
    table: Table,
    game: Game,
    before: Sequence[int],
    after: Sequence[int],
    seats: Mapping[int, Seat],
) -> None:
    """Tell the people whose move it became (seats in ``after`` and not in ``before``), inside
    the move's transaction: the notification is stored with it and pushed after commit."""
    for position in after:
        if position in before:
            continue
        user_id = seats[position].user_id
        if user_id is not None:
            notifications.notify(
                user_id,
                Notification.Kind.YOUR_MOVE,
                table=table.name,
                url=table.page_url(),
                deadline=game.turn_deadline.isoformat() if game.turn_deadline else None,
            )


def remind(table: Table, game: Game, seats: Sequence[Seat]) -> None:
    """Remind the people to act that less than a day is left (the clock, at ``turn_reminder``)."""
    for position in game.to_act or ():
        user_id = seats[position].user_id if position < len(seats) else None
        if user_id is not None:
            notifications.notify(
                user_id,
                Notification.Kind.MOVE_REMINDER,
                table=table.name,
                url=table.page_url(),
                deadline=game.turn_deadline.isoformat() if game.turn_deadline else None,
            )


# ---------------------------------------------------------------------- the cap


def unfinished_count(user: AbstractBaseUser | int) -> int:
    """The turn-based tables, waiting or playing, where ``user`` sits."""
    return Seat.objects.filter(
        user=user, table__turn_days__isnull=False, table__status__in=UNFINISHED
    ).count()


def check_cap(*users: AbstractBaseUser, adding: int = 1) -> None:
    """Refuse one more turn-based table to anyone of ``users`` who plays ``MAX_TURN_BASED``
    already.

    :raises ServiceError: ``forbidden``, naming the person when it is not the one asking.
    """
    for index, user in enumerate(users):
        if unfinished_count(user) + adding <= MAX_TURN_BASED:
            continue
        if index == 0:
            message = _(
                "You already play %(count)d turn-based games, the most at once: finish one first."
            ) % {"count": MAX_TURN_BASED}
        else:
            message = _(
                "%(username)s already plays %(count)d turn-based games, the most at once."
            ) % {"username": user.get_username(), "count": MAX_TURN_BASED}
        raise ServiceError("forbidden", message)


# ---------------------------------------------------------------------- your move


@dataclass(frozen=True, slots=True)
class TurnBasedGame:
    """One of a person's unfinished turn-based tables, as their list shows it."""

    table: Table
    my_move: bool
    deadline: datetime | None
    waiting: bool  # not started yet


def my_games(user: AbstractBaseUser) -> list[TurnBasedGame]:
    """``user``'s unfinished turn-based tables: those where it is their move first (the nearest
    deadline first), then the others running, then those waiting for players."""
    seats = (
        Seat.objects.filter(user=user, table__turn_days__isnull=False)
        .filter(table__status__in=UNFINISHED)
        .select_related("table", "table__game")
    )
    rows = []
    for seat in seats:
        table = seat.table
        game = getattr(table, "game", None) if table.status == Table.Status.PLAYING else None
        mine = game is not None and seat.position in (game.to_act or ())
        rows.append(
            TurnBasedGame(
                table=table,
                my_move=mine,
                deadline=game.turn_deadline if mine else None,
                waiting=game is None,
            )
        )
    far = datetime.max.replace(tzinfo=UTC)
    rows.sort(key=lambda row: (not row.my_move, row.waiting, row.deadline or far, -row.table.pk))
    return rows


def my_move_count(user: AbstractBaseUser) -> int:
    """In how many turn-based games it is ``user``'s move (the header's and home page's
    "Your move in N games")."""
    if not user.is_authenticated:
        return 0
    positions = Seat.objects.filter(
        user=user, table__turn_days__isnull=False, table__status=Table.Status.PLAYING
    ).values_list("position", "table__game__to_act")
    return sum(1 for position, to_act in positions if position in (to_act or ()))


# ---------------------------------------------------------------------- vacations


def vacation_days_used(user: AbstractBaseUser, year: int) -> int:
    """The days of vacation ``user`` took that start in ``year``."""
    rows = Vacation.objects.filter(user=user, starts_at__year=year)
    return sum(rows.values_list("days", flat=True))


def current_vacation(user: AbstractBaseUser, now: datetime | None = None) -> Vacation | None:
    """The vacation ``user`` is on, or the next one they took, if any."""
    now = now or timezone.now()
    return Vacation.objects.filter(user=user, ends_at__gt=now).order_by("starts_at").first()


def take_vacation(
    user: AbstractBaseUser,
    days: int,
    *,
    starts_at: datetime | None = None,
    now: datetime | None = None,
) -> Vacation:
    """Days off for ``user`` from ``starts_at`` (now unless given): their turn-based clocks stop
    for them, and the deadlines running for them now move by as much as the vacation overlaps.

    :raises ServiceError: ``bad_request`` for days outside 1–``MAX_VACATION_DAYS``, a start in
        the past, or one overlapping a vacation already taken; ``forbidden`` beyond the yearly
        allowance.
    """
    now = now or timezone.now()
    starts_at = max(starts_at or now, now)
    if type(days) is not int or not 1 <= days <= MAX_VACATION_DAYS:
        raise ServiceError(
            "bad_request",
            _("A vacation lasts 1 to %(most)d days.") % {"most": MAX_VACATION_DAYS},
        )
    ends_at = starts_at + timedelta(days=days)
    with transaction.atomic():
        # One person's vacations taken one at a time, so two at once cannot pass the allowance.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        if Vacation.objects.filter(user=user, starts_at__lt=ends_at, ends_at__gt=starts_at):
            raise ServiceError("bad_request", _("You are already on vacation then."))
        used = vacation_days_used(user, starts_at.year)
        if used + days > VACATION_DAYS_PER_YEAR:
            left = VACATION_DAYS_PER_YEAR - used
            raise ServiceError(
                "forbidden",
                ngettext(
                    "You have %(left)d day of vacation left this year.",
                    "You have %(left)d days of vacation left this year.",
                    left,
                )
                % {"left": left},
            )
        before = _vacations([user.pk], now)[user.pk]
        vacation = Vacation.objects.create(
            user=user, starts_at=starts_at, ends_at=ends_at, days=days
        )
        _move_deadlines(user, (starts_at, ends_at), before, now)
    return vacation


def _move_deadlines(
    user: AbstractBaseUser, vacation: Period, before: list[Period], now: datetime
) -> None:
    """Push back the running deadlines of ``user``'s moves by the time ``vacation`` takes out of
    them (``before``: the vacations known until now)."""
    begins, ends = vacation
    games = Game.objects.select_for_update().filter(
        table__turn_days__isnull=False,
        table__status=Table.Status.PLAYING,
        table__seats__user=user,
        turn_deadline__gt=begins,
    )
    for game in games.select_related("table"):
        seat = game.table.seats.filter(user=user).first()
        if seat is None or seat.position not in (game.to_act or ()):
            continue
        left = running_between(begins, game.turn_deadline, before)
        game.turn_deadline = run_until(ends, left, before)
        game.turn_reminder = reminder_for(game.turn_deadline, now)
        game.next_due = min(at for at in (game.turn_deadline, game.turn_reminder) if at)
        game.save(update_fields=["turn_deadline", "turn_reminder", "next_due"])


def on_vacation(user_ids: Iterable[int], now: datetime) -> set[int]:
    """Which of ``user_ids`` are on vacation at ``now``."""
    rows = Vacation.objects.filter(
        Q(user_id__in=list(user_ids)), starts_at__lte=now, ends_at__gt=now
    )
    return set(rows.values_list("user_id", flat=True))
