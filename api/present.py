"""The site's objects as the API's JSON: people, challenges, tables. No card in any of them."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from accounts import bots
from games.models import Challenge, Rating, Seat, Table
from games.services import ratings, stats


def person(user: AbstractBaseUser, bot: bool | None = None) -> dict[str, Any]:
    return {
        "id": user.pk,
        "username": user.get_username(),
        "bot": bots.is_bot(user) if bot is None else bot,
    }


def profile(user: AbstractBaseUser) -> dict[str, Any]:
    """A person's public profile: ratings per mode and statistics."""
    counts = stats.player_stats(user)
    return {
        **person(user),
        "joined": user.date_joined.isoformat(),
        "ratings": {
            rating.mode: {
                "rating": ratings.shown(rating.mu),
                "mu": rating.mu,
                "sigma": rating.sigma,
                "games": rating.games,
                "provisional": ratings.provisional(rating.sigma),
            }
            for rating in Rating.objects.filter(user=user).order_by("mode")
        },
        "stats": {
            "played": counts["played"],
            "won": counts["won"],
            "left": counts["left"],
            "win_rate": counts["win_rate"],
        },
    }


def challenge(item: Challenge) -> dict[str, Any]:
    """A challenge, its people and their answers (its challenger and invitations loaded)."""
    invitations = list(item.invitations.select_related("user").order_by("pk"))
    robots = bots.bots_among([item.challenger_id, *(row.user_id for row in invitations)])
    return {
        "id": item.pk,
        "name": item.name,
        "status": item.status,
        "challenger": person(item.challenger, item.challenger_id in robots),
        "invited": [
            {**person(row.user, row.user_id in robots), "answer": row.answer} for row in invitations
        ],
        "seats": item.seat_count,
        "rated": item.rated,
        "tournament": item.tournament,
        "turn_seconds": item.turn_seconds,
        "bot_kind": item.bot_kind,
        "expires_at": item.expires_at.isoformat(),
        "table": item.table_id,
    }


def open_table(table: Table, seats: list[Seat]) -> dict[str, Any]:
    return {
        "id": table.pk,
        "name": table.name,
        "seats": table.seat_count,
        "taken": sum(1 for seat in seats if seat.user_id or seat.bot),
        "rated": table.rated,
        "tournament": table.tournament,
        "turn_seconds": table.turn_seconds,
        "host": table.host.get_username() if table.host_id else None,
    }
