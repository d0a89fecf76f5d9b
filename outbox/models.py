"""What the outbox keeps: each person's opt-ins, their browsers' push subscriptions, and the
sends owed, sent or dropped."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Preferences(models.Model):
    """Whether a person is told away from the site, by e-mail and by push: off until they
    say so. ``language`` is the one their pages were in when they chose, for the words sent."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="outbox_preferences"
    )
    email = models.BooleanField(_("by e-mail"), default=False)
    push = models.BooleanField(_("by browser push"), default=False)
    language = models.CharField(max_length=16, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("delivery preferences")
        verbose_name_plural = _("delivery preferences")

    def __str__(self) -> str:
        return f"{self.user}: e-mail {self.email}, push {self.push}"


class PushSubscription(models.Model):
    """One browser's Web Push subscription (its push service's endpoint and keys)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")

    def __str__(self) -> str:
        return f"{self.user}: {self.endpoint[:40]}"


class Delivery(models.Model):
    """One send owed to one person on one channel: what to say (a notification's kind and
    data, drawn in words when it is sent), how often it was tried, and how it ended."""

    class Channel(models.TextChoices):
        EMAIL = "email", _("E-mail")
        PUSH = "push", _("Push")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    channel = models.CharField(max_length=8, choices=Channel.choices)
    subscription = models.ForeignKey(
        PushSubscription, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    kind = models.CharField(max_length=24)
    data = models.JSONField(default=dict)
    attempts = models.PositiveSmallIntegerField(default=0)
    # When it may next be tried (moved on as a pass takes it, so two passes never both send).
    due_at = models.DateTimeField()
    sent_at = models.DateTimeField(null=True, blank=True)
    dropped_at = models.DateTimeField(null=True, blank=True)
    error = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("delivery")
        verbose_name_plural = _("deliveries")
        indexes = [
            models.Index(
                fields=["due_at"],
                name="delivery_owed",
                condition=models.Q(sent_at__isnull=True, dropped_at__isnull=True),
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} to {self.user} by {self.channel}"
