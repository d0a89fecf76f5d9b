"""Players' ratings, one per mode, and what each rated game did to them."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models.tables import Game


class RatingMode(models.TextChoices):
    """The ratings a person has, one per kind of game: two people, three to ten, R22's
    stages, or turn-based (days a move, whatever the seats)."""

    DUEL = "duel", _("Duel")
    PARTY = "party", _("Party")
    TOURNAMENT = "tournament", _("Tournament")
    TURN_BASED = "turns", _("Turn-based")


class Rating(models.Model):
    """A person's rating in one mode: OpenSkill's Plackett–Luce belief (``mu``, ``sigma``) and
    how many rated games it has seen. Written only by ``games.services.ratings``."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    mode = models.CharField(_("mode"), max_length=10, choices=RatingMode.choices)
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(_("rated games"), default=0)
    updated_at = models.DateTimeField(_("last rated game"))

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.UniqueConstraint(fields=["user", "mode"], name="one_rating_per_mode"),
        ]
        indexes = [models.Index(fields=["mode", "updated_at"])]

    def __str__(self) -> str:
        return f"{self.user} {self.mode} {self.mu:.2f}±{self.sigma:.2f}"


class RatingChange(models.Model):
    """What one rated game did to one player's rating: before and after, as the library holds
    it and as the site shows it, and the player's rank in the game (0 is first)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    mode = models.CharField(max_length=10, choices=RatingMode.choices)
    rank = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    shown_before = models.IntegerField()
    shown_after = models.IntegerField()
    ended_at = models.DateTimeField()  # the game's end, for a person's history in order

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="one_rating_change_per_player"),
        ]
        indexes = [models.Index(fields=["user", "mode", "ended_at"])]

    def __str__(self) -> str:
        return f"{self.user} {self.shown_before} → {self.shown_after} ({self.game})"

    @property
    def delta(self) -> int:
        return self.shown_after - self.shown_before
