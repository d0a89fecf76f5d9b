"""Quick match ("Play now"): who waits in which pool, and the one row of its waves."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class PoolEntry(models.Model):
    """One person waiting in a quick-match pool ("Play now"): one pool at a time. Written only
    by ``games.services.quickmatch``; the tick pairs the entries and deletes them as it seats
    their people."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="pool_entry"
    )
    pool = models.CharField(_("pool"), max_length=16)
    rating = models.IntegerField(_("rating when entering"))  # as shown, in the pool's mode
    bots_wanted = models.BooleanField(_("fill with bots"), default=False)
    joined_at = models.DateTimeField(_("joined"))
    # The pool pages open for this entry, and when one of them was last heard from: an entry
    # with none open, or none heard from for a while (its server died), is a ghost the tick
    # reaps.
    sockets = models.PositiveSmallIntegerField(_("pool pages open"), default=0)
    seen_at = models.DateTimeField(_("last heard from"))

    class Meta:
        verbose_name = _("pool entry")
        verbose_name_plural = _("pool entries")
        indexes = [models.Index(fields=["pool", "joined_at"])]

    def __str__(self) -> str:
        return f"{self.user} in {self.pool}"


class MatchWave(models.Model):
    """The one row of the quick-match waves: the clock that holds it (``held_until`` in the
    future) pairs the pools; the others skip the wave. A lease, not a lock that outlives its
    process: a clock that died mid-wave frees it when the lease ends."""

    held_until = models.DateTimeField()
    last_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"quick-match wave of {self.last_at:%H:%M:%S}"
