"""Template helpers for drawing TAKI: cards, colours, events and a table's options in words."""

from __future__ import annotations

from django import template
from django.template import engines
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.presenters import narration
from games.presenters.cards import card as draw_card

register = template.Library()


@register.simple_tag
def card(code: str, size: str = "") -> str:
    """Draw one card by its R2 code: ``{% card "blue:plus2" %}``."""
    return draw_card(code, size)


@register.simple_tag(takes_context=True)
def live_partial(context: template.Context, name: str) -> str:
    """Draw one of the table's live partials, the Jinja2 templates in ``games/jinja2/`` that the
    sockets push (``games.presenters.jinja``), inside a Django template, with that template's
    context: ``{% live_partial "games/live/table_state.html" %}``."""
    partial = engines["jinja2"].get_template(name)
    return mark_safe(partial.render(context.flatten(), request=context.get("request")))


@register.filter
def card_name(code: str) -> str:
    return narration.card_name(code)


@register.filter
def color_name(color: str | None) -> str:
    return narration.color_name(color)


@register.filter
def game_kind(tournament: bool) -> str:
    """A game's kind in words: the eight stages of a tournament (R22), or a standard game."""
    return _("Tournament") if tournament else _("Standard")


@register.filter
def turn_pace(table) -> str:
    """A table's pace in words: its days per move when turn-based, else its turn time."""
    days = getattr(table, "turn_days", None)
    if days:
        return ngettext("%(days)d day a move", "%(days)d days a move", days) % {"days": days}
    return turn_time(table.turn_seconds)


@register.filter
def turn_time(seconds: int | None) -> str:
    """A table's time for a turn in words (R23): ``30 s``, or no limit."""
    if not seconds:
        return _("No limit")
    return _("%(seconds)s s") % {"seconds": seconds}
