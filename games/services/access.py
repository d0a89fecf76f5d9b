"""Who may see what: one rule, used by the table page, its socket and finished games alike."""

from __future__ import annotations

import secrets

from django.contrib.auth.models import AbstractBaseUser

from games.models import Table


def signed_in_id(user: AbstractBaseUser | None) -> int | None:
    """The id of ``user`` if they are signed in; None for an anonymous visitor or no one."""
    return user.pk if user is not None and user.is_authenticated else None


def invite_matches(table: Table, token: str | None) -> bool:
    """True if ``token`` is the table's invite link token (compared in constant time; as bytes,
    since a hostile token need not be ASCII)."""
    return bool(token) and secrets.compare_digest(token.encode(), table.invite_token.encode())


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


def is_moderator(user: AbstractBaseUser | None) -> bool:
    """Staff who may see the tables in the admin: the Moderators group, and superusers."""
    if user is None or not user.is_authenticated or not user.is_staff:
        return False
    return user.has_perm("games.view_table")
