"""Template contexts for the games pages and fragments, built from ``games.services`` data.

Both the views (first page load) and the consumers (every push) call these, so a page and its
pushed fragments are drawn from the same context by the same partial templates. Nothing here
decides a rule: which cards are legal comes from the engine, through ``services.table_context``.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.utils.translation import gettext as _

from games import services
from games.engine import Record, replay, spectator_view
from games.models import Game, Table
from games.words import describe_move

COLOR_ORDER = ("red", "yellow", "green", "blue")


def lobby_context() -> dict[str, Any]:
    """What ``games/partials/lobby_tables.html`` draws: the open public tables."""
    return {"lobby_tables": services.lobby_tables()}


def table_page_context(
    table: Table, user: Any, *, flash: str = "", invite: str = ""
) -> dict[str, Any]:
    """What ``games/partials/table_state.html`` draws for ``user`` (a spectator if not seated).

    ``invite`` is the private table's token the visitor came with, carried by the join form.
    """
    if user is None:
        user = AnonymousUser()
    ctx = services.table_context(table, user)
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
