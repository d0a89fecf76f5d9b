"""Which sanctions hold on a player now: the one check the games make before a player writes in
the chat or sits down to play (``refuse_if_active``), and the account ban's end at log-in."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _

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


class Sanctioned(ValueError):
    """An active sanction refuses the player: its ``kind``, and in ``message`` why and until when,
    in the player's words."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


# What a player is told while a sanction holds: for good, or until when (local time).
REFUSALS = {
    Sanction.Kind.CHAT_MUTE: (
        _("A moderator has muted your chat for good."),
        _("A moderator has muted your chat until %(until)s."),
    ),
    Sanction.Kind.PLAY_BAN: (
        _("A moderator has banned you from playing."),
        _("A moderator has banned you from playing until %(until)s."),
    ),
    Sanction.Kind.ARENA_BAN: (
        _("A moderator has banned you from arenas."),
        _("A moderator has banned you from arenas until %(until)s."),
    ),
}


def refuse_if_active(user: AbstractBaseUser | None, kind: str) -> None:
    """Refuse ``user`` while a sanction of ``kind`` (a chat mute or a play ban) holds on them.

    :raises Sanctioned: with the words of ``REFUSALS``: for good, or until its end.
    """
    sanction = active_sanction(user, kind)
    if sanction is None:
        return
    for_good, until = REFUSALS[kind]
    if sanction.ends_at is None:
        raise Sanctioned(kind, str(for_good))
    ends = formats.date_format(timezone.localtime(sanction.ends_at), "DATETIME_FORMAT")
    words = until % {"until": ends}
    # A time that ends its sentence says its own full stop ("until 5:30 p.m.").
    raise Sanctioned(kind, words[:-1] if words.endswith("..") else words)


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
