"""Turning an account into a BOT account, and the limit on games between BOTs: what the API
asks of the games before ``accounts.bots`` records it (as lila's BotLimit)."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import bots, guests
from games.models import Game, Seat
from games.services.errors import ServiceError

# Games a BOT may begin against another BOT in a day (lichess: 100).
BOT_GAMES_PER_DAY = 100


def upgrade(user: AbstractBaseUser) -> None:
    """Make ``user`` a BOT account, for good.

    :raises ServiceError: ``guest``; ``forbidden`` (it has played a game, or sits at a table).
    """
    if guests.is_guest(user):
        raise ServiceError("guest", _("A guest cannot become a BOT: keep your account first."))
    if bots.is_bot(user):
        return
    if Seat.objects.sat_by(user).exists():
        raise ServiceError(
            "forbidden", _("Only an account that has never sat at a table can become a BOT.")
        )
    bots.make_bot(user)


def check_bot_games_today(challenger: AbstractBaseUser, other: AbstractBaseUser) -> None:
    """Refuse a BOT's challenge to another BOT once it began ``BOT_GAMES_PER_DAY`` games
    against BOTs in the last day.

    :raises ServiceError: ``too_many_bot_games``.
    """
    if not (bots.is_bot(challenger) and bots.is_bot(other)):
        return
    since = timezone.now() - timedelta(days=1)
    mine = Seat.objects.filter(user=challenger).values("table_id")
    robots = Seat.objects.filter(user__bot_account__isnull=False).exclude(user=challenger)
    played = (
        Game.objects.filter(table_id__in=mine, started_at__gte=since)
        .filter(table_id__in=robots.values("table_id"))
        .count()
    )
    if played >= BOT_GAMES_PER_DAY:
        raise ServiceError(
            "too_many_bot_games",
            _("A BOT plays %(count)d games against BOTs a day at most: try again tomorrow.")
            % {"count": BOT_GAMES_PER_DAY},
        )
