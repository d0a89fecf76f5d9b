"""The one place a move is applied: guard, validate with the engine, store, broadcast.

Views and consumers call these sync functions (consumers through
``channels.db.database_sync_to_async``). Every refusal raises :class:`ServiceError`, whose
``code`` is an engine error code of GAME_RECORD.md or one of ``stale``, ``not_seated``,
``not_started``, ``forbidden``, ``table_full``, ``bad_request``, ``not_found``, and whose message
is translated and fit to show the user.

A move is applied in one transaction that locks the game row, checks the action with the engine,
appends the move to the append-only, hash-chained log and saves the new snapshot; the broadcast
(``table-<id>`` and ``lobby`` groups) is sent only after the transaction commits, and carries no
cards: each consumer re-renders its own user's view from the database.
"""

from __future__ import annotations

import logging
import random
import secrets
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth.models import AbstractBaseUser
from django.core.cache import cache
from django.db import OperationalError, connection, transaction
from django.db.models import Count, F, Q, QuerySet
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engine import (
    Action,
    Event,
    IllegalAction,
    Record,
    make_bot,
    replay,
    seat_view,
    shuffled_deck,
    spectator_view,
)
from games.engine import Game as EngineGame
from games.engine.bots import BOTS
from games.models import MAX_SEATS, MIN_SEATS, Game, Move, Seat, Table

logger = logging.getLogger(__name__)

# A bot waits this long before it moves, so that people can follow what happens.
BOT_DELAY = timedelta(seconds=0.8)
# R23: a seat that times out this many turns in a row is given to a bot (as Board Game Arena).
MAX_TIMEOUTS = 3
REPLACEMENT_BOT = "greedy"
RECENT_MOVES = 12
LOBBY_GROUP = "lobby"
SQLITE_ATTEMPTS = 10

User = AbstractBaseUser

# Our words for the engine's error codes (GAME_RECORD.md); the engine's own messages are English.
ENGINE_MESSAGES = {
    "bad_action": gettext_lazy("That is not a valid action."),
    "game_over": gettext_lazy("The game is over."),
    "not_your_turn": gettext_lazy("It is not your turn."),
    "card_not_in_hand": gettext_lazy("You do not hold that card."),
    "must_answer": gettext_lazy("You must answer the pending attack first."),
    "illegal_card": gettext_lazy("That card cannot be played now."),
    "color_required": gettext_lazy("Name a colour: red, yellow, green or blue."),
    "cannot_close": gettext_lazy("There is no TAKI run of yours to close."),
    "cannot_pass": gettext_lazy("You cannot pass now."),
    "cannot_draw": gettext_lazy("You are in a TAKI run: close it or pass instead of drawing."),
    "cannot_announce": gettext_lazy("You can only say “last card” with one card in hand."),
}


RECENT_GAMES = 20  # games listed on a profile


class ServiceError(ValueError):
    """A refused request. ``code`` says why (see the module docstring); ``message`` is for the
    user, already translated."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = str(message)

    def __repr__(self) -> str:
        return f"ServiceError({self.code!r}, {self.message!r})"


def group_name(table_id: int) -> str:
    """The channel-layer group of one table's sockets."""
    return f"table-{table_id}"


# ---------------------------------------------------------------------------- tables and seats


def create_table(
    host: User,
    *,
    name: str,
    seat_count: int,
    tournament: bool = False,
    turn_seconds: int | None = 30,
    public: bool = True,
    bot_seats: int = 0,
    bot_kind: str = "greedy",
) -> Table:
    """Open a table. The host takes seat 0; the last ``bot_seats`` seats go to bots.

    :raises ServiceError: ``bad_request`` for a blank name, a seat count outside 2–10 (R3), more
        bots than free seats, an unknown bot or a turn time that is not positive.
    """
    name = (name or "").strip()
    if not name:
        raise ServiceError("bad_request", _("Give the table a name."))
    if not MIN_SEATS <= seat_count <= MAX_SEATS:
        raise ServiceError("bad_request", _("A table has 2 to 10 seats."))
    if not 0 <= bot_seats < seat_count:
        raise ServiceError("bad_request", _("Leave at least one seat for the host."))
    if bot_kind not in BOTS:
        raise ServiceError("bad_request", _("There is no such bot."))
    if turn_seconds is not None and turn_seconds <= 0:
        raise ServiceError("bad_request", _("The turn time must be positive, or none."))
    with transaction.atomic():
        table = Table.objects.create(
            name=name[:60],
            host=host,
            seat_count=seat_count,
            tournament=tournament,
            turn_seconds=turn_seconds,
            public=public,
        )
        first_bot = seat_count - bot_seats
        Seat.objects.bulk_create(
            Seat(
                table=table,
                position=position,
                user=host if position == 0 else None,
                bot=bot_kind if position >= first_bot else "",
            )
            for position in range(seat_count)
        )
        _broadcast_lobby()
    return table


def join_table(table_id: int, user: User, *, invite: str | None = None) -> Seat:
    """Sit ``user`` on the first empty seat of an open table.

    A private table is joined by its link only: ``invite`` must be its token.

    :raises ServiceError: ``not_found``; ``forbidden`` (the game has started, the user already
        sits here, a private table without its token); ``table_full``.
    """
    with transaction.atomic():
        table = _lock_table(table_id)
        if table.status != Table.Status.OPEN:
            raise ServiceError("forbidden", _("This table is no longer taking players."))
        if table.seats.filter(user=user).exists():
            raise ServiceError("forbidden", _("You already sit at this table."))
        if not table.public and not invite_matches(table, invite):
            raise ServiceError("forbidden", _("This table is private: join it by its link."))
        seat = table.seats.filter(user__isnull=True, bot="").order_by("position").first()
        if seat is None:
            raise ServiceError("table_full", _("This table is full."))
        seat.user = user
        seat.save(update_fields=["user"])
        _broadcast_table(table.pk)
        _broadcast_lobby()
    return seat


def leave_table(table_id: int, user: User) -> None:
    """``user`` leaves the table.

    Before the game the seat is freed; if the host leaves, the next seated person becomes host,
    and with nobody left the table is closed (aborted). During a game a bot takes the seat at
    once (as Board Game Arena does) and the game goes on; if no person is left at all, the game
    is aborted. After the game, leaving changes nothing.

    :raises ServiceError: ``not_found``, ``not_seated``.
    """
    with transaction.atomic():
        table = _lock_table(table_id)
        seat = table.seats.filter(user=user).first()
        if seat is None:
            raise ServiceError("not_seated", _("You do not sit at this table."))
        if table.status == Table.Status.OPEN:
            seat.user = None
            seat.save(update_fields=["user"])
            if table.host_id == user.pk:
                _pass_host_on(table)
        elif table.status == Table.Status.PLAYING:
            game = Game.objects.select_for_update().get(table=table)
            _replace_by_bot(seat)
            if not table.seats.filter(user__isnull=False).exists():
                _abort(table)
            else:
                _schedule(game, game.engine(), timezone.now(), keep_deadline=True)
                game.save(update_fields=["next_due", "turn_deadline"])
        else:
            return
        _broadcast_table(table.pk)
        _broadcast_lobby()


def remove_seat(table_id: int, host: User, position: int) -> None:
    """The host empties a seat (a person or a bot) before the game starts.

    :raises ServiceError: ``not_found``; ``forbidden`` (not the host, the game has started, the
        host's own seat).
    """
    with transaction.atomic():
        table = _lock_table(table_id)
        _check_host_before_start(table, host)
        seat = _seat_at(table, position)
        if seat.user_id == host.pk:
            raise ServiceError("forbidden", _("Leave the table instead of removing yourself."))
        seat.user = None
        seat.bot = ""
        seat.save(update_fields=["user", "bot"])
        _broadcast_table(table.pk)
        _broadcast_lobby()


def add_bot(table_id: int, host: User, position: int, kind: str = "greedy") -> Seat:
    """The host puts a bot on an empty seat before the game starts.

    :raises ServiceError: ``not_found``; ``forbidden`` (not the host, started); ``table_full``
        (the seat is taken); ``bad_request`` (no such bot).
    """
    if kind not in BOTS:
        raise ServiceError("bad_request", _("There is no such bot."))
    with transaction.atomic():
        table = _lock_table(table_id)
        _check_host_before_start(table, host)
        seat = _seat_at(table, position)
        if not seat.is_empty:
            raise ServiceError("table_full", _("This seat is taken."))
        seat.bot = kind
        seat.save(update_fields=["bot"])
        _broadcast_table(table.pk)
        _broadcast_lobby()
    return seat


def set_connected(table_id: int, user: User, connected: bool) -> None:
    """Count one socket of ``user`` at the table opening or closing (for "connected" marks).

    Kept in the cache (per process with the default cache), not in the database: it is not part
    of the game. Broadcasts the table so the others see the change.
    """
    if not getattr(user, "is_authenticated", False):
        return
    key = _presence_key(table_id, user.pk)
    count = max(0, cache.get(key, 0) + (1 if connected else -1))
    cache.set(key, count, timeout=None)
    _broadcast_table(table_id)


def is_connected(table_id: int, user_id: int | None) -> bool:
    return user_id is not None and cache.get(_presence_key(table_id, user_id), 0) > 0


def abort_table(table_id: int) -> bool:
    """Stop a table for good (moderation): status aborted, nothing more due. False if it was
    already finished or aborted.

    :raises ServiceError: ``not_found``.
    """
    with transaction.atomic():
        table = _lock_table(table_id)
        if table.status in (Table.Status.FINISHED, Table.Status.ABORTED):
            return False
        Game.objects.select_for_update().filter(table=table).first()  # wait for a move in flight
        _abort(table)
        _broadcast_table(table.pk)
        _broadcast_lobby()
    return True


# ---------------------------------------------------------------------------- games


def start_game(table_id: int, user: User) -> Game:
    """The host starts the game: a fresh shuffled deck, a random seed and first player (R4, R5).

    Empty seats are dropped and the others renumbered in order, so the game has as many players
    as filled seats (bots count) and the table's seat count becomes that number.

    :raises ServiceError: ``not_found``; ``forbidden`` (not the host, already started, fewer
        than two filled seats).
    """
    with transaction.atomic():
        table = _lock_table(table_id)
        _check_host_before_start(table, user)
        game = _start(table, timezone.now())
    return game


def play_against_bots(
    user: User, opponents: int = 3, *, tournament: bool = False, bot_kind: str = "greedy"
) -> Table:
    """One click: a private table "<username> vs bots" with ``user`` and ``opponents`` bots, no
    turn time, started at once.

    :raises ServiceError: ``bad_request`` for 0 or more than 9 opponents or an unknown bot.
    """
    if not 1 <= opponents <= MAX_SEATS - 1:
        raise ServiceError("bad_request", _("Play against 1 to 9 bots."))
    with transaction.atomic():
        table = create_table(
            user,
            name=_("%(username)s vs bots") % {"username": user.get_username()},
            seat_count=opponents + 1,
            tournament=tournament,
            turn_seconds=None,
            public=False,
            bot_seats=opponents,
            bot_kind=bot_kind,
        )
        table = _lock_table(table.pk)
        _start(table, timezone.now())
    return table


def submit_action(table_id: int, user: User, payload: Any) -> list[Event]:
    """Apply one action of ``user`` at the table and return the engine's events.

    ``payload`` comes from the browser: ``{"type", "card"?, "color"?, "last_card"?, "version"}``.
    The seat is the user's own (a ``player`` in the payload is ignored), and ``version`` must be
    the game's current version, so that a doubled or stale click is never applied twice.

    :raises ServiceError: ``bad_request`` (not an object, no integer version), ``not_found``,
        ``not_started``, ``not_seated``, ``stale``, ``game_over`` or any engine error code.
    """
    if not isinstance(payload, dict):
        raise ServiceError("bad_request", _("That request is not understood."))
    version = payload.get("version")
    if type(version) is not int:
        raise ServiceError("bad_request", _("That request is not understood."))
    return _serialised(lambda: _submit(table_id, user, payload, version))


def _submit(table_id: int, user: User, payload: dict[str, Any], version: int) -> list[Event]:
    with transaction.atomic():
        # The lock serialises two actions on one game: a player clicking in two tabs, or two
        # players answering a +3 at once. Without it both could read version v, both pass the
        # check, and the second would overwrite the first's snapshot and fork the move log.
        game = _lock_game(table_id)
        seat = game.table.seats.filter(user=user).select_related("user").first()
        if seat is None:
            raise ServiceError("not_seated", _("You do not sit at this table."))
        if not seat.user.is_active:
            # Banned since this socket opened: the user in its scope is as it was then.
            raise ServiceError("forbidden", _("This account has been banned."))
        if game.version != version:
            raise ServiceError(
                "stale", _("The game has moved on since then; here is where it stands now.")
            )
        engine = game.engine()
        pending_before = engine.plus3 is not None
        raw = {key: value for key, value in payload.items() if key != "version"}
        raw["player"] = seat.position  # never a seat from the browser
        try:
            action = Action.from_json(raw, engine.players)
            events = engine.apply(action)
        except IllegalAction as exc:
            raise ServiceError(exc.code, str(ENGINE_MESSAGES.get(exc.code, exc.message))) from None
        if seat.timeouts:
            seat.timeouts = 0  # R23: counts timeouts in a row only
            seat.save(update_fields=["timeouts"])
        # An answer to a +3 that others must still answer leaves their shared deadline as it is.
        keep = pending_before and engine.plus3 is not None
        _store_move(
            game, engine, action, events, Move.Source.PLAYER, timezone.now(), keep_deadline=keep
        )
    return events


def advance(game_id: int, now: datetime | None = None) -> datetime | None:
    """Play what the server owes the game by ``now``, and return when it is next due.

    Owed are a bot's move (``BOT_DELAY`` after the last move, so people can follow), and the R23
    default for a person whose deadline has passed: accept a pending +3; in their own TAKI run,
    close it, or pass where R14 forbids closing; otherwise draw. Three timeouts in a row give the
    seat to a bot. Each move goes through the same locked path as :func:`submit_action`.
    Loops until nothing is due by ``now``; a game that is not running is left alone.
    """
    now = now or timezone.now()
    for _step in range(64):  # a bound, against any bug that would keep a move due forever
        done, next_due = _serialised(lambda: _advance_once(game_id, now))
        if done:
            break
    return next_due


def _advance_once(game_id: int, now: datetime) -> tuple[bool, datetime | None]:
    """Play one owed move, in one locked transaction. Returns (nothing more due now, next_due)."""
    with transaction.atomic():
        # The same lock as submit_action's: the clock and a player may act on a game at once.
        game = Game.objects.select_for_update().select_related("table").filter(pk=game_id).first()
        if game is None or game.table.status != Table.Status.PLAYING or game.finished:
            return True, None
        if game.next_due is None or game.next_due > now:
            return True, game.next_due
        if not _play_owed_move(game, now):
            # Nothing to play although due (the deadline's seat became a bot): reschedule.
            _schedule(game, game.engine(), now)
            game.save(update_fields=["next_due", "turn_deadline"])
            if game.next_due is not None and game.next_due <= now:
                return True, game.next_due
        return False, game.next_due


def table_context(table: Table, user: User | None) -> dict[str, Any]:
    """Everything a template needs to draw ``table`` for ``user``, as plain data.

    A seated player of a running game gets the engine's seat view (their own hand and legal
    actions); anyone else the spectator view. Never another seat's cards while the game runs.

    Keys: ``table``, ``status``, ``game_id``, ``version``, ``my_seat`` (position or None),
    ``is_host``, ``seats`` (list of dicts: position, name, is_bot, is_empty, is_you, user_id,
    hand_size, stage, announced, connected, is_turn, to_act, timeouts, deadline, seconds_left),
    ``view`` (engine view or None), ``hand`` (own card codes or None), ``legal`` (grouped legal
    actions or None), ``playable`` (codes of own cards that may be played), ``deadline``
    (ISO time or None), ``seconds_left``, ``events`` (recent moves: seq, seat, source, events),
    ``result`` (winner seat and name, or None), ``can_start``.
    """
    seats = list(table.seats.select_related("user").order_by("position"))
    game = Game.objects.filter(table=table).first()
    user_id = user.pk if user is not None and user.is_authenticated else None
    mine = next((s for s in seats if user_id is not None and s.user_id == user_id), None)
    running = game is not None and table.status == Table.Status.PLAYING and not game.finished
    engine = game.engine() if game is not None else None
    view = None
    if engine is not None:
        if mine is not None and running:
            view = seat_view(engine, mine.position)
        else:
            view = spectator_view(engine)
    to_act = set(engine.seats_to_act()) if engine is not None and running else set()
    deadline = game.turn_deadline if running else None
    now = timezone.now()
    seconds_left = max(0, int((deadline - now).total_seconds())) if deadline else None
    seat_rows = []
    for seat in seats:
        position = seat.position
        in_game = engine is not None and position < engine.players
        acts = position in to_act
        human_to_act = acts and seat.user_id is not None
        seat_rows.append(
            {
                "position": position,
                "name": seat.display_name,
                "is_bot": bool(seat.bot),
                "is_empty": seat.is_empty,
                "is_you": mine is not None and seat.pk == mine.pk,
                "user_id": seat.user_id,
                "hand_size": len(engine.hands[position]) if in_game else None,
                "stage": engine.stages[position] if in_game and engine.stages else None,
                "announced": bool(engine.announced[position]) if in_game else False,
                "connected": bool(seat.bot) or is_connected(table.pk, seat.user_id),
                "is_turn": running and engine.current == position,
                "to_act": acts,
                "timeouts": seat.timeouts,
                "deadline": deadline.isoformat() if human_to_act and deadline else None,
                "seconds_left": seconds_left if human_to_act else None,
            }
        )
    hand = view.get("hand") if view is not None else None
    legal = _group_legal(view["legal_actions"]) if view is not None and "hand" in view else None
    filled = sum(1 for s in seats if not s.is_empty)
    return {
        "table": table,
        "status": table.status,
        "game_id": game.pk if game is not None else None,
        "version": game.version if game is not None else None,
        "my_seat": mine.position if mine is not None else None,
        "is_host": user_id is not None and table.host_id == user_id,
        "seats": seat_rows,
        "view": view,
        "hand": hand,
        "legal": legal,
        "playable": sorted({p["card"] for p in legal["play"]}) if legal else [],
        "deadline": deadline.isoformat() if deadline else None,
        "seconds_left": seconds_left,
        "events": _recent_events(game) if game is not None else [],
        "result": _result(game) if game is not None else None,
        "can_start": table.status == Table.Status.OPEN and filled >= MIN_SEATS,
    }


def invite_matches(table: Table, token: str | None) -> bool:
    """True if ``token`` is the table's invite link token (compared in constant time; as bytes,
    since a hostile token need not be ASCII)."""
    return bool(token) and secrets.compare_digest(token.encode(), table.invite_token.encode())


def may_watch(table: Table, user: User | None, invite: str | None = None) -> bool:
    """Who may see a table (the page and its socket alike): everyone a public one; a private
    one its host, the people seated at it, and whoever holds its invite link."""
    if table.public or invite_matches(table, invite):
        return True
    return bool(
        user is not None
        and user.is_authenticated
        and (table.host_id == user.pk or table.seats.filter(user=user).exists())
    )


def lobby_tables() -> list[Table]:
    """The open public tables, newest first, each with ``seats_taken`` (people and bots)."""
    return list(_open_public_tables())


def export_record(game: Game, user: User | None = None) -> dict[str, Any]:
    """The finished game's taki-record/1 record (GAME_RECORD.md), with extra keys: ``game_id``,
    ``started_at``, ``finished_at``, ``result`` (winner seat and name) and ``digests``.

    :raises ServiceError: ``forbidden`` while the game runs or if it was aborted (the record
        holds the deck and so every hand).
    """
    if not game.finished:
        raise ServiceError("forbidden", _("The record is published when the game is over."))
    moves = list(game.moves.order_by("seq").values_list("action", "digest"))
    record = Record(
        seed=game.seed,
        players=list(game.players),
        deck=list(game.deck),
        first_player=game.first_player,
        tournament=game.tournament,
        actions=[action for action, _digest in moves],
        extra={
            "game_id": game.pk,
            "started_at": game.started_at.isoformat(),
            "finished_at": game.finished_at.isoformat() if game.finished_at else None,
            "result": {"winner": game.winner, "winner_name": game.players[game.winner]},
            "digests": [digest for _action, digest in moves],
        },
    )
    return record.to_json()


def player_stats(user: User) -> dict[str, Any]:
    """Games played (finished, including those left early), won, win rate and the recent ones.

    ``recent`` is a list of dicts, newest first: ``game`` (the Game), ``table_name``,
    ``players``, ``won``, ``finished_at``.
    """
    seats = Seat.objects.filter(
        Q(user=user) | Q(replaced_user=user), table__game__winner__isnull=False
    )
    played = seats.count()
    # A seat a bot took over is the bot's win, not the player's.
    won = seats.filter(user=user, table__game__winner=F("position")).count()
    latest = (
        seats.select_related("table__game")
        .defer("table__game__state", "table__game__deck")  # large, and not needed here
        .order_by("-table__game__finished_at")[:RECENT_GAMES]
    )
    recent = [
        {
            "game": seat.table.game,
            "table_name": seat.table.name,
            "players": list(seat.table.game.players),
            "won": seat.user_id == user.pk and seat.table.game.winner == seat.position,
            "finished_at": seat.table.game.finished_at,
        }
        for seat in latest
    ]
    return {
        "played": played,
        "won": won,
        "win_rate": won / played if played else 0.0,
        "recent": recent,
    }


def verify_game(game: Game) -> bool:
    """Replay the game's moves from its header: do they give the stored snapshot again, and does
    every move's digest chain to the one before?"""
    moves = list(game.moves.order_by("seq"))
    previous = ""
    for index, move in enumerate(moves):
        if move.seq != index or move.digest != Move.chain(previous, move.action):
            return False
        previous = move.digest
    if len(moves) != game.version:
        return False
    result = replay(game.record())
    return result.ok and result.game is not None and result.game.to_snapshot() == game.state


# ---------------------------------------------------------------------------- helpers


def _serialised[T](work: Callable[[], T]) -> T:
    """Run ``work``, one transaction that locks a game row, and run it again if SQLite refused it.

    SQLite has no row locks (``select_for_update`` does nothing there): a second transaction
    writing the same game fails with "database is locked" instead of waiting. Run again, it sees
    what the first one committed, so a doubled click is then refused as stale.
    """
    for attempt in range(SQLITE_ATTEMPTS):
        try:
            return work()
        except OperationalError as exc:
            retry = (
                connection.vendor == "sqlite"
                and not connection.in_atomic_block
                and "locked" in str(exc)
                and attempt + 1 < SQLITE_ATTEMPTS
            )
            if not retry:
                raise
        time.sleep(0.02 * (attempt + 1))
    raise AssertionError("unreachable")


def _lock_table(table_id: int) -> Table:
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except (Table.DoesNotExist, ValueError, TypeError):
        raise ServiceError("not_found", _("There is no such table.")) from None


def _lock_game(table_id: int) -> Game:
    try:
        game = Game.objects.select_for_update().select_related("table").get(table_id=table_id)
    except (Game.DoesNotExist, ValueError, TypeError):
        if Table.objects.filter(pk=table_id).exists():
            raise ServiceError("not_started", _("The game has not started yet.")) from None
        raise ServiceError("not_found", _("There is no such table.")) from None
    if game.finished or game.table.status != Table.Status.PLAYING:
        raise ServiceError("game_over", str(ENGINE_MESSAGES["game_over"]))
    return game


def _seat_at(table: Table, position: int) -> Seat:
    seat = table.seats.filter(position=position).first()
    if seat is None:
        raise ServiceError("not_found", _("There is no such seat."))
    return seat


def _check_host_before_start(table: Table, user: User) -> None:
    if table.host_id != user.pk:
        raise ServiceError("forbidden", _("Only the host can do that."))
    if table.status != Table.Status.OPEN:
        raise ServiceError("forbidden", _("The game has already started."))


def _pass_host_on(table: Table) -> None:
    """The host left an open table: the next seated person hosts it, or it closes."""
    heir = table.seats.filter(user__isnull=False).order_by("position").first()
    if heir is None:
        table.status = Table.Status.ABORTED
        table.save(update_fields=["status"])
    else:
        table.host_id = heir.user_id
        table.save(update_fields=["host"])


def _replace_by_bot(seat: Seat) -> None:
    """A bot takes a person's seat during a game (they left, or timed out too often)."""
    seat.replaced_user_id = seat.user_id
    seat.user = None
    seat.bot = REPLACEMENT_BOT
    seat.timeouts = 0
    seat.save(update_fields=["replaced_user", "user", "bot", "timeouts"])


def _abort(table: Table) -> None:
    table.status = Table.Status.ABORTED
    table.save(update_fields=["status"])
    Game.objects.filter(table=table).update(next_due=None, turn_deadline=None)


def _start(table: Table, now: datetime) -> Game:
    seats = list(table.seats.select_related("user").order_by("position"))
    filled = [seat for seat in seats if not seat.is_empty]
    if len(filled) < MIN_SEATS:
        raise ServiceError("forbidden", _("At least two seats must be filled to start."))
    # Drop the empty seats and renumber the rest in order; two passes because positions are
    # unique per table.
    Seat.objects.filter(pk__in=[s.pk for s in seats if s.is_empty]).delete()
    for index, seat in enumerate(filled):
        seat.position = MAX_SEATS + 100 + index
        seat.save(update_fields=["position"])
    for index, seat in enumerate(filled):
        seat.position = index
        seat.save(update_fields=["position"])
    rng = random.Random(random.SystemRandom().getrandbits(128))
    deck = shuffled_deck(rng)
    seed = secrets.token_hex(8)
    first = secrets.randbelow(len(filled))  # R5
    with translation.override("en"):  # the record's names do not depend on a visitor's language
        players = [seat.display_name for seat in filled]
    engine = EngineGame(deck, len(filled), first, seed, table.tournament)
    game = Game.objects.create(
        table=table,
        seed=seed,
        players=players,
        deck=deck,
        first_player=first,
        tournament=table.tournament,
        state=engine.to_snapshot(),
        version=0,
    )
    table.status = Table.Status.PLAYING
    table.seat_count = len(filled)
    table.save(update_fields=["status", "seat_count"])
    _schedule(game, engine, now, seats=filled)
    game.save(update_fields=["next_due", "turn_deadline"])
    _broadcast_table(table.pk)
    _broadcast_lobby()
    return game


def _store_move(
    game: Game,
    engine: EngineGame,
    action: Action,
    events: list[Event],
    source: str,
    now: datetime,
    *,
    keep_deadline: bool = False,
) -> None:
    """Append the move to the log (chained to the one before) and save the new snapshot."""
    previous = game.moves.order_by("-seq").values_list("digest", flat=True).first() or ""
    stored = action.to_json()
    Move.objects.create(
        game=game,
        seq=game.version,
        seat=action.player,
        action=stored,
        events=[event.to_json() for event in events],
        source=source,
        digest=Move.chain(previous, stored),
    )
    game.state = engine.to_snapshot()
    game.version += 1
    fields = ["state", "version", "next_due", "turn_deadline"]
    table = game.table
    if engine.finished:
        game.winner = engine.winner
        game.finished_at = now
        game.next_due = game.turn_deadline = None
        fields += ["winner", "finished_at"]
        table.status = Table.Status.FINISHED
        table.save(update_fields=["status"])
        _broadcast_lobby()
    else:
        _schedule(game, engine, now, keep_deadline=keep_deadline)
    game.save(update_fields=fields)
    _broadcast_table(table.pk, game.version)


def _schedule(
    game: Game,
    engine: EngineGame,
    now: datetime,
    *,
    seats: list[Seat] | None = None,
    keep_deadline: bool = False,
) -> None:
    """Set when the server next owes the game something: a bot's move ``BOT_DELAY`` from now, or
    the R23 deadline of the people to act (during a +3 all waiting people share one deadline).

    ``keep_deadline`` keeps a running deadline (an answer to a +3 does not restart the clock of
    the others still to answer).
    """
    if engine.finished:
        game.next_due = game.turn_deadline = None
        return
    if seats is None:
        seats = list(game.table.seats.order_by("position"))
    to_act = [seats[position] for position in engine.seats_to_act()]
    bots_due = any(seat.bot for seat in to_act)
    humans = any(seat.user_id is not None for seat in to_act)
    turn_seconds = game.table.turn_seconds
    if humans and turn_seconds:
        if not (keep_deadline and game.turn_deadline is not None):
            game.turn_deadline = now + timedelta(seconds=turn_seconds)
    else:
        game.turn_deadline = None
    dues = [game.turn_deadline] if game.turn_deadline is not None else []
    if bots_due:
        dues.append(now + BOT_DELAY)
    game.next_due = min(dues) if dues else None


def _play_owed_move(game: Game, now: datetime) -> bool:
    """Play one move the server owes (a bot's, or a timeout's); False if none is owed."""
    engine = game.engine()
    seats = list(game.table.seats.order_by("position"))
    to_act = [seats[position] for position in engine.seats_to_act()]
    pending_before = engine.plus3 is not None
    bot_seat = next((seat for seat in to_act if seat.bot), None)
    timed_out = game.turn_deadline is not None and game.turn_deadline <= now
    late_seat = next((seat for seat in to_act if seat.user_id is not None), None)
    if bot_seat is not None:
        seat, source = bot_seat, Move.Source.BOT
        action = make_bot(seat.bot, random.Random()).choose(engine, seat.position)
    elif timed_out and late_seat is not None:
        seat, source = late_seat, Move.Source.TIMEOUT
        action = _default_action(engine, seat.position)
        seat.timeouts += 1
        if seat.timeouts >= MAX_TIMEOUTS:
            _replace_by_bot(seat)
        else:
            seat.save(update_fields=["timeouts"])
    else:
        return False
    events = engine.apply(action)
    keep = pending_before and engine.plus3 is not None
    _store_move(game, engine, action, events, source, now, keep_deadline=keep)
    return True


def _default_action(engine: EngineGame, seat: int) -> Action:
    """R23: accept a pending +3; in one's own TAKI run close it, or pass where R14 forbids
    closing; otherwise draw (which also takes a +2 stack and ends a Plus or King follow-up)."""
    kinds = {action.type for action in engine.legal_actions(seat)}
    for kind in ("accept", "close_taki", "pass"):
        if kind in kinds:
            return Action(kind, seat)
    return Action("draw", seat)


def _group_legal(actions: list[dict[str, Any]]) -> dict[str, Any]:
    """The legal actions, grouped for the controls: plays (with the colours a Change Color may
    name) and one flag per other action."""
    plays: dict[str, dict[str, Any]] = {}
    kinds = set()
    for action in actions:
        kinds.add(action["type"])
        if action["type"] == "play":
            entry = plays.setdefault(action["card"], {"card": action["card"], "colors": []})
            if "color" in action:
                entry["colors"].append(action["color"])
    return {
        "play": list(plays.values()),
        "draw": "draw" in kinds,
        "close_taki": "close_taki" in kinds,
        "pass": "pass" in kinds,
        "accept": "accept" in kinds,
        "last_card": "last_card" in kinds,
    }


def _recent_events(game: Game) -> list[dict[str, Any]]:
    moves = game.moves.order_by("-seq").values("seq", "seat", "source", "events")[:RECENT_MOVES]
    return list(reversed(list(moves)))


def _result(game: Game) -> dict[str, Any] | None:
    if game.winner is None:
        return None
    return {"winner": game.winner, "winner_name": game.players[game.winner]}


def _open_public_tables() -> QuerySet[Table]:
    return (
        Table.objects.filter(status=Table.Status.OPEN, public=True)
        .select_related("host")
        .annotate(
            seats_taken=Count("seats", filter=Q(seats__user__isnull=False) | ~Q(seats__bot=""))
        )
        .order_by("-created_at")
    )


def _presence_key(table_id: int, user_id: int) -> str:
    return f"taki:presence:{table_id}:{user_id}"


def _broadcast_table(table_id: int, version: int | None = None) -> None:
    """After commit, tell the table's sockets to re-render (no cards travel: each consumer
    renders its own user's view from the database)."""
    message = {"type": "table.update", "version": version}
    transaction.on_commit(lambda: _group_send(group_name(table_id), message), robust=True)


def _broadcast_lobby() -> None:
    transaction.on_commit(lambda: _group_send(LOBBY_GROUP, {"type": "lobby.update"}), robust=True)


def _group_send(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group, message)
