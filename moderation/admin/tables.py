"""Moderation screens: tables and their seats, games, the append-only move log, the chat, and
who waits in quick match's pools.

Tables, games and moves are read-only here: they change only through the actions, which call
``moderation.actions`` (each writes one row of the moderation log). Nothing done here can
rewrite a game's history. A long game's moves are never inlined: they are a paginated list of
their own, filtered by game, and verifying a game is an action whose outcome is recorded.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest, JsonResponse
from django.shortcuts import get_object_or_404
from django.urls import path, reverse
from django.utils import formats, timezone
from django.utils.html import format_html
from django.utils.timesince import timesince
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.models import (
    BlockedWord,
    ChatMessage,
    Game,
    GameVerification,
    Move,
    PoolEntry,
    Seat,
    Table,
)
from games.services import history, quickmatch
from games.services.errors import ServiceError
from moderation import actions as moderation
from moderation.admin.players import ReadOnlyAdmin

# Rows of the move log per page: a 3,000-move game is 30 pages, each one quick.
MOVES_PER_PAGE = 100


class ReasonActionForm(ActionForm):
    """The action bar with a reason beside the action: every moderator action says why."""

    reason = forms.CharField(label=_("Reason"), required=False, max_length=500)


def action_reason(modeladmin: admin.ModelAdmin, request: HttpRequest) -> str | None:
    """The reason typed beside the action, or None (and a message) when there is none."""
    reason = request.POST.get("reason", "").strip()
    if not reason:
        modeladmin.message_user(request, _("Give a reason for this action."), messages.ERROR)
        return None
    return reason


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
        "rating_voided_at",
        "next_due",
        "turn_deadline",
        "move_log",
        "last_verification",
        "record",
    )
    readonly_fields = fields
    actions = ("verify_games", "void_ratings")
    action_form = ReasonActionForm

    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        return super().get_queryset(request).defer("deck", "state")  # large, and secret

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

    @admin.display(description=_("move log"))
    def move_log(self, game: Game) -> str:
        url = reverse("admin:games_move_changelist") + f"?game__id__exact={game.pk}"
        return format_html(
            '<a href="{}">{}</a>',
            url,
            ngettext("%(count)d move", "%(count)d moves", game.version) % {"count": game.version},
        )

    @admin.display(description=_("last verification"))
    def last_verification(self, game: Game) -> str:
        done = game.verifications.select_related("verified_by").first()
        if done is None:
            return _("Not verified yet: use the action “Verify the move log”.")
        outcome = _("the log holds") if done.ok else _("the log does not match the game")
        return _("%(outcome)s (%(moves)d moves, by %(who)s, %(when)s)") % {
            "outcome": outcome,
            "moves": done.moves,
            "who": done.verified_by or "—",
            "when": formats.date_format(timezone.localtime(done.verified_at), "DATETIME_FORMAT"),
        }

    @admin.action(description=_("Verify the move log of the selected games"), permissions=["view"])
    def verify_games(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        results = [moderation.verify(request.user, game) for game in queryset]
        broken = [result.game for result in results if not result.ok]
        if broken:
            names = ", ".join(str(game.pk) for game in broken)
            self.message_user(
                request,
                _("The move log does not match the state of games: %(ids)s.") % {"ids": names},
                messages.ERROR,
            )
        else:
            self.message_user(request, _("Every selected game verifies."), messages.SUCCESS)

    def has_void_permission(self, request: HttpRequest) -> bool:
        # A game is never edited; the change permission serves voiding its rating alone.
        return request.user.has_perm("games.change_game")

    @admin.action(description=_("Void the rating of the selected games"), permissions=["void"])
    def void_ratings(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        reason = action_reason(self, request)
        if reason is None:
            return
        voided = sum(moderation.void_rating(request.user, game, reason) for game in queryset)
        self.message_user(
            request,
            ngettext(
                "%(count)d game's rating voided: every rating was computed again without it.",
                "%(count)d games' ratings voided: every rating was computed again without them.",
                voided,
            )
            % {"count": voided},
            messages.SUCCESS if voided else messages.WARNING,
        )


@admin.register(Move)
class MoveAdmin(ReadOnlyAdmin):
    """The append-only log: to read, never to change. Open it from a game (filtered by game),
    a page of ``MOVES_PER_PAGE`` at a time, without counting the whole log."""

    list_display = ("seq", "game", "seat", "source", "action", "created_at")
    list_filter = ("source",)
    list_select_related = ("game__table",)
    list_per_page = MOVES_PER_PAGE
    show_full_result_count = False
    search_fields = ("game__table__name",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Move]:
        return super().get_queryset(request).defer("game__state", "game__deck", "events")

    readonly_fields = ("game", "seq", "seat", "source", "action", "events", "digest", "created_at")


@admin.register(GameVerification)
class GameVerificationAdmin(ReadOnlyAdmin):
    list_display = ("game", "ok", "moves", "verified_by", "verified_at")
    list_filter = ("ok", "verified_at")
    list_select_related = ("game__table", "verified_by")

    def get_queryset(self, request: HttpRequest) -> QuerySet[GameVerification]:
        return super().get_queryset(request).defer("game__state", "game__deck")


@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnlyAdmin):
    """The chat, to read and to hide lines from (with a reason); never edited."""

    list_display = ("created_at", "table", "room", "author", "text", "hidden")
    list_filter = ("room", ("hidden_at", admin.EmptyFieldListFilter), "created_at")
    list_select_related = ("table", "author")
    search_fields = ("text", "author__username", "table__name")
    readonly_fields = (
        "table",
        "room",
        "author",
        "text",
        "created_at",
        "hidden_at",
        "hidden_by",
        "hidden_reason",
    )
    actions = ("hide_messages",)
    action_form = ReasonActionForm

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        # The change permission serves the hide action alone: a line is never edited.
        return obj is None and request.user.has_perm("games.change_chatmessage")

    @admin.display(description=_("hidden"), boolean=True)
    def hidden(self, message: ChatMessage) -> bool:
        return message.hidden_at is not None

    @admin.action(description=_("Hide the selected messages"), permissions=["change"])
    def hide_messages(self, request: HttpRequest, queryset: QuerySet[ChatMessage]) -> None:
        reason = action_reason(self, request)
        if reason is None:
            return
        hidden = 0
        for line in queryset.select_related("author"):
            try:
                hidden += moderation.hide_message(request.user, line, reason)
            except ServiceError as error:  # a line of a moderator's own, or of staff
                self.message_user(request, f"{line}: {error.message}", messages.WARNING)
        self.message_user(
            request,
            ngettext("%(count)d message hidden.", "%(count)d messages hidden.", hidden)
            % {"count": hidden},
            messages.SUCCESS,
        )


@admin.register(BlockedWord)
class BlockedWordAdmin(admin.ModelAdmin):
    """Words no chat line may contain."""

    list_display = ("word",)
    search_fields = ("word",)


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
