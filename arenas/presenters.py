"""The arena's read side: its standings, its tables being played, its podium, drawn as the page
shows them and as its socket pushes them (``#arena-standings``).

An arena is read once per change for every page of a process (:func:`read_board`, shared by the
socket's reads), and drawn once per language (:func:`board_fragment`); each page then has its
person's own row marked, or added below the first rows when they are further down.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.html import escape

from arenas import scoring
from arenas.models import Arena, ArenaPlayer, ArenaTable
from arenas.services.events import PODIUM, final_order
from games.models import Seat, Table

# Rows of the standings a page shows; the viewer's own row is shown below them when further.
SHOWN_ROWS = 50
END_OF_ROWS = "<!-- arena-rows-end -->"


@dataclass(frozen=True)
class Row:
    rank: int
    username: str
    rating: int
    points: int
    on_fire: bool
    games: int
    state: str
    playing: bool
    mine: bool = False

    @property
    def state_label(self) -> str:
        """The player's state in the active language (a board is drawn in each language)."""
        return str(ArenaPlayer.State(self.state).label)


@dataclass(frozen=True)
class TableRow:
    table_id: int
    names: tuple[str, ...]


@dataclass(frozen=True)
class Standings:
    """The arena as one page shows it."""

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


@dataclass(frozen=True, slots=True)
class _Placed:
    """A player's row as read, in the order ``final_order`` sorts."""

    pk: int
    user_id: int
    username: str
    rating: int
    points: int
    streak: int
    games: int
    state: str
    rank: int | None
    joined_at: datetime


@dataclass
class Board:
    """The arena read once for every page: every row in order, nobody's marked."""

    standings: Standings
    every_row: tuple[Row, ...]
    rendered: dict[str, str] = field(default_factory=dict)  # language -> the shared fragment


def read_board(arena_id: int, now: datetime | None = None) -> Board:
    """Three statements: the arena, its players, the people of its tables being played."""
    now = now or timezone.now()
    arena = Arena.objects.get(pk=arena_id)
    players = [
        _Placed(*values)
        for values in ArenaPlayer.objects.filter(arena=arena).values_list(
            "pk",
            "user_id",
            "user__username",
            "rating",
            "points",
            "streak",
            "games",
            "state",
            "rank",
            "joined_at",
        )
    ]
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
    shown = [p for p in final_order(players) if p.state != ArenaPlayer.State.REMOVED]
    rows = tuple(
        Row(
            rank=p.rank if p.rank is not None else index,
            username=p.username,
            rating=p.rating,
            points=p.points,
            on_fire=scoring.on_fire(p.streak),
            games=p.games,
            state=p.state,
            playing=p.user_id in playing,
        )
        for index, p in enumerate(shown, start=1)
    )
    podium: tuple[Row, ...] = ()
    if arena.status == Arena.Status.FINISHED:
        podium = tuple(row for row in rows if row.games > 0)[:PODIUM]
    left = 0
    if arena.status == Arena.Status.RUNNING:
        left = max(0, int((arena.ends_at - now).total_seconds()))
    elif arena.status == Arena.Status.SCHEDULED:
        left = max(0, int((arena.starts_at - now).total_seconds()))
    standings = Standings(
        arena=arena,
        rows=rows[:SHOWN_ROWS],
        mine=None,
        tables=tuple(TableRow(t, tuple(names.get(t, ()))) for t in sorted(running)),
        podium=podium,
        seconds_left=left,
        players=len(rows),
    )
    return Board(standings, rows)


def for_viewer(board: Board, viewer: AbstractBaseUser | None) -> Standings:
    """The board as ``viewer`` sees it: their row marked, or shown below the first rows."""
    name = viewer.get_username() if viewer is not None and viewer.is_authenticated else None
    view = board.standings
    if name is None:
        return view
    rows = tuple(replace(row, mine=True) if row.username == name else row for row in view.rows)
    mine = None
    if not any(row.mine for row in rows):
        mine = next((replace(r, mine=True) for r in board.every_row if r.username == name), None)
    return replace(view, rows=rows, mine=mine)


def standings(arena: Arena, viewer: AbstractBaseUser | None, now: datetime | None = None):
    """The arena as its page shows it to ``viewer``."""
    return for_viewer(read_board(arena.pk, now), viewer)


def standings_fragment(view: Standings) -> str:
    """``#arena-standings``: the time left, the podium, the standings and the tables."""
    return render_to_string("arenas/partials/standings.html", {"view": view})


def board_fragment(board: Board, viewer: AbstractBaseUser | None) -> str:
    """``#arena-standings`` for ``viewer``, from the board drawn once per language."""
    language = translation.get_language() or ""
    html = board.rendered.get(language)
    if html is None:
        html = board.rendered[language] = standings_fragment(board.standings)
    view = for_viewer(board, viewer)
    mine = next((row for row in view.rows if row.mine), None)
    if mine is not None:
        plain = f'<tr class="arena-row" data-player="{escape(mine.username)}">'
        marked = (
            f'<tr class="arena-row arena-row--mine" data-player="{escape(mine.username)}"'
            ' aria-current="true">'
        )
        return html.replace(plain, marked, 1)
    if view.mine is not None:
        row = render_to_string("arenas/partials/standings_row.html", {"row": view.mine})
        return html.replace(END_OF_ROWS, row + END_OF_ROWS, 1)
    return html
