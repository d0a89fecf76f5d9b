"""Moderation screens: tables and their seats, games, and the append-only move log.

Games and moves are read-only here: a game changes only through ``games.services``. Banning a
player is done on the user (``is_active`` off), in the accounts admin.
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest, JsonResponse
from django.shortcuts import get_object_or_404
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.models import Game, Move, Seat, Table
from games.services import history, tables
from games.services.errors import ServiceError


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


class ReadOnlyAdmin(admin.ModelAdmin):
    """Games and moves are written by games.services only: the admin reads them."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


class SeatInline(ReadOnlyInline):
    """Seats change through the services (join, leave, a bot taking over), not by hand."""

    model = Seat
    fields = ("position", "user", "bot", "timeouts", "replaced_user")
    readonly_fields = fields


class MoveInline(ReadOnlyInline):
    model = Move
    fields = ("seq", "seat", "source", "action", "digest", "created_at")
    readonly_fields = fields
    ordering = ("seq",)


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("name", "host", "status", "seats", "tournament", "public", "created_at")
    list_filter = ("status", "tournament", "public", "created_at")
    list_select_related = ("host",)
    search_fields = ("name", "host__username")
    raw_id_fields = ("host",)
    readonly_fields = ("invite_token", "status", "created_at")
    inlines = (SeatInline,)
    actions = ("abort_games",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Table]:
        taken = Q(seats__user__isnull=False) | ~Q(seats__bot="")
        return super().get_queryset(request).annotate(seats_taken=Count("seats", filter=taken))

    @admin.display(description=_("seats"), ordering="seats_taken")
    def seats(self, table: Table) -> str:
        return f"{table.seats_taken}/{table.seat_count}"

    @admin.action(description=_("Abort the selected games"), permissions=["change"])
    def abort_games(self, request: HttpRequest, queryset: QuerySet[Table]) -> None:
        aborted = sum(tables.abort_table(table.pk) for table in queryset)
        self.message_user(
            request,
            ngettext("%(count)d table aborted.", "%(count)d tables aborted.", aborted)
            % {"count": aborted},
            messages.SUCCESS,
        )


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ("table", "winner_name", "version", "started_at", "finished_at", "record")
    list_filter = ("tournament", "started_at", "finished_at")
    list_select_related = ("table",)
    search_fields = ("table__name", "table__host__username")
    # The deck and the snapshot hold every hand: not shown, and never edited.
    fields = (
        "table",
        "players",
        "first_player",
        "tournament",
        "version",
        "winner",
        "started_at",
        "finished_at",
        "next_due",
        "turn_deadline",
        "log_verified",
        "record",
    )
    readonly_fields = fields
    inlines = (MoveInline,)
    actions = ("verify_games",)

    def get_urls(self):
        record = self.admin_site.admin_view(self.record_view)
        return [path("<int:game_id>/record.json", record, name="games_game_record")] + (
            super().get_urls()
        )

    def record_view(self, request: HttpRequest, game_id: int) -> JsonResponse:
        """The finished game's record (refused while it runs: it holds the deck)."""
        if not self.has_view_permission(request):
            return JsonResponse({"error": "forbidden"}, status=403)
        game = get_object_or_404(Game, pk=game_id)
        try:
            record = history.export_record(game, request.user)
        except ServiceError as exc:
            return JsonResponse({"error": exc.code, "message": exc.message}, status=403)
        return JsonResponse(record, json_dumps_params={"indent": 2})

    @admin.display(description=_("winner"))
    def winner_name(self, game: Game) -> str:
        return game.players[game.winner] if game.winner is not None else "—"

    @admin.display(description=_("record"))
    def record(self, game: Game) -> str:
        if not game.finished:
            return "—"
        url = reverse("admin:games_game_record", args=[game.pk])
        return format_html('<a href="{}">{}</a>', url, _("record.json"))

    @admin.display(description=_("move log verified"), boolean=True)
    def log_verified(self, game: Game) -> bool:
        return history.verify_game(game)

    @admin.action(description=_("Verify the move log of the selected games"))
    def verify_games(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        broken = [game for game in queryset if not history.verify_game(game)]
        if broken:
            names = ", ".join(str(game.pk) for game in broken)
            self.message_user(
                request,
                _("The move log does not match the state of games: %(ids)s.") % {"ids": names},
                messages.ERROR,
            )
        else:
            self.message_user(request, _("Every selected game verifies."), messages.SUCCESS)


@admin.register(Move)
class MoveAdmin(ReadOnlyAdmin):
    """The append-only log: to read, never to change."""

    list_display = ("game", "seq", "seat", "source", "created_at")
    list_filter = ("source", "created_at")
    list_select_related = ("game__table",)
    search_fields = ("game__table__name",)
    readonly_fields = ("game", "seq", "seat", "source", "action", "events", "digest", "created_at")
