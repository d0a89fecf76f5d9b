"""Who may see what: one rule, used by the table page, its socket and finished games alike; and
the word that a moderator sees a table only their role lets them see (``note_watch``)."""

from __future__ import annotations

import secrets
from collections.abc import Iterable

from django.contrib.auth.models import AbstractBaseUser
from django.dispatch import Signal
from django.utils.translation import gettext_lazy as _

from games.models import Seat, Table

# A moderator sees a table only their role lets them see (``note_watch``), as a page or a socket
# shows it to them; moderation, above the games, keeps it in its log. Sent with ``user``,
# ``table`` and ``way``, one of the ways below.
moderator_watched = Signal()

# The ways a moderator sees a table, said in the watch's record.
ON_THE_PAGE = _("the table's page")
ON_THE_SOCKET = _("the table's live socket")
AS_A_FINISHED_GAME = _("the finished game or its record")


def signed_in_id(user: AbstractBaseUser | None) -> int | None:
    """The id of ``user`` if they are signed in; None for an anonymous visitor or no one."""
    return user.pk if user is not None and user.is_authenticated else None


def invite_matches(table: Table, token: str | None) -> bool:
    """True if ``token`` is the table's invite link token (compared in constant time; as bytes,
    since a hostile token need not be ASCII)."""
    return bool(token) and secrets.compare_digest(token.encode(), table.invite_token.encode())


def page_for(table: Table, invite: str | None = None) -> str:
    """The table's page for a visitor who came with ``invite``: with it, when the table is
    private and it is the table's own (so that they find their way back in); else the page
    alone."""
    if not table.public and invite_matches(table, invite):
        return table.page_url(table.invite_token)
    return table.page_url()


def may_watch(table: Table, user: AbstractBaseUser | None, invite: str | None = None) -> bool:
    """Who may see a table, while it is played and after (its page, its socket, the finished
    game and its record alike): everyone a public one; a private one its host, whoever holds its
    invite link, the people who sit or sat at it (a bot may have taken their seat), and
    moderators (as spectators)."""
    return may_watch_as_guest(table, user, invite) or is_moderator(user)


def may_watch_as_guest(
    table: Table, user: AbstractBaseUser | None, invite: str | None = None
) -> bool:
    """:func:`may_watch` without the moderators' right to see any table."""
    if table.public or invite_matches(table, invite):
        return True
    if user is None or not user.is_authenticated:
        return False
    if table.host_id == user.pk:
        return True
    return table.seats.sat_by(user).exists()


def watchable_among(tables: Iterable[Table], user: AbstractBaseUser | None) -> set[int]:
    """Which of ``tables`` ``user`` may watch (:func:`may_watch` without an invite), by id, in
    one query at most for all the private ones."""
    tables = list(tables)
    shown = {table.pk for table in tables if table.public}
    private = [table for table in tables if not table.public]
    if not private or user is None or not user.is_authenticated:
        return shown
    if is_moderator(user):
        return shown | {table.pk for table in private}
    shown.update(table.pk for table in private if table.host_id == user.pk)
    asked = [table.pk for table in private if table.pk not in shown]
    if asked:
        sat = Seat.objects.sat_by(user).filter(table_id__in=asked)
        shown.update(sat.values_list("table_id", flat=True))
    return shown


def is_moderator(user: AbstractBaseUser | None) -> bool:
    """Staff who may see the tables in the admin: the Moderators group, and superusers."""
    if user is None or not user.is_authenticated or not user.is_staff:
        return False
    return user.has_perm("games.view_table")


def note_watch(user: AbstractBaseUser | None, table: Table, invite: str | None, way: str) -> None:
    """Send ``moderator_watched`` if moderator ``user`` sees ``table`` in ``way`` only because
    they are one: the table is private, and they neither sit nor sat at it nor hold its invite.
    The table's page, its socket and the finished game's pages call it once they show it."""
    if is_moderator(user) and not may_watch_as_guest(table, user, invite):
        moderator_watched.send(sender=Table, user=user, table=table, way=way)
