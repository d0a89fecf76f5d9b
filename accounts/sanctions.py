"""Which sanctions hold on a player now: read by the games (chat, tables) and the log-in."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.utils import formats, timezone

from accounts.models import Sanction


def active_sanction(user: AbstractBaseUser | None, kind: str) -> Sanction | None:
    """The active sanction of ``kind`` on ``user`` that ends last (a permanent one first)."""
    if user is None or not user.is_authenticated:
        return None
    sanctions = list(Sanction.objects.active().filter(user=user, kind=kind))
    if not sanctions:
        return None
    permanent = [sanction for sanction in sanctions if sanction.ends_at is None]
    return permanent[0] if permanent else max(sanctions, key=lambda sanction: sanction.ends_at)


def refusal(user: AbstractBaseUser | None, kind: str, *, for_good: str, until: str) -> str | None:
    """Why an active sanction of ``kind`` refuses ``user`` now, in words, or None if none
    holds: ``for_good`` for a permanent one, else ``until`` with ``%(until)s`` its end (local
    time)."""
    sanction = active_sanction(user, kind)
    if sanction is None:
        return None
    if sanction.ends_at is None:
        return for_good
    ends = formats.date_format(timezone.localtime(sanction.ends_at), "DATETIME_FORMAT")
    return until % {"until": ends}


def end_lapsed_ban(user: AbstractBaseUser) -> bool:
    """A banned account whose every account ban has ended becomes active again: the ban's
    automatic end, checked when the player logs in. True if it did."""
    if user.is_active:
        return False
    bans = Sanction.objects.filter(user=user, kind=Sanction.Kind.ACCOUNT_BAN)
    if not bans.exists() or bans.active().exists():
        return False  # deactivated by hand, or still banned
    get_user_model().objects.filter(pk=user.pk).update(is_active=True)
    user.is_active = True
    return True
