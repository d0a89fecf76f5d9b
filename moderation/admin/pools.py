"""Who waits in quick match's pools, to read."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.timesince import timesince
from django.utils.translation import gettext_lazy as _

from games.models import PoolEntry
from games.services import quickmatch
from moderation.admin.shared import ReadOnlyAdmin


class PoolFilter(admin.SimpleListFilter):
    """The pools by their names, as players read them on "Play now"; every pool, waited in or
    not."""

    title = _("pool")
    parameter_name = "pool"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list[tuple[str, str]]:
        return [(key, str(pool.label)) for key, pool in quickmatch.POOLS.items()]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        return queryset.filter(pool=self.value()) if self.value() else queryset


@admin.register(PoolEntry)
class PoolEntryAdmin(ReadOnlyAdmin):
    """Who waits in which pool of "Play now", since when, with the rating they are paired by:
    to read. Entries are made and taken by quick match alone (a wave, Cancel, the reaper)."""

    list_display = ("user", "pool_name", "rating", "joined_at", "waiting_for", "bots_wanted")
    list_filter = (PoolFilter, "bots_wanted")
    list_select_related = ("user",)
    search_fields = ("user__username",)
    ordering = ("pool", "joined_at")
    readonly_fields = (
        "user",
        "pool_name",
        "rating",
        "joined_at",
        "waiting_for",
        "bots_wanted",
        "sockets",
        "seen_at",
    )
    fields = readonly_fields

    @admin.display(description=_("pool"), ordering="pool")
    def pool_name(self, entry: PoolEntry) -> str:
        pool = quickmatch.POOLS.get(entry.pool)
        return str(pool.label) if pool is not None else entry.pool

    @admin.display(description=_("waiting for"), ordering="-joined_at")
    def waiting_for(self, entry: PoolEntry) -> str:
        return timesince(entry.joined_at, timezone.now())
