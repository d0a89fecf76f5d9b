"""Cards drawn as HTML, the same in the pages (Django templates) and the pushes (Jinja2)."""

from __future__ import annotations

from functools import lru_cache

from django.utils import translation
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from games.presenters import narration

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
    name = narration.card_name(code)
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
