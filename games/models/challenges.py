"""Challenges: one person asks one or more others to a table of the options they chose.

A :class:`Challenge` holds the table's options as the table form has them (seats, timed or
untimed, rated or casual, tournament rules, bots for the seats left empty) and one
:class:`ChallengeInvitation` per person asked, with their answer. The table itself is made only
when the challenge starts (``games.services.challenges``), and the challenge then names it.
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models.tables import BOT_KINDS, MAX_SEATS, MIN_SEATS, Table


class Challenge(models.Model):
    """A challenge, open until it starts, is declined by everyone asked, is cancelled or
    expires."""

    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for answers")
        ACCEPTED = "accepted", _("Accepted: the game started")
        DECLINED = "declined", _("Declined")
        CANCELLED = "cancelled", _("Cancelled")
        EXPIRED = "expired", _("Expired")

    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="challenges_made",
        verbose_name=_("challenger"),
    )
    name = models.CharField(_("name"), max_length=60)
    seat_count = models.PositiveSmallIntegerField(
        _("seats"), validators=[MinValueValidator(MIN_SEATS), MaxValueValidator(MAX_SEATS)]
    )
    tournament = models.BooleanField(_("tournament (R22)"), default=False)
    turn_seconds = models.PositiveSmallIntegerField(_("turn time"), null=True, blank=True)
    turn_days = models.PositiveSmallIntegerField(_("days per move"), null=True, blank=True)
    rated = models.BooleanField(_("rated"), default=False)
    # The bots that take the seats nobody fills when the game starts; "" leaves them empty.
    bot_kind = models.CharField(_("bots"), max_length=16, blank=True, choices=BOT_KINDS)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True, db_index=True)
    expires_at = models.DateTimeField(_("expires at"))
    table = models.OneToOneField(
        Table,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="challenge",
        verbose_name=_("table"),
    )

    class Meta:
        verbose_name = _("challenge")
        verbose_name_plural = _("challenges")
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["status", "expires_at"])]

    def __str__(self) -> str:
        return f"{self.name} (#{self.pk})"


class ChallengeInvitation(models.Model):
    """One person asked by a challenge, and their answer."""

    class Answer(models.TextChoices):
        PENDING = "pending", _("Not answered yet")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")

    challenge = models.ForeignKey(Challenge, on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="challenge_invitations",
        verbose_name=_("invited"),
    )
    answer = models.CharField(
        _("answer"), max_length=10, choices=Answer.choices, default=Answer.PENDING
    )
    answered_at = models.DateTimeField(_("answered at"), null=True, blank=True)

    class Meta:
        verbose_name = _("challenge invitation")
        verbose_name_plural = _("challenge invitations")
        ordering = ["challenge", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["challenge", "user"], name="one_challenge_invitation_per_user"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} to {self.challenge}"
