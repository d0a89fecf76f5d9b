"""Players' accounts and profiles."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


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
