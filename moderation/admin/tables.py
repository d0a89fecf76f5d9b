"""The tables' screen and their seats: read-only, with the abort action."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.models import Seat, Table
from moderation import actions as moderation
from moderation.admin.forms import ReasonActionForm
from moderation.admin.shared import action_reason


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


class SeatInline(ReadOnlyInline):
    """Seats change through the services (join, leave, a bot taking over), not by hand."""

    model = Seat
    fields = ("position", "user", "bot", "timeouts", "replaced_user")
    readonly_fields = fields


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    """Tables are read for moderation; they change through the services (a running table's
    seats and settings belong to its game) and the abort action only."""

    list_display = (
        "name",
        "host",
        "status",
        "seats",
        "tournament",
        "public",
        "rated",
        "page",
        "created_at",
    )
    list_filter = ("status", "tournament", "public", "rated", "created_at")
    list_select_related = ("host",)
    search_fields = ("name", "host__username")
    fields = (
        "name",
        "host",
        "seat_count",
        "tournament",
        "turn_seconds",
        "public",
        "rated",
        "status",
        "created_at",
        "page",
    )
    readonly_fields = fields
    inlines = (SeatInline,)
    actions = ("abort_games",)
    action_form = ReasonActionForm

    def get_queryset(self, request: HttpRequest) -> QuerySet[Table]:
        taken = Q(seats__user__isnull=False) | ~Q(seats__bot="")
        return super().get_queryset(request).annotate(seats_taken=Count("seats", filter=taken))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # tables are opened by players

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        # A table's page is read-only (its seats and settings belong to its game); the change
        # permission serves the abort action alone.
        return obj is None and super().has_change_permission(request)

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False  # aborted, never deleted: the move log stays

    @admin.display(description=_("seats"), ordering="seats_taken")
    def seats(self, table: Table) -> str:
        return f"{table.seats_taken}/{table.seat_count}"

    @admin.display(description=_("page"))
    def page(self, table: Table) -> str:
        url = reverse("games:table", args=[table.pk])
        return format_html('<a href="{}">{}</a>', url, _("Watch"))

    @admin.action(description=_("Abort the selected games"), permissions=["change"])
    def abort_games(self, request: HttpRequest, queryset: QuerySet[Table]) -> None:
        reason = action_reason(self, request)
        if reason is None:
            return
        aborted = sum(moderation.abort(request.user, table, reason) for table in queryset)
        self.message_user(
            request,
            ngettext("%(count)d table aborted.", "%(count)d tables aborted.", aborted)
            % {"count": aborted},
            messages.SUCCESS,
        )
