"""``{% arena_trophies player %}``: a player's podium places in finished arenas, as their
profile shows them (the profile is the games'; the arenas give it this tag)."""

from __future__ import annotations

from django import template

from arenas.models import Arena, ArenaPlayer
from arenas.services.events import PODIUM

register = template.Library()
SHOWN = 20  # the newest trophies a profile lists


@register.inclusion_tag("arenas/partials/trophies.html")
def arena_trophies(player) -> dict:
    places = (
        ArenaPlayer.objects.filter(
            user=player, rank__lte=PODIUM, arena__status=Arena.Status.FINISHED, arena__private=False
        )
        .select_related("arena")
        .order_by("-arena__ends_at")[:SHOWN]
    )
    return {"trophies": list(places)}
