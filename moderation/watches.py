"""Moderators watching private play: every way a moderator sees a table only their role lets
them see (its page, its socket opened directly, its finished game or that game's record) is
written in the moderation log, once per moderator and table in any hour, not once per push.

This sits at the services' level (it reads who may see what and writes a log row), so that the
table's socket may ask it as the pages do.
"""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import Table
from games.services import access
from moderation.models import ModerationLog

# One row per moderator and table within this window: a watch, not every look at it.
WATCH_LOGGED_EVERY = timedelta(hours=1)

# The ways a moderator sees a table, said in the log's reason.
ON_THE_PAGE = _("the table's page")
ON_THE_SOCKET = _("the table's live socket")
AS_A_FINISHED_GAME = _("the finished game or its record")


def note_watch(user: AbstractBaseUser | None, table: Table, invite: str | None, way: str) -> bool:
    """Log that moderator ``user`` sees ``table`` in ``way``, if only their role lets them (the
    table is private, and they neither sit nor sat at it nor hold its invite) and they have not
    been logged watching it within ``WATCH_LOGGED_EVERY``. True if a row was written."""
    if not access.is_moderator(user) or access.may_watch_as_guest(table, user, invite):
        return False
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
