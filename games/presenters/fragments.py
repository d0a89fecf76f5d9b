"""Drawing a table: the fragments a socket pushes and the table page's context.

The views (first page load) and the consumers (every push) draw a table with the same live
partials, so a page and its pushed fragments can never drift apart. What everyone sees is
drawn once per language and shared by every socket of the table; only a player's own hand is
drawn for them alone.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from django.template import engines
from django.utils import translation

from games.models import BOT_LEVELS, DEFAULT_BOT_LEVEL, Table
from games.presenters.cards import card_in
from games.presenters.hand import hand_view
from games.presenters.narration import describe_table_move, describe_takeover
from games.presenters.table import SeatView, TableView
from games.services.access import signed_in_id


def table_page_context(
    view: TableView, user: Any, *, flash: str = "", invite: str = ""
) -> dict[str, Any]:
    """What ``games/live/table_state.html`` draws for ``user`` (a spectator if not seated).

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
        # A visitor without a seat at a running or ended game watches it.
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
        return _live("games/live/table_state.html", context)
    public = view.rendered.get(("public", language))
    if public is None:
        public = view.rendered["public", language] = _live("games/live/table_public.html", context)
    drawn = public + _live("games/live/table_private.html", context)
    if watching:
        view.rendered["watching", language] = drawn
    return drawn


def _live(name: str, context: dict[str, Any]) -> str:
    """One of the table's live partials (Jinja2, ``games.presenters.jinja``), drawn with ``context``
    straight by Jinja2: a push has no request, nothing for Django's wrapper to add.

    The template is the active language's compilation of it, its constant messages already
    translated (``LiveEnvironment.in_language``); the messages left, those with a plural, are
    looked up by Django's gettext as it is drawn. The cards (``card``, ``hand_card``) are given
    the language, found once for the drawing.
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
    return template.render(
        context,
        card=functools.partial(card_in, language=language),
        hand_card=functools.partial(template.globals["hand_card"], language=language),
    )


_live_templates: dict[tuple[str | None, str], Any] = {}


def seats_fragment(view: TableView) -> str:
    """The seats alone (who is connected changed), drawn once per language for everyone."""
    key = ("seats", translation.get_language() or "")
    seats = view.rendered.get(key)
    if seats is None:
        seats = _live("games/live/table_seats.html", _public_context(view))
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
        "bot_levels": BOT_LEVELS,  # the host's choice of level for an empty seat
        "default_bot_level": DEFAULT_BOT_LEVEL,
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
