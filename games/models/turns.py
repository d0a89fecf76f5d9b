"""Turn-based play: a person's days off (vacations), which stop their turn-based clocks."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Vacation(models.Model):
    """Days a person is away: while a vacation runs, their turn-based deadlines do not run
    (``games.services.turns``). Whole days, counted against a yearly allowance."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations"
    )
    starts_at = models.DateTimeField(_("from"))
    ends_at = models.DateTimeField(_("until"))
    days = models.PositiveSmallIntegerField(_("days"))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("vacation")
        verbose_name_plural = _("vacations")
        ordering = ["starts_at"]
        indexes = [models.Index(fields=["user", "ends_at"])]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_at__gt=models.F("starts_at")), name="vacation_ends_after"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} away {self.starts_at:%Y-%m-%d} – {self.ends_at:%Y-%m-%d}"
