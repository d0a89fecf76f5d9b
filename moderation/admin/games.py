"""The games, the append-only move log and its verifications: to read, with the actions that
verify a game and void its rating. A long game's moves are never inlined: they are a paginated
list of their own, filtered by game."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, JsonResponse
from django.shortcuts import get_object_or_404
from django.urls import path, reverse
from django.utils import formats, timezone
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.models import Game, GameVerification, Move
from games.services import history
from games.services.errors import ServiceError
from moderation import actions as moderation
from moderation.admin.forms import ReasonActionForm
from moderation.admin.shared import ReadOnlyAdmin, action_reason

# Rows of the move log per page: a 3,000-move game is 30 pages, each one quick.
MOVES_PER_PAGE = 100


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
