"""Players' statistics: games played and won, and the recent ones."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import F, Prefetch, Q

from games.models import Move, Seat, Table

RECENT_GAMES = 20  # games listed on a profile


def player_stats(user: AbstractBaseUser, viewer: AbstractBaseUser | None = None) -> dict[str, Any]:
    """Games played (finished, including those left early), won, win rate and the recent ones.

    ``recent`` is a list of dicts, newest first: ``game`` (the Game), ``table``, ``table_name``,
    ``players``, ``seats``, ``won``, ``left`` (a bot finished it for them), ``finished_at``.
    It lists only the games ``viewer`` may see
    (``access.may_watch``): a private game's name and players are shown to its own players
    alone; the counts include every game.
    """
    seats = Seat.objects.sat_by(user).filter(table__game__winner__isnull=False)
    played = seats.count()
    # A seat a bot took over is the bot's win, not the player's.
    won = seats.filter(user=user, table__game__winner=F("position")).count()
    # Games a bot finished in the player's seat (they left or timed out): neither won nor lost.
    left = seats.filter(replaced_user=user).exclude(user=user).count()
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
    recent = [
        {
            "game": seat.table.game,
            "table_name": seat.table.name,
            "players": list(seat.table.game.players),
            "seats": list(seat.table.seats.all()),
            "table": seat.table,
            "won": seat.user_id == user.pk and seat.table.game.winner == seat.position,
            "left": seat.user_id != user.pk,
            "finished_at": seat.table.game.finished_at,
        }
        for seat in latest
    ]
    return {
        "played": played,
        "won": won,
        "left": left,
        "win_rate": won / played if played else 0.0,
        "recent": recent,
    }


def games_left(user: AbstractBaseUser) -> int:
    """Games in which a bot took ``user``'s seat because they left (not timed out): the profile
    shows it."""
    return leaver_stats(user)["left"]


def leaver_stats(user: AbstractBaseUser) -> dict[str, int]:
    """For moderators: games left, games lost to timeouts (R23: a bot took the seat after three
    turns timed out), and games aborted that the player sat at.

    Derived from the seats and the move log: a seat a bot took over whose last move by the
    person's turn before the takeover was a timeout counts as timed out; any other takeover as
    left.
    """
    replaced = list(Seat.objects.filter(replaced_user=user).values_list("table__game", "position"))
    timed_out = 0
    for game_id, position in replaced:
        if game_id is None:
            continue
        last = (
            Move.objects.filter(game_id=game_id, seat=position)
            .exclude(source=Move.Source.BOT)
            .order_by("-seq")
            .values_list("source", flat=True)
            .first()
        )
        timed_out += last == Move.Source.TIMEOUT
    aborted = (
        Seat.objects.sat_by(user)
        .filter(table__status=Table.Status.ABORTED, table__game__isnull=False)
        .count()
    )
    return {"left": len(replaced) - timed_out, "timeouts": timed_out, "aborted": aborted}
