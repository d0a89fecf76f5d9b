"""The games' lists and a finished game: the finished games, a player's own, those being played
that anyone may watch; a finished game's page with its replay, and its record to download."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Page, Paginator
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games.models import ChatMessage, Game
from games.presenters import finished_game_context, replay_context
from games.presenters import listings as lists
from games.services import access, chat, history
from games.services.errors import ServiceError
from games.views.tables import check_may_watch, invite_of

GAMES_PER_PAGE = 25  # the lists of finished games and of games being played


def _page(request: HttpRequest, items: QuerySet) -> Page:
    """The page of a list of games asked for (``?page=``): the first if it is not a number, the
    last if it is beyond the end."""
    return Paginator(items, GAMES_PER_PAGE).get_page(request.GET.get("page"))


@require_GET
def finished_games(request: HttpRequest) -> HttpResponse:
    page = _page(request, lists.finished_games())
    rows = [lists.ListedGame(game.table, game) for game in page]
    return render(request, "games/finished_games.html", {"page": page, "rows": rows})


def _get_finished_game_for_user(request: HttpRequest, game_id: int) -> Game:
    """A finished game this visitor may see (``access.may_watch``, the table's own rule).

    :raises Http404: no such game, or it is still being played (its record holds the deck).
    :raises PermissionDenied: a private game of other people.
    """
    game = get_object_or_404(Game.objects.select_related("table", "table__host"), pk=game_id)
    if not game.finished:
        raise Http404(_("This game is still being played."))
    check_may_watch(request, game.table)
    access.note_watch(request.user, game.table, invite_of(request), access.AS_A_FINISHED_GAME)
    return game


# The headers that choose between the replay alone and the whole page.
REPLAY_STEP_HEADERS = ("HX-Request", "HX-History-Restore-Request")


@require_GET
def finished_game(request: HttpRequest, game_id: int) -> HttpResponse:
    """A finished game and its replay. A replay step asked by htmx is the replay alone, except
    when htmx restores a step from the browser's history that it no longer holds (Back past the
    pages it keeps): that answer takes the place of the whole page, so it is the whole page."""
    game = _get_finished_game_for_user(request, game_id)
    try:
        step = int(request.GET["move"])
    except (KeyError, ValueError):
        step = None
    if request.htmx and step is not None and not request.htmx.history_restore_request:
        response = render(request, "games/partials/replay.html", replay_context(game, step))
    else:
        context = finished_game_context(game, step)
        context["chat_lines"] = chat.recent_messages(game.table_id, None, ChatMessage.Room.PLAYERS)
        response = render(request, "games/finished_game.html", context)
    patch_vary_headers(response, REPLAY_STEP_HEADERS)
    return response


@require_GET
def record_json(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _get_finished_game_for_user(request, game_id)
    user = request.user if request.user.is_authenticated else None
    try:
        record = history.export_record(game, user)
    except ServiceError as error:
        raise PermissionDenied(error.message) from None
    response = JsonResponse(record, json_dumps_params={"indent": 2})
    # A download, named so that several games' files sort by game.
    response["Content-Disposition"] = f'attachment; filename="taki-game-{game.pk}.json"'
    return response


# ------------------------------------------------------------------ lists


@login_required
@require_GET
def my_games(request: HttpRequest) -> HttpResponse:
    """The player's own finished games, private bot games included, with filters."""
    result = request.GET.get("result", "")
    result = result if result in lists.RESULTS else ""
    opponents = request.GET.get("with", "")
    opponents = opponents if opponents in lists.OPPONENTS else ""
    page = _page(request, lists.my_games(request.user, result, opponents))
    rows = lists.my_game_rows(page, request.user)
    query = "&".join(
        f"{key}={value}" for key, value in (("result", result), ("with", opponents)) if value
    )
    return render(
        request,
        "games/my_games.html",
        {
            "page": page,
            "rows": rows,
            "result": result,
            "opponents": opponents,
            "filter_query": query,
        },
    )


@require_GET
def watch(request: HttpRequest) -> HttpResponse:
    """The games being played that anyone may watch."""
    page = _page(request, lists.watchable_games())
    rows = [lists.ListedGame(table) for table in page]
    return render(request, "games/watch.html", {"page": page, "rows": rows})
