"""A table as everyone sees it, as typed views.

A table is read from the database once per change into a :class:`TableView`, what everyone at
it sees, and the sockets of that table share it; a seated player's hand
(``games.presenters.hand``) is the only part built per viewer. Nothing here decides a rule.
"""

from __future__ import annotations

import copy
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from django.utils import timezone

from games.engine import GameState, spectator_view
from games.models import MIN_SEATS, Game, Table, seat_name
from games.presenters.ratings import SeatRating, changes_shown, seat_ratings
from games.services import presence, statements
from games.services.changes import SeatState, TableChange, seat_states

RECENT_MOVES = 12  # moves shown in the table's "what happened"


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat as everyone sees it: never its cards, only how many."""

    position: int
    username: str
    bot: str
    is_empty: bool
    user_id: int | None
    hand_size: int | None
    stage: int | None
    announced: bool
    connected: bool
    is_turn: bool
    to_act: bool
    timeouts: int
    # R23: the deadline of a person who must act now, and the whole seconds left to it.
    deadline: datetime | None
    seconds_left: int | None
    # A seat a bot took over during the game: the person's name (as the game's record names
    # them), why (a ``Seat.Takeover``) and after how many moves.
    replaced: str = ""
    replaced_because: str = ""
    replaced_at: int | None = None
    # A person's rating at a rated table, and the change the game made once it is over.
    rating: SeatRating | None = None
    person_id: int | None = None  # who sits here, or sat before a bot took over
    bot_account: bool = False  # who sits here is a BOT account (``accounts.bots``)

    @property
    def is_bot(self) -> bool:
        return bool(self.bot)

    @property
    def name(self) -> str:
        """The person's name, or the bot's in the language it is drawn in ("Greedy bot 2",
        "Bot (for ana)" in a seat a bot took over): :func:`~games.models.seat_name`."""
        return seat_name(self.position, self.username, self.bot, self.replaced)

    def name_at(self, seq: int) -> str:
        """Who played the move ``seq`` from this seat: the person until a bot took over."""
        if self.replaced and self.replaced_at is not None and seq < self.replaced_at:
            return self.replaced
        return self.name


class SeatNames(Sequence[str]):
    """The seats' names, looked up when a template draws them: a table read once is drawn in
    each viewer's language, and a bot's name is translated."""

    def __init__(self, seats: Sequence[SeatView]) -> None:
        self._seats = seats

    def __getitem__(self, index):  # type: ignore[override]
        return self._seats[index].name

    def __len__(self) -> int:
        return len(self._seats)


@dataclass(frozen=True, slots=True)
class BoardView:
    """The public table of a game: piles, colour, direction, stacks, run and follow-up. Seats
    are kept by number and named when drawn (``names``)."""

    names: Sequence[str] = field(compare=False)  # the table's seats, compared there
    leading: str
    discard_top: str
    active_color: str
    clockwise: bool
    draw_pile: int
    plus2_stack: int
    plus3_by_seat: int | None
    plus3_waiting_seats: tuple[int, ...]
    run: dict[str, Any] | None
    follow_up: str | None
    current_seat: int | None

    def _name(self, seat: int | None) -> str:
        return self.names[seat] if seat is not None and 0 <= seat < len(self.names) else ""

    @property
    def current(self) -> str:
        return self._name(self.current_seat)

    @property
    def plus3_by(self) -> str:
        return self._name(self.plus3_by_seat)

    @property
    def plus3_waiting(self) -> list[str]:
        return [self._name(seat) for seat in self.plus3_waiting_seats]

    @property
    def taki_run(self) -> dict[str, Any] | None:
        run = self.run
        if run is None:
            return None
        return {"color": run["color"], "player": self._name(run["player"]), "open": run["open"]}


@dataclass(frozen=True)
class TableView:
    """A table at one moment as everyone sees it, read once and shared by all its sockets.

    ``engine`` holds every hand: it is kept only to build a seated player's own
    :class:`HandView` and is never rendered. ``rendered`` memoises the public fragments, which
    are the same for every viewer who speaks the same language.
    """

    table: Table
    status: str
    game_id: int | None
    version: int | None
    seats: tuple[SeatView, ...]
    board: BoardView | None
    recent_moves: tuple[dict[str, Any], ...]
    result: dict[str, Any] | None
    deadline: datetime | None
    seconds_left: int | None
    can_start: bool
    # The game's last move digest: which state this is, for a view built from the one before.
    digest: str | None = field(default=None, repr=False)
    engine: GameState | None = field(default=None, repr=False, compare=False)
    # A finished table's "Play again" table, and an open rematch's invitations.
    rematch: dict[str, Any] | None = None
    invitations: tuple[dict[str, Any], ...] = ()
    # The public fragments and their context, per language (see ``table_fragments``).
    rendered: dict[tuple[str, ...], Any] = field(default_factory=dict, repr=False, compare=False)
    # The last moves in words, shared along the views built one after the other (``_move_text``).
    move_texts: dict[tuple[Any, ...], str] = field(default_factory=dict, repr=False, compare=False)

    @property
    def running(self) -> bool:
        return self.status == Table.Status.PLAYING and self.engine is not None

    @property
    def names(self) -> Sequence[str]:
        return SeatNames(self.seats)

    def seat_of(self, user_id: int | None) -> SeatView | None:
        """The seat of the user ``user_id``, or None (a spectator, or not logged in)."""
        if user_id is None:
            return None
        return next((seat for seat in self.seats if seat.user_id == user_id), None)


def read_table(table_id: int) -> TableView:
    """The :class:`TableView` of a table as it stands in the database now, for everyone at once:
    the table, its game, its seats and its last moves, read in three statements written once
    (``statements.read_table``). A page reads it, and a process's sockets whenever it did not store
    the change itself (on every move with several processes).

    :raises Table.DoesNotExist: no such table.
    """
    rows = statements.read_table(table_id, RECENT_MOVES)
    if rows is None:
        raise Table.DoesNotExist(f"no table {table_id}")
    table, game, seats, recent, bot_accounts = rows
    states = seat_states(seats)
    online = presence.connected_users(table.pk, [seat.user_id for seat in states if seat.user_id])
    engine = game.engine() if game is not None else None
    shown = seat_ratings(table, game, [seat.user_id or seat.replaced_user_id for seat in states])
    return _assemble(table, game, engine, states, tuple(recent), online, shown, bot_accounts)


def view_after_move(change: TableChange, previous: TableView | None) -> TableView | None:
    """The table after a move, drawn from what the move changed (``change``) and ``previous``,
    the view of the move before (its last moves, who is online, the table itself), so that the
    sockets here need not read it back; ``previous`` itself when it was read after the move was
    stored. None when ``previous`` is neither (this process missed a change): the table must
    then be read.

    Who is online is as ``previous`` says: a socket's opening or closing draws the table's view
    again (``as_of_now``), so the view held for a table knows who is online there now.
    """
    if previous is None or previous.game_id != change.game_id:
        return None
    held = (previous.version, previous.digest)
    if held == (change.version, change.digest):
        return previous  # read after the move was stored: already this state
    if held != (change.version - 1, change.previous_digest):
        return None
    recent = (*previous.recent_moves, dict(change.move))[-RECENT_MOVES:]
    shown = {seat.person_id: seat.rating for seat in previous.seats if seat.rating}
    # The last move of a rated game rated its players: the move path holds their changes.
    shown.update(changes_shown(change.rating_changes))
    online = {seat.user_id for seat in previous.seats if seat.connected and seat.user_id}
    # A move seats nobody, and a BOT account stays one: the BOT accounts are the view's before.
    bot_accounts = {seat.user_id for seat in previous.seats if seat.bot_account}
    table = copy.copy(previous.table)
    table.status = change.status  # the only part of the table a move changes (R21: its end)
    game = _GameAfterMove(
        pk=change.game_id,
        version=change.version,
        last_digest=change.digest,
        players=change.players,
        turn_deadline=change.turn_deadline,
        winner=change.winner,
    )
    view = _assemble(
        table,
        game,
        change.game_state(),
        change.seats,
        recent,
        online,
        shown,
        bot_accounts,
        extras=False,
    )
    return replace(view, move_texts=previous.move_texts)


@dataclass(frozen=True, slots=True)
class _GameAfterMove:
    """What a table's view reads of its game, as a move's change carries it."""

    pk: int
    version: int
    last_digest: str
    players: Sequence[str]
    turn_deadline: datetime | None
    winner: int | None

    @property
    def finished(self) -> bool:
        return self.winner is not None


def as_of_now(view: TableView, online: Collection[int] | None = None) -> TableView:
    """``view`` drawn again now: the seconds left to its deadline counted again and, given
    ``online`` (the users with a socket open at the table), who is connected. Nothing else of
    the table has changed, so nothing is read (a socket opened or closed; a refused click)."""
    seconds_left = _seconds_left(view.deadline)
    seats = tuple(
        replace(
            seat,
            connected=seat.connected if online is None else seat.is_bot or seat.user_id in online,
            seconds_left=seconds_left if seat.deadline is not None else None,
        )
        for seat in view.seats
    )
    return replace(view, seats=seats, seconds_left=seconds_left, rendered={})


def _seconds_left(deadline: datetime | None) -> int | None:
    if deadline is None:
        return None
    return max(0, int((deadline - timezone.now()).total_seconds()))


def _assemble(
    table: Table,
    game: Game | _GameAfterMove | None,
    engine: GameState | None,
    seats: Sequence[SeatState],
    recent: tuple[dict[str, Any], ...],
    online: Collection[int],
    shown: Mapping[int | None, SeatRating] | None = None,
    bot_accounts: Collection[int] = frozenset(),
    *,
    extras: bool = True,
) -> TableView:
    """The view of a table from what the services hold of it: ``seats`` in order, ``recent`` its
    last moves (oldest first), ``online`` the users with a socket open at it, ``bot_accounts``
    those of its people who are BOT accounts. ``extras`` reads a
    finished table's rematch and an open one's invitations (a view built right after a move,
    without a query, has none yet)."""
    running = game is not None and table.status == Table.Status.PLAYING and not game.finished
    to_act = set(engine.seats_to_act()) if engine is not None and running else set()
    deadline = game.turn_deadline if running else None
    seconds_left = _seconds_left(deadline)
    seat_views = []
    for seat in seats:
        position, user_id, because = seat.position, seat.user_id, seat.replaced_because
        in_game = engine is not None and position < engine.players
        replaced = ""
        if because and game is not None and position < len(game.players):
            replaced = game.players[position]
        acts = position in to_act
        person_to_act = acts and user_id is not None
        seat_views.append(
            SeatView(
                position=position,
                username=seat.username or "",
                bot=seat.bot,
                is_empty=user_id is None and not seat.bot,
                user_id=user_id,
                hand_size=len(engine.hands[position]) if in_game else None,
                stage=engine.stages[position] if in_game and engine.stages else None,
                announced=bool(engine.announced[position]) if in_game else False,
                connected=bool(seat.bot) or user_id in online,
                is_turn=running and engine.current == position,
                to_act=acts,
                timeouts=seat.timeouts,
                deadline=deadline if person_to_act else None,
                seconds_left=seconds_left if person_to_act else None,
                replaced=replaced,
                replaced_because=because if replaced else "",
                replaced_at=seat.replaced_at if replaced else None,
                rating=(shown or {}).get(user_id or seat.replaced_user_id),
                person_id=user_id or seat.replaced_user_id,
                bot_account=user_id in bot_accounts,
            )
        )
    seat_views = tuple(seat_views)
    result = None
    if game is not None and game.winner is not None:
        winner = game.winner
        name = seat_views[winner].name if winner < len(seat_views) else game.players[winner]
        result = {"winner": winner, "winner_name": name}
    filled = sum(1 for seat in seat_views if not seat.is_empty)
    board = None
    if engine is not None:
        board = board_view(spectator_view(engine), SeatNames(seat_views))
    return TableView(
        table=table,
        status=table.status,
        game_id=game.pk if game is not None else None,
        version=game.version if game is not None else None,
        seats=seat_views,
        board=board,
        recent_moves=recent,
        result=result,
        deadline=deadline,
        seconds_left=seconds_left,
        can_start=table.status == Table.Status.OPEN and filled >= MIN_SEATS,
        digest=game.last_digest if game is not None else None,
        engine=engine if running else None,
        rematch=_rematch_of(table) if extras and table.status == Table.Status.FINISHED else None,
        invitations=_invitations(table) if extras and table.status == Table.Status.OPEN else (),
    )


def _rematch_of(table: Table) -> dict[str, Any] | None:
    """The rematch opened from this finished table, and each invited person's answer."""
    new = Table.objects.filter(rematch_of=table).select_related("host").first()
    if new is None:
        return None
    answers = dict(new.invitations.values_list("user_id", "answer"))
    return {
        "table_id": new.pk,
        "invite": new.invite_token,
        "host_id": new.host_id,
        "host_name": new.host.get_username(),
        "open": new.status == Table.Status.OPEN,
        "answers": answers,
    }


def _invitations(table: Table) -> tuple[dict[str, Any], ...]:
    if table.rematch_of_id is None:
        return ()
    rows = table.invitations.select_related("user").order_by("user__username")
    return tuple(
        {"name": row.user.get_username(), "answer": row.answer, "label": row.get_answer_display()}
        for row in rows
    )


def board_view(view: dict[str, Any], names: Sequence[str]) -> BoardView:
    """The public table of the engine's spectator ``view``, its seats named by ``names``."""
    plus3 = view.get("plus3_pending")
    run = view.get("taki_run")
    return BoardView(
        names=names,
        leading=view["leading"],
        discard_top=view["discard_top"],
        active_color=view["active_color"],
        clockwise=view["direction"] == 1,
        draw_pile=view["draw_pile"],
        plus2_stack=view["plus2_stack"],
        plus3_by_seat=plus3["by"] if plus3 else None,
        plus3_waiting_seats=tuple(plus3["waiting"]) if plus3 else (),
        run=run,
        follow_up=view.get("follow_up"),
        current_seat=view.get("current_player"),
    )
