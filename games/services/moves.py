"""The one move path: submit, advance, lock, store, schedule.

A move is applied in one transaction that locks the game row, checks the action with the engine,
appends the move to the append-only, hash-chained log and saves the new snapshot; the broadcast
is sent only after the transaction commits (:mod:`games.services.broadcast`). A bot thinks
before that transaction, holding no lock (:mod:`games.services.thinking`), and its choice is
played only at the version it was made for.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Generator
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engine import Action, Event, GameState, IllegalAction
from games.models import Game, Move, RatingChange, Seat, Table
from games.services import broadcast, online, statements, thinking, turns
from games.services.changes import TableChange
from games.services.errors import ENGINE_MESSAGES, ServiceError
from games.services.finish import Ending, finish
from games.services.thinking import BotTurn
from lib import logs, metrics
from lib.sqlite.retry import retried_while_locked

logger = logging.getLogger(__name__)

# A bot waits this long before it moves, so that people can follow what happens.
BOT_DELAY = timedelta(seconds=0.8)
# R23: a seat that times out this many turns in a row is given to a bot (as Board Game Arena).
MAX_TIMEOUTS = 3
REPLACEMENT_BOT = "greedy"
MAX_STEPS = 64  # moves one call of advance plays at most


@metrics.counts_moves
@logs.about_move
def submit_action(table_id: int, user: AbstractBaseUser, payload: Any) -> list[Event]:
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
    return retried_while_locked(lambda: _apply_locked(table_id, user, payload, version))


def is_stale(version: int, newest: int | None) -> bool:
    """Whether a click made at the game's ``version`` comes too late: the game is known to have
    reached ``newest`` (None: nothing is known of it yet). Versions only grow, so the position
    the click was made against is gone: a doubled click, a second tab, a slow network."""
    return newest is not None and version < newest


def stale_refusal() -> ServiceError:
    """The refusal of a stale click, in the active language: the table it comes with is the
    one that stands now."""
    return ServiceError(
        "stale", _("That move was made against an old position — the table has been refreshed.")
    )


def _refuse_unless_current(version: int, current: int) -> None:
    """A click is played at the game's ``current`` version only: an older one is stale, and one
    the game has not reached was never on a page (a forged frame) and is refused the same way.

    :raises ServiceError: ``stale``.
    """
    if is_stale(version, current) or version > current:
        raise stale_refusal()


def _apply_locked(
    table_id: int, user: AbstractBaseUser, payload: dict[str, Any], version: int
) -> list[Event]:
    """Apply the action under the game's lock, in one transaction (``submit_action``)."""
    with transaction.atomic():
        # The lock serialises two actions on one game: a player clicking in two tabs, or two
        # players answering a +3 at once. Without it both could read version v, both pass the
        # check, and the second would overwrite the first's snapshot and fork the move log.
        game, seats = _lock_game(table_id)
        seat = next((seat for seat in seats if seat.user_id == user.pk), None)
        if seat is None:
            raise ServiceError("not_seated", _("You do not sit at this table."))
        if not seat.user.is_active:
            # Banned since this socket opened: the user in its scope is as it was then.
            raise ServiceError("forbidden", _("This account has been banned."))
        _refuse_unless_current(version, game.version)
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
            statements.update(seat, ["timeouts"])
        # An answer to a +3 that others must still answer leaves their shared deadline as it is.
        keep = pending_before and engine.plus3 is not None
        now = timezone.now()
        _store_move(game, engine, action, events, Move.Source.PLAYER, now, seats, keep=keep)
    return events


@logs.about_move
def advance(
    game_id: int,
    now: datetime | None = None,
    *,
    think: Callable[[BotTurn], dict[str, Any]] = thinking.choose,
) -> datetime | None:
    """Play what the server owes the game by ``now``, and return when it is next due.

    Owed are a bot's move (``BOT_DELAY`` after the last move, so people can follow), and the R23
    default for a person whose deadline has passed: accept a pending +3; in their own TAKI run,
    close it, or pass where R14 forbids closing; otherwise draw. Three timeouts in a row give the
    seat to a bot. Each move goes through the same locked path as :func:`submit_action`; a bot
    thinks (``think``: in this thread unless the caller gives another way) with no lock held,
    and a choice the game has moved on from is dropped and thought again. Loops until nothing is
    due by ``now``; a game that is not running is left alone.
    """
    steps = advancing(game_id, now or timezone.now())
    try:
        turn = next(steps)
        while True:
            turn = steps.send(think(turn))
    except StopIteration as done:
        return done.value


type Advancing = Generator[BotTurn, dict[str, Any], datetime | None]


def advancing(game_id: int, now: datetime) -> Advancing:
    """:func:`advance`, a step at a time, for a caller that thinks elsewhere (the clock, in its
    worker processes): yields each bot's turn to think about and is sent the bot's choice, and
    returns when the game is next due. Each step is one locked transaction, run in the thread
    that resumes it."""
    next_due = None
    for _step in range(MAX_STEPS):  # a bound, against any bug that would keep a move due forever
        step = advance_step(game_id, now)
        if isinstance(step, BotTurn):
            choice = yield step
            play_bot_move(step, choice, now)
            continue
        done, next_due = step
        if done:
            break
    return next_due


def advance_step(game_id: int, now: datetime) -> BotTurn | tuple[bool, datetime | None]:
    """One step of :func:`advance`, in one locked transaction: the bot's turn to think about
    when a bot is to play, else play one timeout's move. Returns the bot's turn, or (nothing
    more due by ``now``, next_due)."""
    return retried_while_locked(lambda: _advance_once(game_id, now))


def _advance_once(game_id: int, now: datetime) -> BotTurn | tuple[bool, datetime | None]:
    with transaction.atomic():
        # The same lock as submit_action's: the clock and a player may act on a game at once.
        game = statements.lock_game(game_id=game_id)
        logs.note_game(game.table_id if game else None, game_id)
        if game is None or game.table.status != Table.Status.PLAYING or game.finished:
            return True, None
        if game.next_due is None or game.next_due > now:
            return True, game.next_due
        seats = statements.seats(game.table_id)
        if _remind_due(game, seats, now):
            return game.next_due is None or game.next_due > now, game.next_due
        engine = game.engine()
        to_act = [seats[position] for position in engine.seats_to_act()]
        bot_seat = next((seat for seat in to_act if seat.bot), None)
        if bot_seat is not None:
            history = None
            if thinking.learns_from_the_table(bot_seat.bot):
                history = game.record().dumps()
            return BotTurn(
                game.pk, game.version, bot_seat.position, bot_seat.bot, game.state, history
            )
        if not _play_timeout(game, engine, seats, to_act, now):
            # Nothing to play although due (the deadline's seat became a bot): reschedule.
            schedule(game, engine, now, seats=seats)
            statements.update(game, SCHEDULED)
            if game.next_due is not None and game.next_due <= now:
                return True, game.next_due
        return False, game.next_due


def play_bot_move(turn: BotTurn, choice: dict[str, Any], now: datetime | None = None) -> bool:
    """Play a bot's ``choice`` (an action's JSON) for ``turn`` through the locked move path.

    The choice is dropped, and False returned, when the game is no longer where the bot thought
    about it: another move was played since (a person answering a +3 out of turn, another clock),
    the seat is no longer that bot's or not to play, the game is over, or the rules refuse it.
    """
    now = now or timezone.now()
    return retried_while_locked(lambda: _play_bot_locked(turn, choice, now))


def _play_bot_locked(turn: BotTurn, choice: dict[str, Any], now: datetime) -> bool:
    with transaction.atomic():
        game = statements.lock_game(game_id=turn.game_id)
        if game is None or game.table.status != Table.Status.PLAYING or game.finished:
            return False
        if game.version != turn.version:
            return False  # thought about a position that is gone: the next step thinks again
        engine = game.engine()
        seats = statements.seats(game.table_id)
        seat = seats[turn.position]
        if seat.bot != turn.kind or turn.position not in engine.seats_to_act():
            return False
        pending_before = engine.plus3 is not None
        try:
            action = Action.from_json(choice, engine.players)
            if action.player != turn.position:
                return False
            events = engine.apply(action)
        except IllegalAction:
            logger.warning("game %s refused a %s bot's choice %r", game.pk, turn.kind, choice)
            return False
        keep = pending_before and engine.plus3 is not None
        _store_move(game, engine, action, events, Move.Source.BOT, now, seats, keep=keep)
    return True


def _lock_game(table_id: int) -> tuple[Game, list[Seat]]:
    """The table's game, locked, and its seats (in one statement where the database can)."""
    locked = statements.lock_game_and_seats(table_id)
    if locked is None:
        if Table.objects.filter(pk=table_id).exists():
            raise ServiceError("not_started", _("The game has not started yet.")) from None
        raise ServiceError("not_found", _("There is no such table.")) from None
    game, seats = locked
    logs.note_game(table_id, game.pk)
    if game.finished or game.table.status != Table.Status.PLAYING:
        raise ServiceError("game_over", str(ENGINE_MESSAGES["game_over"]))
    return game, seats


def replace_by_bot(seat: Seat, because: str, at_move: int) -> None:
    """A bot takes a person's seat during a game, ``because`` (a ``Seat.Takeover``: they left,
    timed out three times in a row, or were banned) after ``at_move`` moves. The game goes on;
    the bot's win would be the bot's, and the game counts as left for the person
    (``games.services.stats``)."""
    seat.replaced_user_id = seat.user_id
    seat.replaced_because = because
    seat.replaced_at = at_move
    seat.user = None
    seat.bot = REPLACEMENT_BOT
    seat.timeouts = 0
    taken = ["replaced_user", "replaced_because", "replaced_at", "user", "bot", "timeouts"]
    seat.save(update_fields=taken)
    online.playing_changed([seat.replaced_user_id])  # their friends see them playing no more


def _store_move(
    game: Game,
    engine: GameState,
    action: Action,
    events: list[Event],
    source: str,
    now: datetime,
    seats: list[Seat],
    *,
    keep: bool = False,
) -> None:
    """Append the move to the log (chained to the one before) and save the new snapshot.

    ``seats`` are the table's seats in order, their users' names loaded; ``keep`` keeps a
    running deadline (see :func:`schedule`). What the move changed goes with the broadcast
    (``games.services.changes``), for the sockets to draw without reading the table back.
    """
    stored = action.to_json()
    previous_digest = game.last_digest
    digest = Move.chain(previous_digest, stored)
    move = {
        "seq": game.version,
        "seat": action.player,
        "source": source,
        "events": [event.to_json() for event in events],
    }
    game.state = engine.to_snapshot()
    game.version += 1
    game.last_digest = digest
    fields = ["state", "version", "last_digest", "next_due", "turn_deadline"]
    table = game.table
    rating_changes: tuple[RatingChange, ...] = ()
    if engine.finished:
        # The move won the game (R21): it ends here, its fields written with the move.
        ended = finish(
            table, Ending.WON, now=now, game=game, winner=engine.winner, on_move=True, seats=seats
        )
        fields += [field for field in ended.fields if field not in fields]
        rating_changes = ended.rating_changes
    else:
        schedule(game, engine, now, seats=seats, keep_deadline=keep)
        if table.turn_days:
            fields += ["turn_reminder", "to_act"]
    statements.save_move(game, fields, action=stored, digest=digest, created_at=now, **move)
    change = TableChange.after_move(
        table, game, engine, seats, {**move, "action": stored}, previous_digest, rating_changes
    )
    broadcast.table_changed(table.pk, game.version, change)


def schedule(
    game: Game,
    engine: GameState,
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
    humans = [seat.user_id for seat in to_act if seat.user_id is not None]
    turn_seconds = game.table.turn_seconds
    turn_days = game.table.turn_days
    if turn_days:
        _schedule_turn_based(game, turn_days, to_act, humans, now, keep_deadline)
    elif humans and turn_seconds:
        if not (keep_deadline and game.turn_deadline is not None):
            game.turn_deadline = now + timedelta(seconds=turn_seconds)
    else:
        game.turn_deadline = None
    dues = [game.turn_deadline] if game.turn_deadline is not None else []
    if turn_days and game.turn_reminder is not None:
        dues.append(game.turn_reminder)
    if bots_due:
        dues.append(now + BOT_DELAY)
    game.next_due = min(dues) if dues else None


# What schedule sets, for the callers that save it.
SCHEDULED = ["next_due", "turn_deadline", "turn_reminder", "to_act"]


def _schedule_turn_based(
    game: Game,
    days: int,
    to_act: list[Seat],
    humans: list[int],
    now: datetime,
    keep_deadline: bool,
) -> None:
    """A turn-based game's deadline in days (stopped by the vacations of the people to act), its
    reminder a day before, the seats to act; the people whose move it became are told."""
    before = list(game.to_act or ())
    game.to_act = [seat.position for seat in to_act]
    if not humans:
        game.turn_deadline = game.turn_reminder = None
    elif not (keep_deadline and game.turn_deadline is not None):
        game.turn_deadline = turns.deadline(days, humans, now)
        game.turn_reminder = turns.reminder_for(game.turn_deadline, now)
    acting = {seat.position: seat for seat in to_act}
    turns.told_their_move(game.table, game, before, game.to_act, acting)


def _remind_due(game: Game, seats: list[Seat], now: datetime) -> bool:
    """Tell a turn-based game's people to act that less than a day is left, when that is due
    and their deadline is not; whether it was."""
    reminder = game.turn_reminder
    if reminder is None or reminder > now:
        return False
    if game.turn_deadline is not None and game.turn_deadline <= now:
        return False  # the deadline itself is due: the timeout is played instead
    turns.remind(game.table, game, seats)
    game.turn_reminder = None
    dues = [game.turn_deadline] if game.turn_deadline is not None else []
    if game.next_due is not None and game.next_due > reminder:
        dues.append(game.next_due)  # a bot's move, due later than the reminder
    game.next_due = min(dues) if dues else None
    statements.update(game, ["turn_reminder", "next_due"])
    return True


def _play_timeout(
    game: Game, engine: GameState, seats: list[Seat], to_act: list[Seat], now: datetime
) -> bool:
    """Play the R23 default of a person whose deadline has passed; False if none is owed."""
    pending_before = engine.plus3 is not None
    timed_out = game.turn_deadline is not None and game.turn_deadline <= now
    seat = next((seat for seat in to_act if seat.user_id is not None), None)
    if not timed_out or seat is None:
        return False
    action = engine.default_action(seat.position)
    seat.timeouts += 1
    if seat.timeouts >= MAX_TIMEOUTS:
        # The bot plays from the next move on: this one is still the timeout's.
        replace_by_bot(seat, Seat.Takeover.TIMEOUTS, at_move=game.version + 1)
    else:
        statements.update(seat, ["timeouts"])
    events = engine.apply(action)
    keep = pending_before and engine.plus3 is not None
    _store_move(game, engine, action, events, Move.Source.TIMEOUT, now, seats, keep=keep)
    return True
