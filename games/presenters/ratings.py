"""Ratings as pages show them: beside each name at a rated table, a finished game's changes
("+14", "−9"), a player's ratings per mode with their history drawn as an SVG chart, and the
leaderboards."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Exists, OuterRef
from django.utils import timezone

from accounts.models import BotAccount, Guest, Sanction
from games.models import Game, Rating, RatingChange, RatingMode, Table
from games.services import ratings

# The leaderboards: the best this many among the people who played rated this recently.
LEADERBOARD_SIZE = 100
LEADERBOARD_ACTIVE = timedelta(days=30)


@dataclass(frozen=True, slots=True)
class SeatRating:
    """A person's rating beside their name: ``"1532"`` (``"1500?"`` while provisional), and on
    a finished game the change it made (None before then)."""

    label: str
    change: int | None = None

    @property
    def change_text(self) -> str:
        return signed(self.change) if self.change is not None else ""


def signed(delta: int) -> str:
    """``+14``, ``−9`` (a true minus sign), ``±0``."""
    if delta > 0:
        return f"+{delta}"
    if delta < 0:
        return f"\u2212{-delta}"
    return "\u00b10"


def seat_ratings(table: Table, game: Game | None, people: Iterable[int]) -> dict[int, SeatRating]:
    """The ratings shown beside the people at ``table``, by user id: a rated game's changes
    once it is over, the ratings in the table's mode before. Casual tables show none."""
    people = [person for person in people if person is not None]
    if not table.rated or not people:
        return {}
    if game is not None and game.finished_at is not None and game.winner is not None:
        return changes_shown(RatingChange.objects.filter(game_id=game.pk))
    rows = Rating.objects.filter(user_id__in=people, mode=ratings.mode_of(table))
    found = {
        user_id: SeatRating(ratings.label(mu, sigma))
        for user_id, mu, sigma in rows.values_list("user_id", "mu", "sigma")
    }
    newcomer = SeatRating(ratings.newcomer_label())
    return {person: found.get(person, newcomer) for person in people}


def changes_shown(changes: Iterable[RatingChange]) -> dict[int, SeatRating]:
    """A finished game's rating changes as the seats show them, by user id."""
    return {
        change.user_id: SeatRating(ratings.label(change.mu_after, change.sigma_after), change.delta)
        for change in changes
    }


@dataclass(frozen=True, slots=True)
class ModeRating:
    """One of a player's ratings, for the profile."""

    mode: str
    mode_name: str
    label: str
    games: int
    history: tuple[RatingChange, ...]
    chart: str  # an inline SVG, drawn here


def player_ratings(user: AbstractBaseUser) -> list[ModeRating]:
    """A player's ratings, one per mode they have played rated, with their history."""
    rows = {row.mode: row for row in Rating.objects.filter(user=user)}
    history: dict[str, list[RatingChange]] = {}
    for change in RatingChange.objects.filter(user=user).order_by("ended_at", "pk"):
        history.setdefault(change.mode, []).append(change)
    shown = []
    for mode, name in RatingMode.choices:
        row = rows.get(mode)
        if row is None:
            continue
        changes = tuple(history.get(mode, ()))
        shown.append(
            ModeRating(
                mode=mode,
                mode_name=str(name),
                label=ratings.label(row.mu, row.sigma),
                games=row.games,
                history=changes,
                chart=chart(_points(changes), str(name)),
            )
        )
    return shown


def _points(changes: tuple[RatingChange, ...]) -> list[int]:
    """The rating before the first game, then after each: a first game is a line, not a dot."""
    return [changes[0].shown_before, *(change.shown_after for change in changes)] if changes else []


# The chart's size in SVG units. It is drawn as wide as the page allows up to 32rem
# (static/css/pages.css): on a phone about 360 px, so one unit is about a pixel and its words
# about 13 px.
CHART_WIDTH, CHART_HEIGHT, CHART_PAD, CHART_LEFT = 400, 160, 20, 44
CHART_FONT = 14


def chart(points: list[int], title: str) -> str:
    """A line of the rating before the first game and after each, a dot per game, as an inline
    SVG: presentation attributes only (the site's CSP allows no inline style), hidden from
    screen readers, which read the table drawn beside it instead."""
    if not points:
        return ""
    low, high = min(points) - 10, max(points) + 10
    width, height = CHART_WIDTH - CHART_LEFT - CHART_PAD, CHART_HEIGHT - 2 * CHART_PAD
    step = width / max(len(points) - 1, 1)

    def y(value: int) -> float:
        return CHART_PAD + height * (high - value) / (high - low)

    xy = [(CHART_LEFT + index * step, y(value)) for index, value in enumerate(points)]
    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in xy)
    dots = "".join(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3"/>' for x, y in xy[1:])
    bottom = CHART_HEIGHT - CHART_PAD
    return (
        f'<svg class="rating-chart" viewBox="0 0 {CHART_WIDTH} {CHART_HEIGHT}" '
        f'role="img" aria-hidden="true" focusable="false" data-mode-title="{_escape(title)}">'
        f'<line x1="{CHART_LEFT}" y1="{bottom}" x2="{CHART_WIDTH - CHART_PAD}" y2="{bottom}" '
        'stroke="currentColor" stroke-opacity="0.4"/>'
        f'<line x1="{CHART_LEFT}" y1="{CHART_PAD}" x2="{CHART_WIDTH - CHART_PAD}" '
        f'y2="{CHART_PAD}" stroke="currentColor" stroke-opacity="0.15"/>'
        f'<text x="{CHART_LEFT - 6}" y="{CHART_PAD + 5}" font-size="{CHART_FONT}" '
        f'text-anchor="end" fill="currentColor">{high}</text>'
        f'<text x="{CHART_LEFT - 6}" y="{bottom + 5}" font-size="{CHART_FONT}" '
        f'text-anchor="end" fill="currentColor">{low}</text>'
        f'<polyline points="{line}" fill="none" stroke="currentColor" stroke-width="2.5" '
        'stroke-linejoin="round"/>'
        f'<g fill="currentColor">{dots}</g>'
        "</svg>"
    )


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    place: int
    username: str
    rating: int
    games: int


def leaderboard(mode: str, size: int = LEADERBOARD_SIZE) -> list[LeaderboardRow]:
    """The best ``size`` ratings of a mode among people who played a rated game in
    it in the last ``LEADERBOARD_ACTIVE``: no provisional rating (as lichess), no guest, no
    BOT account (its rating is kept, apart), no account banned or closed. Ranked by the rating
    shown."""
    now = timezone.now()
    since = now - LEADERBOARD_ACTIVE
    banned = Sanction.objects.active(now).filter(
        user=OuterRef("user"), kind__in=[Sanction.Kind.ACCOUNT_BAN, Sanction.Kind.PLAY_BAN]
    )
    rows = (
        Rating.objects.filter(
            mode=mode,
            updated_at__gte=since,
            sigma__lte=ratings.PROVISIONAL_SIGMA,
            user__is_active=True,
        )
        .exclude(Exists(Guest.objects.filter(user=OuterRef("user"))))
        .exclude(Exists(BotAccount.objects.filter(user=OuterRef("user"))))
        .exclude(Exists(banned))
        .select_related("user")
        .order_by("-mu", "user__username")[:size]
    )
    return [
        LeaderboardRow(place, row.user.get_username(), ratings.shown(row.mu), row.games)
        for place, row in enumerate(rows, start=1)
    ]


@dataclass(frozen=True, slots=True)
class GameRatingChange:
    """What a finished game did to one player's rating, for its page."""

    username: str
    rating: int
    change: str


def game_rating_changes(game: Game) -> list[GameRatingChange]:
    """A finished rated game's rating changes, the winner's first."""
    rows = RatingChange.objects.filter(game=game).select_related("user").order_by("rank", "pk")
    return [
        GameRatingChange(row.user.get_username(), row.shown_after, signed(row.delta))
        for row in rows
    ]


def host_ratings(tables: Iterable[Table]) -> dict[int, str]:
    """The label of each rated table's host's rating in the table's mode, by table id."""
    rated = [table for table in tables if table.rated]
    if not rated:
        return {}
    rows = Rating.objects.filter(user_id__in={table.host_id for table in rated})
    found = {
        (user_id, mode): ratings.label(mu, sigma)
        for user_id, mode, mu, sigma in rows.values_list("user_id", "mode", "mu", "sigma")
    }
    return {
        table.pk: found.get((table.host_id, ratings.mode_of(table)), ratings.newcomer_label())
        for table in rated
    }
