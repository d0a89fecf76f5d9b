"""The arenas' tables: the arenas, their players, the tables they were seated at and each
seat's result, and the schedules that create site arenas by themselves.

An arena links to the games from its side (:class:`ArenaTable` to ``games.Table`` and
``games.Game``): the games know nothing of arenas.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

MIN_SEATS, MAX_SEATS = 2, 6
# A site arena lasts 1 minute to 3 hours; a private arena, 20 minutes to 2 hours.
MIN_MINUTES, MAX_MINUTES = 1, 180


def new_invite_token() -> str:
    return secrets.token_urlsafe(16)


class TableOptions(models.Model):
    """What an arena's tables are, shared by arenas and their schedules."""

    seats = models.PositiveSmallIntegerField(
        _("players per table"),
        default=2,
        validators=[MinValueValidator(MIN_SEATS), MaxValueValidator(MAX_SEATS)],
    )
    turn_seconds = models.PositiveSmallIntegerField(
        _("turn time"), null=True, blank=True, default=30
    )
    tournament = models.BooleanField(_("tournament rules (R22)"), default=False)
    rated = models.BooleanField(_("rated"), default=True)
    bots_allowed = models.BooleanField(_("bots fill a table nobody else could"), default=False)
    minutes = models.PositiveSmallIntegerField(
        _("duration in minutes"),
        default=30,
        validators=[MinValueValidator(MIN_MINUTES), MaxValueValidator(MAX_MINUTES)],
    )

    class Meta:
        abstract = True


class Arena(TableOptions):
    """One event: everyone plays as many games as they can between its start and its end."""

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("Starts soon")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    name = models.CharField(_("name"), max_length=60)
    starts_at = models.DateTimeField(_("starts at"), db_index=True)
    ends_at = models.DateTimeField(_("ends at"), db_index=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.SCHEDULED
    )
    private = models.BooleanField(_("private (by link)"), default=False)
    invite_token = models.CharField(max_length=32, unique=True, default=new_invite_token)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    schedule = models.ForeignKey(
        "ArenaSchedule",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="arenas",
        verbose_name=_("schedule"),
    )
    reminded = models.BooleanField(default=False)  # its players told it starts soon
    last_wave_at = models.DateTimeField(null=True, blank=True)  # the last wave that paired it
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("arena")
        verbose_name_plural = _("arenas")
        ordering = ["-starts_at", "-pk"]
        indexes = [models.Index(fields=["status", "starts_at"])]

    def __str__(self) -> str:
        return f"{self.name} (#{self.pk})"

    def save(self, *args, **kwargs) -> None:
        if self.starts_at is not None and self.ends_at is None:
            self.ends_at = self.starts_at + timedelta(minutes=self.minutes)
        super().save(*args, **kwargs)

    def page_url(self) -> str:
        url = reverse("arenas:arena", args=[self.pk])
        return f"{url}?invite={self.invite_token}" if self.private else url

    @property
    def over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.CANCELLED)


class ArenaPlayer(models.Model):
    """One person's place in one arena: their score, their streak, their pool."""

    class State(models.TextChoices):
        ACTIVE = "active", _("Playing")
        PAUSED = "paused", _("Paused")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        REMOVED = "removed", _("Removed by a moderator")

    arena = models.ForeignKey(Arena, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="arena_places"
    )
    state = models.CharField(max_length=10, choices=State.choices, default=State.ACTIVE)
    points = models.IntegerField(default=0)
    games = models.PositiveIntegerField(default=0)
    streak = models.PositiveSmallIntegerField(default=0)
    rating = models.IntegerField(default=1500)  # shown rating in the arena's mode, on joining
    # In the pool since then, waiting for a table; None while seated, paused or out.
    waiting_since = models.DateTimeField(null=True, blank=True, db_index=True)
    apart = models.JSONField(default=list)  # the arena players of their last table
    no_shows = models.PositiveSmallIntegerField(default=0)  # in a row
    rank = models.PositiveIntegerField(null=True, blank=True)  # the final place, 1 first
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("arena player")
        verbose_name_plural = _("arena players")
        constraints = [
            models.UniqueConstraint(fields=["arena", "user"], name="one_place_per_arena")
        ]
        indexes = [models.Index(fields=["arena", "-points"])]

    def __str__(self) -> str:
        return f"{self.user} in {self.arena}"


class ArenaTable(models.Model):
    """A table an arena's wave seated, and its game."""

    arena = models.ForeignKey(Arena, on_delete=models.CASCADE, related_name="tables")
    table = models.OneToOneField(
        "games.Table", on_delete=models.CASCADE, related_name="arena_table"
    )
    game = models.OneToOneField(
        "games.Game", on_delete=models.SET_NULL, null=True, blank=True, related_name="arena_table"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    scored = models.BooleanField(default=False)  # its results written

    class Meta:
        verbose_name = _("arena table")
        verbose_name_plural = _("arena tables")
        indexes = [models.Index(fields=["arena", "scored"])]

    def __str__(self) -> str:
        return f"{self.arena} · table #{self.table_id}"


class ArenaResult(models.Model):
    """What one seat of an arena's table scored."""

    table = models.ForeignKey(ArenaTable, on_delete=models.CASCADE, related_name="results")
    player = models.ForeignKey(ArenaPlayer, on_delete=models.CASCADE, related_name="results")
    points = models.IntegerField()
    place_points = models.IntegerField()
    doubled = models.BooleanField(default=False)
    left = models.BooleanField(default=False)
    absent = models.BooleanField(default=False)
    voided = models.BooleanField(default=False)  # a moderator took the points away

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "player"], name="one_result_per_seat")
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.points}"


class ArenaSchedule(TableOptions):
    """Site arenas made by themselves: one every hour or every day, made a while before it
    starts."""

    class Every(models.TextChoices):
        HOUR = "hourly", _("Every hour")
        DAY = "daily", _("Every day")

    name = models.CharField(_("name"), max_length=60)
    every = models.CharField(_("every"), max_length=8, choices=Every.choices)
    next_start = models.DateTimeField(_("next start"))
    active = models.BooleanField(_("active"), default=True)

    class Meta:
        verbose_name = _("arena schedule")
        verbose_name_plural = _("arena schedules")

    def __str__(self) -> str:
        return self.name
