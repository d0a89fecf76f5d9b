"""A seated player's own part of a running table: their cards, which of them may be played,
and the controls beside them. Which cards are legal comes from the engine."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from games.engine import seat_view

if TYPE_CHECKING:
    from games.presenters.table import SeatView, TableView

COLOR_ORDER = ("red", "yellow", "green", "blue")


@dataclass(frozen=True, slots=True)
class HandCard:
    """A card of the player's own hand: whether it may be played now, and the colours to name
    with it (a Change Color's, R11). Hashable: its HTML is kept
    (``games.presenters.jinja.hand_card_drawer``)."""

    code: str
    legal: bool
    colors: tuple[str, ...]


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
