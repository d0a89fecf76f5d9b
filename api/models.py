"""The API's own tables: the personal access tokens."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class AccessToken(models.Model):
    """A personal access token. Its id is the SHA-256 of the bearer, as lila's AccessToken:
    the bearer itself is shown once, when it is made, and kept nowhere."""

    id = models.CharField(primary_key=True, max_length=64, editable=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="access_tokens",
        verbose_name=_("account"),
    )
    name = models.CharField(_("name"), max_length=60)
    # The scopes it holds (``api.scopes``), a list of their names.
    scopes = models.JSONField(_("scopes"), default=list)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)

    class Meta:
        verbose_name = _("personal access token")
        verbose_name_plural = _("personal access tokens")
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["user", "revoked_at"])]

    def __str__(self) -> str:
        return f"{self.name} ({self.user})"

    @property
    def revoked(self) -> bool:
        return self.revoked_at is not None
