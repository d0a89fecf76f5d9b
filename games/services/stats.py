"""Players' statistics: games played, won and left, and the recent ones; leaver statistics.

A game is *left* by a person when a bot took over their seat during it, whatever the reason:
they left it, timed out three turns in a row (R23) or were banned (``Seat.Takeover``). A game
left is neither won nor lost: a win of that seat is the bot's. ``games.services.finish`` writes
the result these read, and ``moves.replace_by_bot`` the takeover.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import F, Prefetch, Q, QuerySet

from games.models import Seat, Table

RECENT_GAMES = 20  # games listed on a profile


RESULTS = ("won", "lost", "left")


def finished_seats(user: AbstractBaseUser, result: str = "") -> QuerySet[Seat]:
    """``user``'s seats in finished games, those a bot took over from them included; given a
    ``result`` (``RESULTS``), only the games that ended so for them (``seat_result``)."""
    seats = Seat.objects.sat_by(user).filter(table__game__winner__isnull=False)
    if result == "won":
        seats = seats.filter(user=user, table__game__winner=F("position"))
    elif result == "lost":
        seats = seats.filter(user=user).exclude(table__game__winner=F("position"))
    elif result == "left":
        # A bot finished the game in their seat (they left or timed out): the bot's win, if
        # it won, and neither won nor lost for them.
        seats = seats.filter(replaced_user=user).exclude(user=user)
    return seats


def player_stats(user: AbstractBaseUser, viewer: AbstractBaseUser | None = None) -> dict[str, Any]:
    """Games played (finished, including those left), won, left, the win rate and the recent
    ones.

    ``recent`` is a list of dicts, newest first: ``game`` (the Game), ``table``, ``table_name``,
    ``players``, ``seats``, ``result`` (``seat_result``), ``won``, ``left`` (a bot finished it
    for them), ``finished_at``.
    It lists only the games ``viewer`` may see
    (``access.may_watch``): a private game's name and players are shown to its own players
    alone; the counts include every game.
    """
    seats = finished_seats(user)
    played = seats.count()
    won = finished_seats(user, "won").count()
    left = finished_seats(user, "left").count()
    shown = seats
    if viewer is None or not viewer.is_authenticated:
        shown = seats.filter(table__public=True)
    elif viewer.pk != user.pk:
        theirs = Seat.objects.sat_by(viewer).values("table_id")
        shown = seats.filter(Q(table__public=True) | Q(table_id__in=theirs))
    latest = (
        shown.select_related("table__game", "table__host")
        .prefetch_related(
            Prefetch(
                "table__seats",
                queryset=Seat.objects.select_related("user", "replaced_user").order_by("position"),
            )
        )
        .defer("table__game__state", "table__game__deck")  # large, and not needed here
        .order_by("-table__game__finished_at")[:RECENT_GAMES]
    )
    recent = [_recent_game(seat, user) for seat in latest]
    return {
        "played": played,
        "won": won,
        "left": left,
        "win_rate": won / played if played else 0.0,
        "recent": recent,
    }


def _recent_game(seat: Seat, user: AbstractBaseUser) -> dict[str, Any]:
    result = seat_result(seat, user)
    return {
        "game": seat.table.game,
        "table_name": seat.table.name,
        "players": list(seat.table.game.players),
        "seats": list(seat.table.seats.all()),
        "table": seat.table,
        "result": result,
        "won": result == "won",
        "left": result == "left",
        "finished_at": seat.table.game.finished_at,
    }


def seat_result(seat: Seat, user: AbstractBaseUser) -> str:
    """``won``, ``lost`` or ``left`` for ``user`` on ``seat`` of a finished game: a seat a bot
    took over from them is ``left``, whoever won it."""
    if seat.user_id != user.pk:
        return "left"
    return "won" if seat.table.game.winner == seat.position else "lost"


def games_left(user: AbstractBaseUser) -> int:
    """Games ``user`` left (a bot took their seat, for any reason), finished or not: the
    profile shows it."""
    return Seat.objects.filter(replaced_user=user).count()


def leaver_stats(user: AbstractBaseUser) -> dict[str, int]:
    """For moderators: the games ``user`` left, by why: ``left`` (they walked out, or a ban
    made them), ``timeouts`` (R23: three turns timed out in a row), their sum being
    :func:`games_left`; and ``aborted``, the games they sat at that a moderator aborted (not
    those quick match aborted because someone never came, which count for no one)."""
    taken = Seat.objects.filter(replaced_user=user)
    timed_out = taken.filter(replaced_because=Seat.Takeover.TIMEOUTS).count()
    aborted = (
        Seat.objects.sat_by(user)
        .filter(
            table__status=Table.Status.ABORTED,
            table__game__isnull=False,
            table__no_show__isnull=True,
        )
        .count()
    )
    return {"left": taken.count() - timed_out, "timeouts": timed_out, "aborted": aborted}
