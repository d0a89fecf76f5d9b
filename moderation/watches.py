"""Moderators watching private play, in the moderation log: every way a moderator sees a table
only their role lets them see (its page, its socket opened directly, its finished game or that
game's record), as the games tell it (``games.services.access.moderator_watched``), is written
once per moderator and table in any hour, not once per push. Connected in
``ModerationConfig.ready``.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from games.models import Table
from moderation.models import ModerationLog

# One row per moderator and table within this window: a watch, not every look at it.
WATCH_LOGGED_EVERY = timedelta(hours=1)


def log_watch(sender: Any, user: AbstractBaseUser, table: Table, way: str, **kwargs: Any) -> bool:
    """``games.services.access.moderator_watched``: log that moderator ``user`` sees ``table``
    in ``way``, unless they have been logged watching it within ``WATCH_LOGGED_EVERY``. True if
    a row was written."""
    url = reverse("admin:games_table_change", args=[table.pk])
    since = timezone.now() - WATCH_LOGGED_EVERY
    with transaction.atomic():
        logged = ModerationLog.objects.filter(
            actor=user, action=ModerationLog.Action.WATCH, object_url=url, created_at__gte=since
        )
        if logged.exists():
            return False
        ModerationLog.objects.create(
            actor=user,
            action=ModerationLog.Action.WATCH,
            target_id=table.host_id,
            object_repr=str(table)[:200],
            object_url=url,
            reason=str(way),
        )
    return True
