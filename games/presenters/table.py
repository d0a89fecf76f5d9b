"""The read side: what a table, the lobby and a finished game look like, as typed views.

A table is read from the database once per change into a :class:`TableView`, what everyone at
it sees, and the sockets of that table share it; a seated player's :class:`HandView` (their
cards and the controls) is the only part built per viewer. The views (first page load) and the
consumers (every push) draw both with the same partial templates, so a page and its pushed
fragments can never drift apart. Nothing here decides a rule: which cards are legal comes from
the engine.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from django.template import engines
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import trans_real

from games.engine import GameState, seat_view, spectator_view
from games.models import BOT_KINDS, MIN_SEATS, Game, Table
from games.presenters import listings
from games.presenters.cards import card_in
from games.presenters.words import (
    bot_for,
    describe_move,
    describe_table_move,
    describe_takeover,
)
from games.services import broadcast, replays, store, tables
from games.services.access import signed_in_id

COLOR_ORDER = ("red", "yellow", "green", "blue")
BOT_NAMES = dict(BOT_KINDS)  # lazy: translated when drawn
RECENT_MOVES = 12  # moves shown in the table's "what happened"


def lobby_context(page: int = 1) -> dict[str, Any]:
    """What ``games/partials/lobby_tables.html`` draws: a page of the open public tables."""
    pages = tables.lobby_pages()
    page = min(page, pages)
    return {"lobby_tables": tables.lobby_tables(page), "lobby_page": page, "lobby_pages": pages}


@dataclass(frozen=True)
class LobbyView:
    """The open public tables, read once per change for every lobby socket of a process."""

    context: dict[str, Any]  # lobby_context() of the first page
    rendered: dict[tuple[str, bool], str] = field(default_factory=dict, repr=False)


def read_lobby() -> LobbyView:
    """The lobby's first page, the one its socket keeps live."""
    return LobbyView(context=lobby_context())


def lobby_fragment(view: LobbyView, user: Any) -> str:
    """The lobby's table list for ``user``, drawn once per language for visitors and once for
    the logged-in (the Join column is all that differs)."""
    key = (translation.get_language() or "", signed_in_id(user) is not None)
    html = view.rendered.get(key)
    if html is None:
        context = {**view.context, "user": user}
        html = render_to_string("games/partials/lobby_tables.html", context)
        view.rendered[key] = html
    return html


# ------------------------------------------------------------------ one table, for everyone


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

    @property
    def is_bot(self) -> bool:
        return bool(self.bot)

    @property
    def name(self) -> str:
        """The person's name, or the bot's in the language it is drawn in ("Greedy bot 2",
        "Bot (for ana)" in a seat a bot took over)."""
        if self.username:
            return self.username
        if self.bot and self.replaced:
            return bot_for(self.replaced)
        if self.bot:
            return f"{BOT_NAMES.get(self.bot, self.bot)} {self.position + 1}"
        return ""

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
    (``store.read_table``). A page reads it, and a process's sockets whenever it did not store
    the change itself (on every move with several processes).

    :raises Table.DoesNotExist: no such table.
    """
    rows = store.read_table(table_id, RECENT_MOVES)
    if rows is None:
        raise Table.DoesNotExist(f"no table {table_id}")
    table, game, seats, recent = rows
    states = broadcast.seat_states(seats)
    online = broadcast.connected_users(table.pk, [seat.user_id for seat in states if seat.user_id])
    engine = game.engine() if game is not None else None
    return _assemble(table, game, engine, states, tuple(recent), online)


def view_after_move(state: broadcast.TableState, previous: TableView | None) -> TableView | None:
    """The table after a move this process stored, from what the move path already held, so
    that the sockets here need not read it back: ``previous``, the view of the move before
    (its last moves), and ``state``; ``previous`` itself when it was read after the move was
    stored. None when ``previous`` is neither (this process missed a change): the table must
    then be read.
    """
    if previous is None or previous.game_id != state.game.pk:
        return None
    held = (previous.version, previous.digest)
    if held == (state.game.version, state.game.last_digest):
        return previous  # read after the move was stored: already this state
    if held != (state.game.version - 1, state.previous_digest):
        return None
    recent = (*previous.recent_moves, state.move)[-RECENT_MOVES:]
    view = _assemble(
        state.table, state.game, state.engine, state.seats, recent, state.online, extras=False
    )
    return replace(view, move_texts=previous.move_texts)


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
    game: Game | None,
    engine: GameState | None,
    seats: Sequence[broadcast.SeatState],
    recent: tuple[dict[str, Any], ...],
    online: Collection[int],
    *,
    extras: bool = True,
) -> TableView:
    """The view of a table from what the services hold of it: ``seats`` in order, ``recent`` its
    last moves (oldest first), ``online`` the users with a socket open at it. ``extras`` reads a
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
        board = _board(spectator_view(engine), SeatNames(seat_views))
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


# ------------------------------------------------------------------ one seat, for its player


@dataclass(frozen=True, slots=True)
class HandView:
    """What a seated player of a running game alone sees: their cards and their controls."""

    my_seat: int
    hand: list[str]
    # The legal actions grouped for the controls: ``play`` (card and the colours a Change Color
    # may name) and a flag for each other action.
    legal: dict[str, Any]
    playable: list[str]
    hand_cards: list[HandCard]
    controls: dict[str, Any]


def hand_view(view: TableView, seat: SeatView | None) -> HandView | None:
    """The hand and controls of ``seat`` (the engine's seat view: own cards only), or None for a
    spectator or a game that is not running."""
    if seat is None or not view.running or seat.position >= view.engine.players:
        return None
    engine_view = seat_view(view.engine, seat.position)
    hand = engine_view["hand"]
    legal = _group_legal(engine_view["legal_actions"])
    return HandView(
        my_seat=seat.position,
        hand=hand,
        legal=legal,
        playable=sorted({play["card"] for play in legal["play"]}),
        hand_cards=_hand_cards(hand, legal),
        controls=_controls(hand, legal, engine_view, seat.position),
    )


# ------------------------------------------------------------------ drawing it


def table_page_context(
    view: TableView, user: Any, *, flash: str = "", invite: str = ""
) -> dict[str, Any]:
    """What ``games/partials/table_state.html`` draws for ``user`` (a spectator if not seated).

    ``invite`` is the private table's token the visitor came with, carried by the join form.
    """
    user_id = signed_in_id(user)
    signed_in = user_id is not None
    seat = view.seat_of(user_id)
    hand = hand_view(view, seat)
    public = _public_context(view)
    rematch = view.rematch
    return {
        **public,
        "my_seat": seat.position if seat is not None else None,
        # A visitor without a seat at a running or ended game watches it (issue 8).
        "watching": seat is None and view.status != Table.Status.OPEN,
        "your_turn": bool(seat is not None and (seat.is_turn or seat.to_act)),
        "penalised_me": bool(
            public["penalty"] and seat and public["penalty"]["seat"] == seat.position
        ),
        "rematch": rematch,
        "rematch_answer": (rematch["answers"].get(user_id) if rematch else None),
        "rematch_mine": bool(rematch and rematch["host_id"] == user_id),
        "is_host": signed_in and view.table.host_id == user_id,
        "signed_in": signed_in,
        "invite": invite,
        "flash": flash,
        "hand": hand.hand if hand is not None else None,
        "hand_cards": hand.hand_cards if hand is not None else [],
        "legal": hand.legal if hand is not None else None,
        "controls": hand.controls if hand is not None else {"any": False},
    }


def table_fragments(view: TableView, user: Any, *, flash: str = "", invite: str = "") -> str:
    """The table as ``user`` sees it, as the fragments a socket pushes (htmx swaps each by id).

    The public fragments (seats, board, what happened) are drawn once per language and shared
    by every socket of the table; only the player's own part is drawn for each. An open table's
    board holds the join and host controls, so it is drawn for each viewer.
    """
    language = translation.get_language() or ""
    # A game in play looks the same to everyone without a seat at it: no hand, no result
    # worded for them, no rematch to answer. Drawn once, like the public part.
    watching = (
        view.status == Table.Status.PLAYING
        and view.result is None
        and not flash
        and view.seat_of(signed_in_id(user)) is None
    )
    if watching and (drawn := view.rendered.get(("watching", language))) is not None:
        return drawn
    context = table_page_context(view, user, flash=flash, invite=invite)
    if view.status == Table.Status.OPEN:
        return _live("games/partials/table_state.html", context)
    public = view.rendered.get(("public", language))
    if public is None:
        public = view.rendered["public", language] = _live(
            "games/partials/table_public.html", context
        )
    drawn = public + _live("games/partials/table_private.html", context)
    if watching:
        view.rendered["watching", language] = drawn
    return drawn


def _live(name: str, context: dict[str, Any]) -> str:
    """One of the table's live partials (Jinja2, ``games.presenters.jinja``), drawn with ``context``
    straight by Jinja2: a push has no request, nothing for Django's wrapper to add.

    The template is the active language's compilation of it, its constant messages already
    translated (``LiveEnvironment.in_language``). The messages left, those with a plural, are
    looked up in that language's catalogue itself, found once for the drawing: Django's
    ``gettext`` finds the active language again for each of them. So are the cards (``card``,
    ``hand_card``).
    """
    language = translation.get_language()
    template = _live_templates.get((language, name))
    if template is None:
        env = engines["jinja2"].env
        if language is not None:
            env = env.in_language(language)
        template = _live_templates[language, name] = env.get_template(name)
    if language is None:  # translation deactivated: Django's own functions say what that means
        return template.render(context)
    catalogue = trans_real.translation(language)
    gettext = catalogue.gettext
    return template.render(
        context,
        _=gettext,
        gettext=gettext,
        ngettext=catalogue.ngettext,
        card=functools.partial(card_in, language=language),
        hand_card=functools.partial(template.globals["hand_card"], language=language),
    )


_live_templates: dict[tuple[str | None, str], Any] = {}


def seats_fragment(view: TableView) -> str:
    """The seats alone (who is connected changed), drawn once per language for everyone."""
    key = ("seats", translation.get_language() or "")
    seats = view.rendered.get(key)
    if seats is None:
        seats = _live("games/partials/table_seats.html", _public_context(view))
        view.rendered[key] = seats
    return seats


def _public_context(view: TableView) -> dict[str, Any]:
    """What everyone at the table sees, in the active language: worked out once per language
    for all the viewers of ``view``."""
    language = translation.get_language()
    key = ("context", language or "")
    context = view.rendered.get(key)
    if context is None:
        context = view.rendered[key] = _everyones_context(view, language)
    return context


def _everyones_context(view: TableView, language: str | None) -> dict[str, Any]:
    names = tuple(view.names)
    said = _announced_with_play(view) if view.seats else [False] * len(view.recent_moves)
    return {
        "table": view.table,
        "status": view.status,
        "game_id": view.game_id,
        "version": view.version,
        "seats": view.seats,
        "board": view.board,
        # The winner named in this language: a seat a bot took over wins as "Bot (for ana)".
        "result": view.result and {**view.result, "winner_name": names[view.result["winner"]]},
        "seconds_left": view.seconds_left,
        "can_start": view.can_start,
        "empty_seats": any(seat.is_empty for seat in view.seats),
        "recent": _recent(view, names, said, language),
        "penalty": _last_penalty(view),
        "invitations": view.invitations,
    }


def _recent(
    view: TableView, names: tuple[str, ...], said: list[bool], language: str | None
) -> list[dict[str, Any]]:
    """The last moves in words, newest first, each numbered and worded with the names of who
    played it (a person until a bot took their seat, then "Bot (for ana)"); where a bot took a
    seat, a line says who left and why, numbered as the move before it."""
    taken = [seat for seat in view.seats if seat.replaced and seat.replaced_at is not None]
    lines = []
    for move, announced in zip(view.recent_moves, said, strict=True):
        seq = move["seq"]
        lines += [_takeover_line(seat) for seat in taken if seat.replaced_at == seq]
        played_by = _names_at(view.seats, names, taken, seq)
        text = _move_text(view, move, played_by, announced, language)
        lines.append({"seq": seq + 1, "text": text})
    after = view.recent_moves[-1]["seq"] + 1 if view.recent_moves else 0
    lines += [_takeover_line(seat) for seat in taken if seat.replaced_at >= after]
    return lines[::-1]


def _takeover_line(seat: SeatView) -> dict[str, Any]:
    return {
        "seq": seat.replaced_at,
        "text": describe_takeover(seat.replaced, seat.replaced_because),
        "takeover": True,
    }


def _names_at(
    seats: Sequence[SeatView], names: tuple[str, ...], taken: list[SeatView], seq: int
) -> tuple[str, ...]:
    """The seats' names as of the move ``seq``: ``names``, but the person's own name in a seat
    a bot took over only later."""
    if not any(seq < seat.replaced_at for seat in taken):
        return names
    return tuple(seat.name_at(seq) for seat in seats)


def _move_text(
    view: TableView,
    move: dict[str, Any],
    names: tuple[str, ...],
    announced: bool,
    language: str | None,
) -> str:
    """A move of the log in words, in the active language (``language``). Each of the last
    moves is shown again after every move: worded once, it is kept along the views built one
    from another."""
    texts = view.move_texts
    key = (move["seq"], language, announced, names)
    text = texts.get(key)
    if text is None:
        text = texts[key] = describe_table_move(move, names, announced)
        oldest = view.recent_moves[0]["seq"]
        for gone in [key for key in texts if key[0] < oldest]:
            del texts[gone]
    return text


def _announced_with_play(view: TableView) -> list[bool]:
    """For each of the recent moves (oldest first), whether it was a play that left its player
    one card with "last card" said on it (R20). The engine logs an ``announced`` event only for
    the announcement on its own or on a close; on a play it is the action's flag, which counts
    only when the play leaves one card. The hand sizes after each move are worked back from
    the sizes now, undoing each later move's plays and draws."""
    sizes = [seat.hand_size or 0 for seat in view.seats]
    said = []
    for move in reversed(view.recent_moves):
        events = move["events"]
        for event in events:  # undo this move: its sizes before
            seat = event.get("seat")
            if not isinstance(seat, int) or not 0 <= seat < len(sizes):
                continue
            if event.get("kind") == "played":
                sizes[seat] += 1
            elif event.get("kind") == "drew":
                sizes[seat] -= event.get("count", 0) or 0
        action = move.get("action") or {}
        flagged = action.get("type") == "play" and action.get("last_card") is True
        seat = move["seat"]
        said.append(flagged and 0 <= seat < len(sizes) and sizes[seat] == 2)
    return list(reversed(said))


def _last_penalty(view: TableView) -> dict[str, Any] | None:
    """The R20 penalty drawn in the last round of moves (one per seat), for an alert no one can
    miss: who and how many cards."""
    for move in reversed(view.recent_moves[-max(len(view.seats), 1) :]):
        for event in move["events"]:
            if event.get("kind") == "drew" and event.get("reason") == "penalty":
                seat = event.get("seat")
                if isinstance(seat, int) and 0 <= seat < len(view.seats):
                    return {"seat": seat, "name": view.names[seat], "count": event.get("count")}
    return None


def _board(view: dict[str, Any], names: Sequence[str]) -> BoardView:
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


def _hand_order(code: str) -> tuple[bool, str]:
    """Coloured cards by colour, then the colourless ones (King, Change Color…) at the end."""
    return (":" not in code, code)


@dataclass(frozen=True, slots=True)
class HandCard:
    """A card of the player's own hand: whether it may be played now, and the colours to name
    with it (a Change Color's, R11). Hashable: its HTML is kept
    (``games.presenters.jinja.hand_card_drawer``)."""

    code: str
    legal: bool
    colors: tuple[str, ...]


def _hand_cards(hand: list[str], legal: dict[str, Any]) -> list[HandCard]:
    plays = {play["card"]: play["colors"] for play in legal["play"]}
    cards = []
    asked = False
    for code in sorted(hand, key=_hand_order):
        # R11: a Change Color names its colour on the play itself; the colour buttons are
        # offered once, on the first of them (a second would only repeat them).
        colors = tuple(c for c in COLOR_ORDER if c in plays.get(code, []))
        legal_here = code in plays and not (colors and asked)
        cards.append(HandCard(code=code, legal=legal_here, colors=colors if legal_here else ()))
        asked = asked or bool(colors)
    return cards


def _controls(
    hand: list[str], legal: dict[str, Any], view: dict[str, Any], my_seat: int
) -> dict[str, Any]:
    """The buttons beside the hand: exactly the legal actions that are not a card to click."""
    announced = bool(view["announced"][my_seat])
    plays = {play["card"] for play in legal["play"]}
    controls = {
        "draw": legal["draw"],
        "close_taki": legal["close_taki"],
        "pass": legal["pass"],
        "accept": legal["accept"],
        # R19a: the Breaker may be played out of turn against a pending +3.
        "breaker": bool(view.get("plus3_pending")) and "breaker" in plays,
        # R20: "last card" said on its own, with one card in hand.
        "announce": legal["last_card"] and not announced,
        # R20: or said with the play (or the close) that leaves one card.
        "say_with_play": (len(hand) == 2 and bool(plays))
        or (len(hand) == 1 and legal["close_taki"] and not announced),
    }
    controls["any"] = any(controls.values())
    return controls


# ------------------------------------------------------------------ finished games


def finished_game_context(game: Game, step: int | None) -> dict[str, Any]:
    """A finished game's page: players (a seat a bot took over says so), options, result,
    length, moves in words, and the replay after move ``step`` (the last move by default)."""
    moves = list(game.moves.order_by("seq").values("seq", "seat", "source", "events"))
    players = listings.player_views(game)
    total = len(moves)
    lines = []
    for move in moves:
        lines += _takeovers_at(players, move["seq"])
        lines.append(
            {
                "number": move["seq"] + 1,
                # Worded with the names of who played it: the person, before a bot came.
                "text": describe_move(move["events"], _player_names_at(players, move["seq"])),
                "by_bot": move["source"] == "bot",
                "timed_out": move["source"] == "timeout",
            }
        )
    lines += [  # a bot took over after the last move
        {"number": None, "text": player.takeover}
        for player in players
        if player.took_over and player.replaced_at is not None and player.replaced_at >= total
    ]
    duration = (game.finished_at - game.started_at) if game.finished_at else None
    return {
        "game": game,
        "table": game.table,
        "players": players,
        "winner": players[game.winner] if game.winner is not None else None,
        "move_count": total,
        "duration_minutes": int(duration.total_seconds() // 60) if duration else None,
        "duration_seconds": int(duration.total_seconds() % 60) if duration else None,
        "moves": lines,
        **replay_context(game, total if step is None else step, players),
    }


def _player_names_at(players: Sequence[listings.PlayerView], seq: int) -> list[str]:
    """The players' names as of the move ``seq`` (the person until a bot took their seat)."""
    return [player.name_at(seq) for player in players]


def _takeovers_at(players: Sequence[listings.PlayerView], seq: int) -> list[dict[str, Any]]:
    """The lines of a finished game's moves saying who left before the move ``seq``."""
    return [
        {"number": None, "text": player.takeover}
        for player in players
        if player.took_over and player.replaced_at == seq
    ]


def replay_context(game: Game, step: int, players: list[Any] | None = None) -> dict[str, Any]:
    """The finished game after move ``step``: the public table and every hand (the game is
    over), and what that move did. Costs the same at any step (``replays.engine_at``)."""
    players = players if players is not None else listings.player_views(game)
    total = game.version
    step = min(max(step, 0), total)
    engine = replays.engine_at(game, step)
    view = spectator_view(engine)
    names = _player_names_at(players, step)
    move = None
    if step > 0:
        events = game.moves.values_list("events", flat=True).get(seq=step - 1)
        move = describe_move(events, _player_names_at(players, step - 1))
    return {
        "step": step,
        "last_step": total,
        "previous_step": step - 1 if step > 0 else None,
        "next_step": step + 1 if step < total else None,
        "step_move": move,
        "replay_board": _board(view, names),
        "replay_seats": [
            {
                "player": player,
                "hand": sorted(card.code for card in engine.hands[player.position]),
                "stage": view["stages"][player.position] if view["stages"] else None,
                "is_turn": view["current_player"] == player.position and not view["finished"],
            }
            for player in players
        ],
    }
