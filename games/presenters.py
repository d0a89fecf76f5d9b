"""Template contexts for the games pages and fragments, built from ``games.services`` data.

Both the views (first page load) and the consumers (every push) call these, so a page and its
pushed fragments are drawn from the same context by the same partial templates. Nothing here
decides a rule: which cards are legal comes from the engine, through :func:`table_context`.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engine import Record, replay, seat_view, spectator_view
from games.models import MIN_SEATS, Game, Table
from games.services import broadcast, tables
from games.words import describe_move

COLOR_ORDER = ("red", "yellow", "green", "blue")
RECENT_MOVES = 12  # moves shown in the table's "what happened"


def lobby_context() -> dict[str, Any]:
    """What ``games/partials/lobby_tables.html`` draws: the open public tables."""
    return {"lobby_tables": tables.lobby_tables()}


def table_page_context(
    table: Table, user: Any, *, flash: str = "", invite: str = ""
) -> dict[str, Any]:
    """What ``games/partials/table_state.html`` draws for ``user`` (a spectator if not seated).

    ``invite`` is the private table's token the visitor came with, carried by the join form.
    """
    if user is None:
        user = AnonymousUser()
    ctx = table_context(table, user)
    ctx["signed_in"] = user.is_authenticated
    ctx["invite"] = invite
    names = [seat["name"] for seat in ctx["seats"]]
    view = ctx["view"]
    legal = ctx["legal"]
    ctx["flash"] = flash
    ctx["names"] = names
    ctx["board"] = _board(view, names) if view is not None else None
    ctx["hand_cards"] = _hand_cards(ctx["hand"], legal) if ctx["hand"] is not None else []
    ctx["controls"] = _controls(ctx, legal)
    ctx["recent"] = [
        {"seq": move["seq"] + 1, "text": describe_move(move["events"], names)}
        for move in reversed(ctx["events"])
    ]
    ctx["empty_seats"] = any(seat["is_empty"] for seat in ctx["seats"])
    return ctx


def table_context(table: Table, user: Any) -> dict[str, Any]:
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
                "connected": bool(seat.bot) or broadcast.is_connected(table.pk, seat.user_id),
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


def _board(view: dict[str, Any], names: list[str]) -> dict[str, Any]:
    def name(seat: int | None) -> str:
        return names[seat] if seat is not None and 0 <= seat < len(names) else ""

    plus3 = view.get("plus3_pending")
    run = view.get("taki_run")
    return {
        "leading": view["leading"],
        "discard_top": view["discard_top"],
        "active_color": view["active_color"],
        "clockwise": view["direction"] == 1,
        "draw_pile": view["draw_pile"],
        "plus2_stack": view["plus2_stack"],
        "plus3_by": name(plus3["by"]) if plus3 else "",
        "plus3_waiting": [name(seat) for seat in plus3["waiting"]] if plus3 else [],
        "taki_run": (
            {"color": run["color"], "player": name(run["player"]), "open": run["open"]}
            if run
            else None
        ),
        "follow_up": view.get("follow_up"),
        "current": name(view.get("current_player")),
    }


def _hand_cards(hand: list[str], legal: dict[str, Any] | None) -> list[dict[str, Any]]:
    plays = {play["card"]: play["colors"] for play in legal["play"]} if legal else {}
    return [
        {
            "code": code,
            "legal": code in plays,
            # R11: a Change Color names its colour on the play itself.
            "colors": [c for c in COLOR_ORDER if c in plays.get(code, [])],
        }
        for code in hand
    ]


def _controls(ctx: dict[str, Any], legal: dict[str, Any] | None) -> dict[str, Any]:
    """The buttons beside the hand: exactly the legal actions that are not a card to click."""
    if not legal:
        return {"any": False}
    hand = ctx["hand"] or []
    my_seat = ctx["my_seat"]
    view = ctx["view"] or {}
    announced_seats = view.get("announced") or []
    announced = my_seat is not None and my_seat < len(announced_seats) and announced_seats[my_seat]
    plays = {play["card"] for play in legal["play"]}
    pending_plus3 = bool(view.get("plus3_pending"))
    controls = {
        "draw": legal["draw"],
        "close_taki": legal["close_taki"],
        "pass": legal["pass"],
        "accept": legal["accept"],
        # R19a: the Breaker may be played out of turn against a pending +3.
        "breaker": pending_plus3 and "breaker" in plays,
        # R20: "last card" said on its own, with one card in hand.
        "announce": legal["last_card"] and not announced,
        # R20: or said with the play (or the close) that leaves one card.
        "say_with_play": (len(hand) == 2 and bool(plays))
        or (len(hand) == 1 and legal["close_taki"]),
    }
    controls["any"] = any(controls.values())
    return controls


# ------------------------------------------------------------------ finished games


def finished_game_context(game: Game, step: int | None) -> dict[str, Any]:
    """A finished game's page: players, options, result, length, moves in words, and the public
    table after move ``step`` (a replay of the first ``step`` actions; spectator view only)."""
    moves = list(game.moves.order_by("seq").values("seq", "seat", "source", "events", "created_at"))
    names = list(game.players)
    total = len(moves)
    duration = (game.finished_at - game.started_at) if game.finished_at else None
    ctx: dict[str, Any] = {
        "game": game,
        "table": game.table,
        "names": names,
        "winner_name": names[game.winner] if game.winner is not None else "",
        "move_count": total,
        "duration_minutes": int(duration.total_seconds() // 60) if duration else None,
        "duration_seconds": int(duration.total_seconds() % 60) if duration else None,
        "moves": [
            {
                "number": move["seq"] + 1,
                "text": describe_move(move["events"], names),
                "by_bot": move["source"] == "bot",
                "timed_out": move["source"] == "timeout",
            }
            for move in moves
        ],
        "step": None,
    }
    if step is not None:
        step = min(max(step, 0), total)
        ctx.update(_replay_step(game, step, names))
    return ctx


def _replay_step(game: Game, step: int, names: list[str]) -> dict[str, Any]:
    record: Record = game.record()
    record.actions = record.actions[:step]
    result = replay(record)
    if result.game is None:  # pragma: no cover - a stored game always replays
        return {"step": None, "replay_error": _("This game could not be replayed.")}
    view = spectator_view(result.game)
    seats = [
        {
            "name": name,
            "hand_size": view["hand_sizes"][position],
            "stage": view["stages"][position] if view["stages"] else None,
            "is_turn": view["current_player"] == position and not view["finished"],
        }
        for position, name in enumerate(names)
    ]
    return {
        "step": step,
        "previous_step": step - 1 if step > 0 else None,
        "next_step": step + 1 if step < game.version else None,
        "replay_board": _board(view, names),
        "replay_seats": seats,
    }
