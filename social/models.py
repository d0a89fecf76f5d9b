"""Follows, blocks, privacy settings and notifications.

A follow is one person's, towards another; two people who follow each other are friends (as on
lichess). A block is one person's too: it ends the follows both ways and keeps the blocked
person from challenging, following or sitting at a table of the blocker's (``social.relations``,
and the games' services for the tables and the chat). A notification is a row per person told,
its words drawn from its kind and plain data in the reader's language when it is shown.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _


class Follow(models.Model):
    """``follower`` follows ``followed``."""

    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="following_rows",
        verbose_name=_("follower"),
    )
    followed = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="follower_rows",
        verbose_name=_("followed"),
    )
    created_at = models.DateTimeField(_("since"), auto_now_add=True)

    class Meta:
        verbose_name = _("follow")
        verbose_name_plural = _("follows")
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="one_follow_per_pair"),
            models.CheckConstraint(condition=~Q(follower=F("followed")), name="no_self_follow"),
        ]

    def __str__(self) -> str:
        return f"{self.follower} → {self.followed}"


class Block(models.Model):
    """``blocker`` blocked ``blocked``."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="blocking_rows",
        verbose_name=_("blocker"),
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="blocked_by_rows",
        verbose_name=_("blocked"),
    )
    created_at = models.DateTimeField(_("since"), auto_now_add=True)

    class Meta:
        verbose_name = _("block")
        verbose_name_plural = _("blocks")
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="one_block_per_pair"),
            models.CheckConstraint(condition=~Q(blocker=F("blocked")), name="no_self_block"),
        ]

    def __str__(self) -> str:
        return f"{self.blocker} ⊘ {self.blocked}"


class Privacy(models.Model):
    """One person's privacy settings; a person without a row has the defaults."""

    class Challenges(models.TextChoices):
        EVERYONE = "everyone", _("Everyone")
        FRIENDS = "friends", _("Friends only")
        NOBODY = "nobody", _("Nobody")

    class Online(models.TextChoices):
        EVERYONE = "everyone", _("Everyone")
        FRIENDS = "friends", _("Friends only")

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="privacy"
    )
    challenges = models.CharField(
        _("who may challenge me"),
        max_length=10,
        choices=Challenges.choices,
        default=Challenges.EVERYONE,
    )
    online = models.CharField(
        _("who sees that I am online"),
        max_length=10,
        choices=Online.choices,
        default=Online.EVERYONE,
    )

    class Meta:
        verbose_name = _("privacy settings")
        verbose_name_plural = _("privacy settings")

    def __str__(self) -> str:
        return f"{self.user}: {self.challenges}, {self.online}"


class Notification(models.Model):
    """Something a person is told: its ``kind`` and plain ``data`` (names, ids, a link), from
    which its words are drawn in the reader's language (``social.notifications.words``)."""

    class Kind(models.TextChoices):
        CHALLENGE_RECEIVED = "challenge_received", _("Challenge received")
        CHALLENGE_ACCEPTED = "challenge_accepted", _("Challenge accepted")
        CHALLENGE_DECLINED = "challenge_declined", _("Challenge declined")
        CHALLENGE_CANCELLED = "challenge_cancelled", _("Challenge cancelled")
        CHALLENGE_EXPIRED = "challenge_expired", _("Challenge expired")
        REMATCH_OFFERED = "rematch_offered", _("Rematch offered")
        NEW_FOLLOWER = "new_follower", _("New follower")
        REPORT_HANDLED = "report_handled", _("Report handled")
        ARENA_STARTING = "arena_starting", _("Arena starting")
        ARENA_TABLE = "arena_table", _("Arena table")
        YOUR_MOVE = "your_move", _("Your move")
        MOVE_REMINDER = "move_reminder", _("Less than a day left")

    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="notifications",
        verbose_name=_("recipient"),
    )
    kind = models.CharField(_("kind"), max_length=24, choices=Kind.choices)
    data = models.JSONField(_("data"), default=dict, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True, db_index=True)
    read_at = models.DateTimeField(_("read at"), null=True, blank=True)

    class Meta:
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["recipient", "read_at"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} for {self.recipient}"
