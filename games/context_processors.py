"""What every page's header shows of the games: in how many turn-based games it is the
signed-in person's move."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from games.services import turns


def your_move(request: HttpRequest) -> dict[str, Any]:
    """``your_move_count``: read lazily, so a page that does not draw the header never counts."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"your_move_count": lambda: turns.my_move_count(user)}
