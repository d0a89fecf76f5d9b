"""The moderators' screens of arenas: site arenas created by hand, the schedules that create
them by themselves (hourly, daily), an arena's players, and the actions that remove a player
or cancel an arena (each in the moderation log, ``arenas.services.moderating``)."""

from __future__ import annotations

from datetime import timedelta

from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _

from arenas.models import Arena, ArenaPlayer, ArenaSchedule
from arenas.services import moderating
from games.services.errors import ServiceError

REASON = _("By a moderator, from the arenas' admin")


class ArenaPlayerInline(admin.TabularInline):
    model = ArenaPlayer
    fields = ("user", "state", "points", "games", "streak", "rank")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Arena)
class ArenaAdmin(admin.ModelAdmin):
    list_display = ("name", "starts_at", "minutes", "seats", "status", "private")
    list_filter = ("status", "private")
    search_fields = ("name",)
    fields = (
        "name",
        "starts_at",
        "minutes",
        "seats",
        "turn_seconds",
        "tournament",
        "rated",
        "bots_allowed",
        "status",
        "private",
        "created_by",
    )
    readonly_fields = ("status", "private", "created_by")
    inlines = [ArenaPlayerInline]
    actions = ["cancel_arenas"]

    def save_model(self, request, obj: Arena, form, change) -> None:
        if obj.starts_at is not None:
            obj.ends_at = obj.starts_at + timedelta(minutes=obj.minutes)
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)

    @admin.action(description=_("Cancel the selected arenas"))
    def cancel_arenas(self, request, queryset) -> None:
        cancelled = 0
        for arena in queryset:
            try:
                cancelled += moderating.cancel(request.user, arena, str(REASON))
            except ServiceError as error:
                self.message_user(request, error.message, messages.ERROR)
        self.message_user(request, _("%(count)d arenas cancelled.") % {"count": cancelled})


@admin.register(ArenaPlayer)
class ArenaPlayerAdmin(admin.ModelAdmin):
    list_display = ("user", "arena", "state", "points", "games", "rank")
    list_filter = ("state",)
    search_fields = ("user__username", "arena__name")
    readonly_fields = (
        "arena",
        "user",
        "state",
        "points",
        "games",
        "streak",
        "rating",
        "no_shows",
        "rank",
    )
    exclude = ("waiting_since", "apart")
    actions = ["remove_keeping_points", "remove_voiding_points"]

    def has_add_permission(self, request) -> bool:
        return False

    def _remove(self, request, queryset, void: bool) -> None:
        for player in queryset:
            moderating.remove_player(request.user, player, str(REASON), void=void)
        self.message_user(request, _("%(count)d players removed.") % {"count": len(queryset)})

    @admin.action(description=_("Remove from the arena, keeping their points"))
    def remove_keeping_points(self, request, queryset) -> None:
        self._remove(request, queryset, void=False)

    @admin.action(description=_("Remove from the arena, voiding their points"))
    def remove_voiding_points(self, request, queryset) -> None:
        self._remove(request, queryset, void=True)


@admin.register(ArenaSchedule)
class ArenaScheduleAdmin(admin.ModelAdmin):
    list_display = ("name", "every", "next_start", "minutes", "seats", "active")
    list_filter = ("every", "active")
