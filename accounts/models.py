"""What accounts keep beside Django's users: sanctions and guests.

A sanction is a row with a reason and an end, never a flag without history (as lichess keeps its
chat timeouts and playbans). Moderators impose and lift them (``moderation``); the games
and the log-in read them (``accounts.sanctions``).
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

COMMENT_MAX_LENGTH = 1000


class SanctionQuerySet(models.QuerySet):
    def active(self, now: datetime | None = None) -> SanctionQuerySet:
        """Not lifted, and permanent or not yet ended."""
        now = now or timezone.now()
        return self.filter(lifted_at__isnull=True).filter(
            Q(ends_at__isnull=True) | Q(ends_at__gt=now)
        )


class Sanction(models.Model):
    """A chat mute, a play ban or an account ban: who, why, by whom, until when."""

    class Kind(models.TextChoices):
        CHAT_MUTE = "chat_mute", _("Chat mute")
        PLAY_BAN = "play_ban", _("Play ban")
        ACCOUNT_BAN = "account_ban", _("Account ban")
        ARENA_BAN = "arena_ban", _("Arena ban")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sanctions"
    )
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    reason = models.TextField(_("reason"), max_length=COMMENT_MAX_LENGTH)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    # None: permanent.
    ends_at = models.DateTimeField(_("ends at"), null=True, blank=True)
    lifted_at = models.DateTimeField(_("lifted at"), null=True, blank=True)
    lifted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    lift_reason = models.TextField(_("reason for lifting"), blank=True)

    objects = SanctionQuerySet.as_manager()

    class Meta:
        verbose_name = _("sanction")
        verbose_name_plural = _("sanctions")
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["user", "kind"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.user}"

    @property
    def is_active(self) -> bool:
        if self.lifted_at is not None:
            return False
        return self.ends_at is None or self.ends_at > timezone.now()


class Guest(models.Model):
    """An account made with one click to try a game against bots, without a password.

    It plays bot tables only (``accounts.guests``). Claiming it (a username and password of the
    player's choice) deletes this row and keeps the account, its games and statistics; an
    unclaimed one is deleted after a while (``manage.py delete_stale_guests``).
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="guest"
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("guest")
        verbose_name_plural = _("guests")

    def __str__(self) -> str:
        return self.user.get_username()


class BotAccount(models.Model):
    """An account that plays through the API only, as lichess's BOT accounts: made from an
    account with no game yet, and never made a person's again (``accounts.bots``)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bot_account"
    )
    since = models.DateTimeField(_("a BOT since"), auto_now_add=True)

    class Meta:
        verbose_name = _("BOT account")
        verbose_name_plural = _("BOT accounts")

    def __str__(self) -> str:
        return self.user.get_username()
