"""The read side of the site's lists and finished-game pages: who sat where (and who a bot
replaced), a player's own games, and the games anyone may watch.

Names are drawn when a page is drawn, in the viewer's language: a bot's name is translated,
and a seat a bot took over reads "Bot (for Ana)". The game record keeps the names as they were
at the start, in English (``Game.players``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, Exists, OuterRef, Prefetch, Q, QuerySet

from accounts.bots import is_bot
from games.models import Game, Seat, Table
from games.presenters.narration import describe_takeover
from games.services import stats

# My games' filters: the result, and who else played.
RESULTS = stats.RESULTS
OPPONENTS = ("people", "bots")
# A list's tables with their seats' people, to name and link them in two more queries.
SEATS_WITH_PEOPLE = Prefetch(
    "seats",
    queryset=Seat.objects.select_related("user__bot_account", "replaced_user").order_by("position"),
)
TABLE_SEATS_WITH_PEOPLE = Prefetch("table__seats", queryset=SEATS_WITH_PEOPLE.queryset)


@dataclass(frozen=True, slots=True)
class ListedGame:
    """One row of a list of games (``games/partials/game_list.html``): its table, its game, and
    for a player's own list what the game was for them (``won``, ``lost`` or ``left``)."""

    table: Table
    game: Game | None = None
    result: str = ""


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One seat of a game as a page shows it, with the profile it links to (if any)."""

    position: int
    name: str
    username: str  # the person's, or the replaced person's for a bot that took over
    is_bot: bool
    took_over: bool  # a bot finished the game for ``username`` (they left it: see stats)
    replaced_because: str = ""  # why (a ``Seat.Takeover``)
    replaced_at: int | None = None  # after how many moves
    bot_account: bool = False  # the person is a BOT account (``accounts.bots``)

    def name_at(self, seq: int) -> str:
        """Who played the move ``seq`` from this seat: the person until a bot took over."""
        if self.took_over and self.replaced_at is not None and seq < self.replaced_at:
            return self.username
        return self.name

    @property
    def takeover(self) -> str:
        """Why a bot took over this seat, in words ("ana left; a bot plays for them")."""
        return describe_takeover(self.username, self.replaced_because) if self.took_over else ""


def player_views(game: Game) -> list[PlayerView]:
    """The players of ``game`` in seat order, named in the viewer's language."""
    seats = {
        seat.position: seat
        for seat in Seat.objects.filter(table_id=game.table_id).select_related(
            "user__bot_account", "replaced_user"
        )
    }
    return [
        _player_view(position, seats.get(position), name)
        for position, name in enumerate(game.players)
    ]


def _player_view(position: int, seat: Seat | None, recorded: str) -> PlayerView:
    if seat is not None and seat.user_id is not None:
        username = seat.user.get_username()
        return PlayerView(position, username, username, False, False, bot_account=is_bot(seat.user))
    if seat is not None and seat.bot and seat.replaced_user_id is not None:
        username = seat.replaced_user.get_username()
        because, at = seat.replaced_because, seat.replaced_at
        return PlayerView(position, seat.display_name, username, True, True, because, at)
    if seat is not None and seat.bot:
        return PlayerView(position, seat.display_name, "", True, False)
    # The person's account is gone: the name the record kept.
    return PlayerView(position, recorded, "", False, False)


def my_games(user: AbstractBaseUser, result: str = "", opponents: str = "") -> QuerySet[Seat]:
    """``user``'s seats in finished games, private bot games included, newest first.

    ``result``: ``won`` (their own win), ``lost`` (someone else won while they sat), ``left``
    (a bot took their seat: the game is not theirs to win). ``opponents``: ``people`` (another
    person sat at the table) or ``bots`` (nobody else did).
    """
    seats = stats.finished_seats(user, result)
    others = (
        Seat.objects.filter(table_id=OuterRef("table_id"))
        .exclude(position=OuterRef("position"))
        .filter(Q(user__isnull=False) | Q(replaced_user__isnull=False))
    )
    if opponents == "people":
        seats = seats.filter(Exists(others))
    elif opponents == "bots":
        seats = seats.exclude(Exists(others))
    return (
        seats.select_related("table", "table__host", "table__game")
        .prefetch_related(TABLE_SEATS_WITH_PEOPLE)
        .defer("table__game__state", "table__game__deck")
        .order_by("-table__game__finished_at", "-pk")
    )


def my_game_rows(seats: Iterable[Seat], user: AbstractBaseUser) -> list[ListedGame]:
    """The rows of My games for ``seats`` of ``my_games(user)``."""
    return [
        ListedGame(seat.table, seat.table.game, stats.seat_result(seat, user)) for seat in seats
    ]


def finished_games() -> QuerySet[Game]:
    """The finished games anyone may see (the public tables'), newest first, with their
    number of moves (``move_count``)."""
    return (
        Game.objects.filter(winner__isnull=False, table__public=True)
        .select_related("table", "table__host")
        .prefetch_related(TABLE_SEATS_WITH_PEOPLE)
        .order_by("-finished_at")
        .annotate(move_count=Count("moves"))
    )


def watchable_games() -> QuerySet[Table]:
    """The games being played that anyone may watch (``access.may_watch`` without an invite:
    the public tables), newest first."""
    return (
        Table.objects.filter(status=Table.Status.PLAYING, public=True, game__winner__isnull=True)
        .select_related("host", "game")
        .prefetch_related(SEATS_WITH_PEOPLE)
        .defer("game__state", "game__deck")
        .order_by("-game__started_at", "-pk")
    )
