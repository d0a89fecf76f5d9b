"""Template helpers for drawing TAKI: cards, colours and events in words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from django import template
from django.template import engines
from django.utils import translation
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from games import words

register = template.Library()


# The faces of the cards that are not numbers (R2). Drawn in Python rather than by an included
# template: a table push draws every card in a hand, and an inclusion tag costs a template
# context for each.
CARD_FACES = {
    "stop": "⊘",
    "plus2": "+2",
    "direction": "⇄",
    "plus": "+",
    "taki": mark_safe('<span class="card__word">TAKI</span>'),
    "super-taki": mark_safe('<span class="card__word card__word--small">SUPER<br>TAKI</span>'),
    "king": "♔",
    "plus3": "+3",
    "breaker": mark_safe('<span class="card__broken">+3</span>'),
    "change-color": mark_safe('<span class="card__wheel"></span>'),
}


@register.simple_tag
def card(code: str, size: str = "") -> str:
    """Draw one card by its R2 code: ``{% card "blue:plus2" %}``."""
    return _card(code, size, translation.get_language())


def card_in(code: str, size: str = "", *, language: str | None) -> str:
    """``card`` in ``language``, the active one, when the caller already knows it."""
    return _card(code, size, language)


@lru_cache(maxsize=1024)
def _card(code: str, size: str, language: str | None) -> str:
    """A card's HTML, the same every time in one language: drawn once (a push draws every card
    of a hand)."""
    color, _sep, symbol = code.rpartition(":")
    name = words.card_name(code)
    classes = f"card card--{color or 'wild'}" + (f" card--{size}" if size else "")
    face = symbol if symbol.isdigit() else CARD_FACES.get(symbol, "")
    return format_html(
        '<span class="{}" title="{}" aria-label="{}" role="img">'
        '<span class="card__face" aria-hidden="true">{}</span></span>',
        classes,
        name,
        name,
        face,
    )


@register.simple_tag(takes_context=True)
def live_partial(context: template.Context, name: str) -> str:
    """Draw one of the table's live partials, the Jinja2 templates in ``games/jinja2/`` that the
    sockets push (``games.jinja``), inside a Django template, with that template's context:
    ``{% live_partial "games/partials/table_state.html" %}``."""
    partial = engines["jinja2"].get_template(name)
    return mark_safe(partial.render(context.flatten(), request=context.get("request")))


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
