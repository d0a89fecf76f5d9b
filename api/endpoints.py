"""The API's endpoints, under /api/, described by the OpenAPI document django-ninja writes from
their type hints (``/api/openapi.json``, shown at ``/api/docs``).

Each endpoint names the scopes it accepts (``auth=Token(...)``); a token holding none of them is
refused with 403 and the scopes named. Every refusal is JSON: ``{"error": {"code", "message"}}``
with the service's own code and words (``ServiceError``), and what else the refusal names (the
scopes accepted, the limit hit and the seconds to wait).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import datetime
from typing import Any, Literal

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.utils.translation import gettext as _
from ninja import Field, NinjaAPI, Query, Schema
from ninja.errors import AuthenticationError, HttpError
from ninja.errors import ValidationError as NinjaValidationError
from pydantic import ConfigDict

from api import bot_accounts, limits, present
from api.auth import BodyTooLarge, Caller, MissingScope, Token, token_or_anonymous
from api.events import event_lines
from api.lines import CONTENT_TYPE, line
from api.play import SeatStream, seat_lines
from api.scopes import BOT_PLAY, CHALLENGE_READ, CHALLENGE_WRITE, READ_GAMES, READ_PROFILE
from games.models import Game, Seat, Table
from games.services import challenges, chat, history, moves, tables
from games.services.errors import ServiceError

User = get_user_model()

# Games a second a person's export streams: without a token, with one, one's own (as lichess).
EXPORT_RATES = {"anonymous": 20.0, "token": 30.0, "own": 60.0}
EXPORT_MAX = 10_000
EXPORT_BATCH = 50

# What each refusal's code answers in HTTP.
_STATUS = {
    "not_found": 404,
    "forbidden": 403,
    "guest": 403,
    "not_seated": 403,
    "bot_account": 403,
    "stale": 409,
    "playing": 409,
    "too_many_challenges": 429,
    "too_many_games": 429,
    "too_many_tokens": 429,
    "too_many_bot_games": 429,
}


api = NinjaAPI(
    title="Taki Online API",
    version="1",
    description=(
        "Export games, follow your events, and play your seats with a program. "
        "Authenticate with `Authorization: Bearer <token>` (a personal access token from your "
        "account page); each endpoint lists the scopes it accepts."
    ),
    urls_namespace="api",
    docs_url=None,  # our own page (api/views.py): the site's CSP allows no inline script
    openapi_url="/openapi.json",
)


def error(code: str, message: str, status: int, **extra: Any) -> JsonResponse:
    return JsonResponse({"error": {"code": code, "message": str(message), **extra}}, status=status)


@api.exception_handler(ServiceError)
def _service_error(request: HttpRequest, exc: ServiceError) -> HttpResponse:
    return error(exc.code, exc.message, _STATUS.get(exc.code, 400))


@api.exception_handler(MissingScope)
def _missing_scope(request: HttpRequest, exc: MissingScope) -> HttpResponse:
    message = _("This token may not do that: it needs one of the scopes %(scopes)s.") % {
        "scopes": ", ".join(exc.accepted)
    }
    return error("missing_scope", message, 403, scopes=list(exc.accepted))


@api.exception_handler(AuthenticationError)
def _unauthenticated(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
    message = _("Send a working personal access token: Authorization: Bearer <token>.")
    response = error("unauthorized", message, 401)
    response["WWW-Authenticate"] = "Bearer"
    return response


@api.exception_handler(limits.RateLimited)
def _rate_limited(request: HttpRequest, exc: limits.RateLimited) -> HttpResponse:
    message = _("Too many requests: wait %(seconds)d seconds.") % {"seconds": exc.retry_after}
    response = error("rate_limited", message, 429, limit=exc.limit, retry_after=exc.retry_after)
    response["Retry-After"] = str(exc.retry_after)
    return response


@api.exception_handler(BodyTooLarge)
def _too_large(request: HttpRequest, exc: BodyTooLarge) -> HttpResponse:
    message = _("That request is too long: %(count)d bytes at most.") % {"count": exc.limit}
    return error("too_large", message, 413)


@api.exception_handler(NinjaValidationError)
def _invalid(request: HttpRequest, exc: NinjaValidationError) -> HttpResponse:
    details = [
        {"where": ".".join(str(part) for part in item.get("loc", ())), "problem": item.get("msg")}
        for item in exc.errors
    ]
    return error("bad_request", _("That request is not understood."), 400, details=details)


@api.exception_handler(HttpError)
def _http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    return error("bad_request", str(exc), exc.status_code)


class Strict(Schema):
    """A request body: a field it does not know is refused."""

    model_config = ConfigDict(extra="forbid")


class ErrorOut(Schema):
    error: dict[str, Any]


# ------------------------------------------------------------------ account and people


@api.get(
    "/account",
    auth=Token(READ_PROFILE),
    tags=["account"],
    summary="Who am I",
    response={200: dict[str, Any], 401: ErrorOut, 403: ErrorOut},
)
def account(request: HttpRequest) -> dict[str, Any]:
    """The token's account, and the scopes the token holds. Scope: `read:profile`."""
    caller: Caller = request.auth
    return {**present.profile(caller.user), "scopes": list(caller.token.scopes)}


@api.get(
    "/users/{username}",
    auth=token_or_anonymous(READ_PROFILE),
    tags=["account"],
    summary="A person's public profile",
    response={200: dict[str, Any], 403: ErrorOut, 404: ErrorOut},
)
def profile(request: HttpRequest, username: str) -> dict[str, Any]:
    """Ratings per mode and statistics. No token needed; with one, scope `read:profile`."""
    return present.profile(_person(username))


def _person(username: str):
    found = User.objects.filter(username__iexact=username, is_active=True).first()
    if found is None:
        raise ServiceError("not_found", _("There is no such player."))
    return found


# ------------------------------------------------------------------ games


@api.get(
    "/games/{game_id}",
    auth=token_or_anonymous(READ_GAMES),
    tags=["games"],
    summary="One finished game's record",
    response={200: dict[str, Any], 403: ErrorOut, 404: ErrorOut},
)
def game_record(request: HttpRequest, game_id: int) -> dict[str, Any]:
    """The game's `taki-record/1` (docs/record-format.md). No token needed for a public game;
    a private one's players see theirs with `read:games`."""
    caller: Caller = request.auth
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    if game is None or not _may_read(game.table, caller.user):
        raise ServiceError("not_found", _("There is no such game."))
    return history.export_record(game, caller.user)


def _may_read(table: Table, user) -> bool:
    if table.public:
        return True
    return user is not None and Seat.objects.sat_by(user).filter(table=table).exists()


class ExportFilters(Schema):
    since: datetime | None = Field(None, description="finished at or after (ISO 8601)")
    until: datetime | None = Field(None, description="finished before (ISO 8601)")
    max: int | None = Field(None, ge=1, le=EXPORT_MAX, description="games at most")
    rated: bool | None = None
    mode: Literal["duel", "party", "tournament"] | None = None
    against: str | None = Field(None, max_length=150, description="a player's username")


@api.get(
    "/games/user/{username}",
    auth=token_or_anonymous(READ_GAMES),
    tags=["games"],
    summary="A person's finished games (NDJSON of taki-record/1)",
    response={200: None, 400: ErrorOut, 403: ErrorOut, 404: ErrorOut, 429: ErrorOut},
)
async def export_games(
    request: HttpRequest, username: str, filters: Query[ExportFilters]
) -> HttpResponse:
    """Newest first, one record a line, at 20 games a second without a token, 30 with one and
    60 for one's own. Scope (with a token): `read:games`."""
    caller: Caller = request.auth
    person = await database_sync_to_async(_person)(username)
    against = None
    if filters.against:
        against = await database_sync_to_async(_person)(filters.against)
    if caller.token is None:
        rate = EXPORT_RATES["anonymous"]
    elif caller.user.pk == person.pk:
        rate = EXPORT_RATES["own"]
    else:
        rate = EXPORT_RATES["token"]
    ids = await database_sync_to_async(_exported_ids)(person, caller.user, filters, against)
    _refuse_more_streams(caller)
    return StreamingHttpResponse(
        _records(ids, caller, rate), content_type=CONTENT_TYPE, headers=_no_buffering()
    )


def _exported_ids(person, viewer, filters: ExportFilters, against) -> list[int]:
    seats = Seat.objects.sat_by(person).filter(
        table__game__winner__isnull=False, table__game__finished_at__isnull=False
    )
    if viewer is None:
        seats = seats.filter(table__public=True)
    elif viewer.pk != person.pk:
        theirs = Seat.objects.sat_by(viewer).values("table_id")
        seats = seats.filter(Q(table__public=True) | Q(table_id__in=theirs))
    if filters.since is not None:
        seats = seats.filter(table__game__finished_at__gte=filters.since)
    if filters.until is not None:
        seats = seats.filter(table__game__finished_at__lt=filters.until)
    if filters.rated is not None:
        seats = seats.filter(table__rated=filters.rated)
    if filters.mode == "tournament":
        seats = seats.filter(table__tournament=True)
    elif filters.mode == "duel":
        seats = seats.filter(table__tournament=False, table__seat_count=2)
    elif filters.mode == "party":
        seats = seats.filter(table__tournament=False, table__seat_count__gt=2)
    if against is not None:
        seats = seats.filter(table_id__in=Seat.objects.sat_by(against).values("table_id"))
    rows = seats.order_by("-table__game__finished_at").values_list("table__game__id", flat=True)
    return list(dict.fromkeys(rows[: filters.max or EXPORT_MAX]))


def _export_batch(ids: list[int], viewer) -> list[dict[str, Any]]:
    games = {game.pk: game for game in Game.objects.filter(pk__in=ids)}
    return [history.export_record(games[pk], viewer) for pk in ids if pk in games]


async def _records(ids: list[int], caller: Caller, rate: float) -> AsyncIterator[bytes]:
    loop = asyncio.get_running_loop()
    with limits.streams.held(caller.token and caller.token.pk, caller.address):
        start = loop.time()
        sent = 0
        for first in range(0, len(ids), EXPORT_BATCH):
            batch = await database_sync_to_async(_export_batch)(
                ids[first : first + EXPORT_BATCH], caller.user
            )
            for record in batch:
                wait = start + sent / rate - loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)
                sent += 1
                yield line(record)


def _refuse_more_streams(caller: Caller) -> None:
    """Refuse a stream, as its request comes, when its token or address holds all it may."""
    with limits.streams.held(caller.token and caller.token.pk, caller.address):
        pass


def _no_buffering() -> dict[str, str]:
    # nginx passes each line on as it comes (deploy/nginx) rather than a buffer at a time.
    return {"X-Accel-Buffering": "no", "Cache-Control": "no-store"}


@api.get(
    "/lobby",
    auth=token_or_anonymous(READ_GAMES),
    tags=["games"],
    summary="The lobby's open tables",
    response={200: list[dict[str, Any]], 403: ErrorOut},
)
def lobby(request: HttpRequest, page: int = Query(1, ge=1, le=1000)) -> list[dict[str, Any]]:
    """The open public tables, newest first. No token needed; with one, scope `read:games`."""
    rows = tables.lobby_tables(page)
    seats: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(table__in=rows):
        seats.setdefault(seat.table_id, []).append(seat)
    return [present.open_table(table, seats.get(table.pk, [])) for table in rows]


# ------------------------------------------------------------------ the event stream


@api.get(
    "/stream/event",
    auth=Token(CHALLENGE_READ, BOT_PLAY),
    tags=["events"],
    summary="Your events (NDJSON)",
    response={200: None, 401: ErrorOut, 403: ErrorOut, 429: ErrorOut},
)
async def stream_events(request: HttpRequest) -> HttpResponse:
    """On connect, the games under way (`gameStart`) and the open challenges (`challenge`);
    then `challenge`, `challengeAnswered`, `challengeDeclined`, `challengeCanceled`,
    `challengeExpired`, `gameStart`, `gameFinish`, and an empty line every few seconds. One
    stream per token: opening another closes this one. Scopes: `challenge:read` or
    `bot:play`."""
    caller: Caller = request.auth
    _refuse_more_streams(caller)

    async def lines() -> AsyncIterator[bytes]:
        with limits.streams.held(caller.token.pk, caller.address):
            async for data in event_lines(caller.token, get_channel_layer()):
                yield data

    return StreamingHttpResponse(lines(), content_type=CONTENT_TYPE, headers=_no_buffering())


# ------------------------------------------------------------------ playing a seat


def _seated_table(table_id: int, user) -> Table:
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise ServiceError("not_found", _("There is no such table."))
    if not Seat.objects.filter(table=table, user=user).exists():
        raise ServiceError("not_seated", _("You do not sit at this table."))
    return table


@api.get(
    "/bot/game/stream/{table_id}",
    auth=Token(BOT_PLAY),
    tags=["play"],
    summary="Your seat's game stream (NDJSON)",
    response={200: None, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 429: ErrorOut},
)
async def stream_game(request: HttpRequest, table_id: int) -> HttpResponse:
    """`gameFull` (the table, its seats and what your seat sees: your hand, the others' hand
    sizes, your legal actions, the version), then `gameState` after each change, `chatLine`,
    and `gameFinish`, after which the stream ends. Scope: `bot:play`."""
    caller: Caller = request.auth
    await database_sync_to_async(_seated_table)(table_id, caller.user)
    hub = request.scope.get("table_hub") if hasattr(request, "scope") else None
    if hub is None:
        raise ServiceError("not_found", _("This server does not serve live tables."))
    _refuse_more_streams(caller)
    stream = SeatStream(caller.user, table_id)

    async def lines() -> AsyncIterator[bytes]:
        with limits.streams.held(caller.token.pk, caller.address):
            async for data in seat_lines(stream, hub):
                yield data

    return StreamingHttpResponse(lines(), content_type=CONTENT_TYPE, headers=_no_buffering())


class ActionIn(Strict):
    type: Literal["play", "draw", "pass", "close_taki", "accept", "last_card"]
    card: str | None = Field(None, max_length=40, description="the card's code, to play it")
    color: Literal["red", "yellow", "green", "blue"] | None = Field(
        None, description="the colour named with a change-colour card, or a TAKI's"
    )
    last_card: bool = Field(False, description="say “last card” with this move (R20)")
    version: int = Field(description="the game's version this action answers")


class Played(Schema):
    ok: bool
    events: list[dict[str, Any]]


@api.post(
    "/bot/game/{table_id}/action",
    auth=Token(BOT_PLAY),
    tags=["play"],
    summary="Play an action at your seat",
    response={200: Played, 400: ErrorOut, 403: ErrorOut, 404: ErrorOut, 409: ErrorOut},
)
def play(request: HttpRequest, table_id: int, action: ActionIn) -> dict[str, Any]:
    """One action at the version it answers: a stale one is refused (409, `stale`), as on the
    site. Scope: `bot:play`."""
    caller: Caller = request.auth
    payload = action.model_dump(exclude_none=True)
    if not payload.get("last_card"):
        payload.pop("last_card", None)
    events = moves.submit_action(table_id, caller.user, payload)
    return {"ok": True, "events": [event.to_json() for event in events]}


class ChatIn(Strict):
    room: Literal["players", "spectators"] = "players"
    text: str = Field(max_length=500)


@api.post(
    "/bot/game/{table_id}/chat",
    auth=Token(BOT_PLAY),
    tags=["play"],
    summary="Write in the table's chat",
    response={200: dict[str, Any], 400: ErrorOut, 403: ErrorOut, 404: ErrorOut},
)
def write_chat(request: HttpRequest, table_id: int, message: ChatIn) -> dict[str, Any]:
    """Scope: `bot:play`."""
    caller: Caller = request.auth
    posted = chat.post_message(table_id, caller.user, message.room, message.text)
    return {"ok": True, "id": posted.pk}


@api.post(
    "/bot/game/{table_id}/leave",
    auth=Token(BOT_PLAY),
    tags=["play"],
    summary="Leave the table (a bot takes your seat)",
    response={200: dict[str, Any], 403: ErrorOut, 404: ErrorOut},
)
def leave(request: HttpRequest, table_id: int) -> dict[str, Any]:
    """Scope: `bot:play`."""
    caller: Caller = request.auth
    _seated_table(table_id, caller.user)
    tables.leave_table(table_id, caller.user)
    return {"ok": True}


@api.post(
    "/bot/account/upgrade",
    auth=Token(BOT_PLAY),
    tags=["play"],
    summary="Turn this account into a BOT account (for good)",
    response={200: dict[str, Any], 403: ErrorOut},
)
def upgrade(request: HttpRequest) -> dict[str, Any]:
    """Only an account that has played no game; it then plays through the API only, and
    cannot go back. Scope: `bot:play`."""
    caller: Caller = request.auth
    bot_accounts.upgrade(caller.user)
    return {"ok": True, **present.person(caller.user, True)}


# ------------------------------------------------------------------ challenges


class ChallengeIn(Strict):
    seats: int = Field(2, ge=2, le=10)
    rated: bool = False
    tournament: bool = False
    turn_seconds: int | None = Field(None, ge=5, le=600)
    bot_kind: str = Field("", max_length=16, description="bots for the seats nobody takes")
    name: str = Field("", max_length=60)


@api.post(
    "/challenge/{username}",
    auth=Token(CHALLENGE_WRITE),
    tags=["challenges"],
    summary="Challenge a person or a BOT",
    response={200: dict[str, Any], 400: ErrorOut, 403: ErrorOut, 404: ErrorOut, 429: ErrorOut},
)
def challenge(request: HttpRequest, username: str, options: ChallengeIn) -> dict[str, Any]:
    """Scope: `challenge:write`."""
    caller: Caller = request.auth
    other = _person(username)
    bot_accounts.check_bot_games_today(caller.user, other)
    made = challenges.create_challenge(
        caller.user,
        [other],
        seat_count=options.seats,
        name=options.name,
        tournament=options.tournament,
        turn_seconds=options.turn_seconds,
        rated=options.rated,
        bot_kind=options.bot_kind,
    )
    return present.challenge(made)


def _answer(answer, challenge_id: int, user) -> dict[str, Any]:
    item = answer(challenge_id, user)
    item.refresh_from_db()
    return present.challenge(item)


@api.post(
    "/challenge/{challenge_id}/accept",
    auth=Token(CHALLENGE_WRITE, BOT_PLAY),
    tags=["challenges"],
    summary="Accept a challenge",
    response={200: dict[str, Any], 403: ErrorOut, 404: ErrorOut, 409: ErrorOut},
)
def accept(request: HttpRequest, challenge_id: int) -> dict[str, Any]:
    """When everyone asked has accepted, the game starts (a `gameStart` event). Scopes:
    `challenge:write` or `bot:play`."""
    caller: Caller = request.auth
    return _answer(challenges.accept_challenge, challenge_id, caller.user)


@api.post(
    "/challenge/{challenge_id}/decline",
    auth=Token(CHALLENGE_WRITE, BOT_PLAY),
    tags=["challenges"],
    summary="Decline a challenge",
    response={200: dict[str, Any], 403: ErrorOut, 404: ErrorOut},
)
def decline(request: HttpRequest, challenge_id: int) -> dict[str, Any]:
    """Scopes: `challenge:write` or `bot:play`."""
    caller: Caller = request.auth
    return _answer(challenges.decline_challenge, challenge_id, caller.user)


@api.post(
    "/challenge/{challenge_id}/cancel",
    auth=Token(CHALLENGE_WRITE),
    tags=["challenges"],
    summary="Cancel a challenge of yours",
    response={200: dict[str, Any], 403: ErrorOut, 404: ErrorOut},
)
def cancel(request: HttpRequest, challenge_id: int) -> dict[str, Any]:
    """Scope: `challenge:write`."""
    caller: Caller = request.auth
    return _answer(challenges.cancel_challenge, challenge_id, caller.user)
