"""A table's chat: its lines, the words no line may hold, and who muted whom."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models.tables import Table

CHAT_MAX_CHARS = 300


class ChatMessage(models.Model):
    """One line of a table's chat, in the players' room or the spectators' room."""

    class Room(models.TextChoices):
        PLAYERS = "players", _("Players")
        SPECTATORS = "spectators", _("Spectators")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat_messages")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_messages"
    )
    room = models.CharField(_("room"), max_length=10, choices=Room.choices)
    text = models.CharField(_("text"), max_length=CHAT_MAX_CHARS)
    created_at = models.DateTimeField(_("sent at"), auto_now_add=True)
    hidden_at = models.DateTimeField(_("hidden at"), null=True, blank=True)
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    hidden_reason = models.CharField(_("why hidden"), max_length=200, blank=True)

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["table", "room", "created_at"])]

    def __str__(self) -> str:
        return f"{self.author}: {self.text[:40]}"


class BlockedWord(models.Model):
    """A word no chat message may contain (compared ignoring case)."""

    word = models.CharField(_("word"), max_length=40, unique=True)

    class Meta:
        verbose_name = _("blocked word")
        verbose_name_plural = _("blocked words")
        ordering = ["word"]

    def __str__(self) -> str:
        return self.word


class ChatMute(models.Model):
    """``muter`` no longer sees ``muted``'s chat messages (for themselves only)."""

    muter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_mutes"
    )
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("muted chat")
        verbose_name_plural = _("muted chats")
        constraints = [models.UniqueConstraint(fields=["muter", "muted"], name="one_mute_per_pair")]

    def __str__(self) -> str:
        return f"{self.muter} mutes {self.muted}"
