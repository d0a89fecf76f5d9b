"""Reports and the moderation log.

A player reports another (from a table or a profile); moderators handle the report in the
admin's queue. The moderation log is append-only: a row is written in the same transaction as
the moderator's action it records (``moderation.actions``), and never changed nor deleted.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from accounts.models import COMMENT_MAX_LENGTH
from lib.append_only import AppendOnly, AppendOnlyError


class Report(models.Model):
    """A player reports another; moderators handle it in the admin's queue."""

    class Category(models.TextChoices):
        ABUSIVE_CHAT = "abusive_chat", _("Abusive chat")
        OFFENSIVE_NAME = "offensive_name", _("Offensive name")
        LEAVING = "leaving", _("Leaving or stalling games")
        CHEATING = "cheating", _("Cheating or collusion")
        OTHER = "other", _("Other")

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        RESOLVED = "resolved", _("Resolved")
        DISMISSED = "dismissed", _("Dismissed")

    filer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_filed"
    )
    target = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_received"
    )
    category = models.CharField(_("category"), max_length=16, choices=Category.choices)
    comment = models.TextField(_("comment"), max_length=COMMENT_MAX_LENGTH, blank=True)
    table = models.ForeignKey(
        "games.Table", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # The recent chat at the table when the report was filed: [{"author", "room", "text", "at"}].
    chat_snapshot = models.JSONField(_("recent chat"), default=list, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )
    notes = models.TextField(_("moderator notes"), blank=True)
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    handled_at = models.DateTimeField(_("handled at"), null=True, blank=True)
    # The sanction the moderator imposed from this report, if they acted on it.
    sanction = models.ForeignKey(
        "accounts.Sanction",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="reports",
        verbose_name=_("sanction"),
    )
    created_at = models.DateTimeField(_("filed at"), auto_now_add=True)

    class Meta:
        verbose_name = _("report")
        verbose_name_plural = _("reports")
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["filer", "target", "category"],
                condition=Q(status="open"),
                name="one_open_report_per_filer_target_category",
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_category_display()}: {self.target} ({self.filer})"


class ModerationLogError(AppendOnlyError):
    """Someone tried to change or delete a row of the moderation log."""


class ModerationLog(AppendOnly):
    """One moderator action: who, what, whom, why, when. Append-only."""

    class Action(models.TextChoices):
        HIDE_MESSAGE = "hide_message", _("Hid a chat message")
        HANDLE_REPORT = "handle_report", _("Handled a report")
        SANCTION = "sanction", _("Imposed a sanction")
        LIFT = "lift", _("Lifted a sanction")
        ABORT = "abort", _("Aborted a table")
        RENAME = "rename", _("Renamed a player")
        BAN = "ban", _("Banned a player")
        UNBAN = "unban", _("Unbanned a player")
        WATCH = "watch", _("Watched a table")
        VERIFY = "verify", _("Verified a game")
        VOID_RATING = "void_rating", _("Voided a game's rating")
        ARENA_REMOVE = "arena_remove", _("Removed a player from an arena")
        ARENA_CANCEL = "arena_cancel", _("Cancelled an arena")

    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True
    )
    action = models.CharField(_("action"), max_length=16, choices=Action.choices)
    target = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="moderation_entries",
    )
    object_repr = models.CharField(_("object"), max_length=200, blank=True)
    object_url = models.CharField(_("link"), max_length=200, blank=True)
    reason = models.TextField(_("reason"), blank=True)
    created_at = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)

    refusal = ModerationLogError

    class Meta:
        verbose_name = _("moderation log entry")
        verbose_name_plural = _("moderation log")
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.actor} · {self.get_action_display()} · {self.object_repr}"
