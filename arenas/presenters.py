"""The arena's read side: its standings, its tables being played, its podium, drawn as the page
shows them and as its socket pushes them (``#arena-standings``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.template.loader import render_to_string
from django.utils import timezone

from arenas import scoring
from arenas.models import Arena, ArenaPlayer, ArenaTable
from arenas.services.events import PODIUM, final_order
from games.models import Seat, Table

# Rows of the standings a page shows; the viewer's own row is shown below them when further.
SHOWN_ROWS = 50


@dataclass(frozen=True)
class Row:
    rank: int
    username: str
    rating: int
    points: int
    on_fire: bool
    games: int
    state: str
    state_label: str
    playing: bool
    mine: bool


@dataclass(frozen=True)
class TableRow:
    table_id: int
    names: tuple[str, ...]


@dataclass(frozen=True)
class Standings:
    arena: Arena
    rows: tuple[Row, ...]
    mine: Row | None  # the viewer's row when it is not among ``rows``
    tables: tuple[TableRow, ...]
    podium: tuple[Row, ...]
    seconds_left: int
    players: int

    @property
    def clock(self) -> str:
        """The time left as minutes and seconds: ``12:05``."""
        minutes, seconds = divmod(self.seconds_left, 60)
        return f"{minutes}:{seconds:02d}"


def standings(
    arena: Arena, viewer: AbstractBaseUser | None, now: datetime | None = None
) -> Standings:
    """The arena as its page shows it to ``viewer``: two statements for the players and the
    tables being played."""
    now = now or timezone.now()
    arena.refresh_from_db()
    players = list(ArenaPlayer.objects.filter(arena=arena).select_related("user"))
    running = list(
        ArenaTable.objects.filter(
            arena=arena, table__status__in=(Table.Status.OPEN, Table.Status.PLAYING)
        ).values_list("table_id", flat=True)
    )
    names: dict[int, list[str]] = {}
    playing: set[int] = set()
    for table_id, user_id, username in Seat.objects.filter(
        table_id__in=running, user__isnull=False
    ).values_list("table_id", "user_id", "user__username"):
        names.setdefault(table_id, []).append(username)
        playing.add(user_id)
    viewer_id = viewer.pk if viewer is not None and viewer.is_authenticated else None
    shown = [p for p in final_order(players) if p.state != ArenaPlayer.State.REMOVED]
    rows = [
        Row(
            rank=p.rank if p.rank is not None else index,
            username=p.user.get_username(),
            rating=p.rating,
            points=p.points,
            on_fire=scoring.on_fire(p.streak),
            games=p.games,
            state=p.state,
            state_label=str(p.get_state_display()),
            playing=p.user_id in playing,
            mine=p.user_id == viewer_id,
        )
        for index, p in enumerate(shown, start=1)
    ]
    top = tuple(rows[:SHOWN_ROWS])
    mine = next((row for row in rows[SHOWN_ROWS:] if row.mine), None)
    podium: tuple[Row, ...] = ()
    if arena.status == Arena.Status.FINISHED:
        podium = tuple(row for row in rows if row.games > 0)[:PODIUM]
    left = 0
    if arena.status == Arena.Status.RUNNING:
        left = max(0, int((arena.ends_at - now).total_seconds()))
    elif arena.status == Arena.Status.SCHEDULED:
        left = max(0, int((arena.starts_at - now).total_seconds()))
    return Standings(
        arena=arena,
        rows=top,
        mine=mine,
        tables=tuple(TableRow(t, tuple(names.get(t, ()))) for t in sorted(running)),
        podium=podium,
        seconds_left=left,
        players=len(shown),
    )


def standings_fragment(view: Standings) -> str:
    """``#arena-standings``: the time left, the podium, the standings and the tables."""
    return render_to_string("arenas/partials/standings.html", {"view": view})
