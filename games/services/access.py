"""Who may see what: one rule, used by the table page, its socket and finished games alike."""

from __future__ import annotations

import secrets

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Q

from games.models import Table


def invite_matches(table: Table, token: str | None) -> bool:
    """True if ``token`` is the table's invite link token (compared in constant time; as bytes,
    since a hostile token need not be ASCII)."""
    return bool(token) and secrets.compare_digest(token.encode(), table.invite_token.encode())


def may_watch(table: Table, user: AbstractBaseUser | None, invite: str | None = None) -> bool:
    """Who may see a table, while it is played and after (its page, its socket, the finished
    game and its record alike): everyone a public one; a private one its host, whoever holds its
    invite link, and the people who sit or sat at it (a bot may have taken their seat)."""
    if table.public or invite_matches(table, invite):
        return True
    if user is None or not user.is_authenticated:
        return False
    if table.host_id == user.pk:
        return True
    return table.seats.filter(Q(user=user) | Q(replaced_user=user)).exists()
