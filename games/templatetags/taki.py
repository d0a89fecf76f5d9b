"""Template helpers for drawing TAKI: cards, colours and events in words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import template

from games import words

register = template.Library()


@register.inclusion_tag("games/partials/card.html")
def card(code: str, size: str = "") -> dict[str, Any]:
    """Draw one card by its R2 code: ``{% card "blue:plus2" %}``."""
    color, _sep, symbol = code.rpartition(":")
    return {
        "code": code,
        "color": color or "wild",
        "symbol": symbol,
        "is_number": symbol.isdigit(),
        "name": words.card_name(code),
        "size": size,
    }


@register.filter
def card_name(code: str) -> str:
    return words.card_name(code)


@register.filter
def color_name(color: str | None) -> str:
    return words.color_name(color)


@register.simple_tag
def event_words(event: Mapping[str, Any], names: Sequence[str]) -> str:
    return words.describe_event(event, names)


@register.simple_tag
def move_words(events: Sequence[Mapping[str, Any]], names: Sequence[str]) -> str:
    return words.describe_move(events, names)
