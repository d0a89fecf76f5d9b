"""What every page's header shows of the social app: the bell's unread count."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from social import notifications


def bell(request: HttpRequest) -> dict[str, Any]:
    """``bell_count``: the signed-in person's unread notifications (read lazily: a page that
    does not draw the header never counts them)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"bell_count": lambda: notifications.unread_count(user)}
