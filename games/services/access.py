"""Who may see what: one rule, used by the table page, its socket and finished games alike."""

from __future__ import annotations

import secrets

from django.contrib.auth.models import AbstractBaseUser

from games.models import Table


def invite_matches(table: Table, token: str | None) -> bool:
    """True if ``token`` is the table's invite link token (compared in constant time; as bytes,
    since a hostile token need not be ASCII)."""
    return bool(token) and secrets.compare_digest(token.encode(), table.invite_token.encode())


def may_watch(table: Table, user: AbstractBaseUser | None, invite: str | None = None) -> bool:
    """Who may see a table (the page and its socket alike): everyone a public one; a private
    one its host, the people seated at it, and whoever holds its invite link."""
    if table.public or invite_matches(table, invite):
        return True
    return bool(
        user is not None
        and user.is_authenticated
        and (table.host_id == user.pk or table.seats.filter(user=user).exists())
    )
