"""The game told in words: cards and colours named, and what each event did. The engine gives
data only; the site words it here.

Every string is translatable; word order is the translator's, so each sentence is one message
with named placeholders.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.engine import Event

COLOR_NAMES = {
    "red": gettext_lazy("red"),
    "yellow": gettext_lazy("yellow"),
    "green": gettext_lazy("green"),
    "blue": gettext_lazy("blue"),
}

# R1, R2: "%(color)s" is the card's colour, already translated.
COLORED_CARD_NAMES = {
    "stop": gettext_lazy("%(color)s Stop"),
    "plus2": gettext_lazy("%(color)s +2"),
    "direction": gettext_lazy("%(color)s Change Direction"),
    "plus": gettext_lazy("%(color)s Plus"),
    "taki": gettext_lazy("%(color)s TAKI"),
}
COLORLESS_CARD_NAMES = {
    "super-taki": gettext_lazy("Super TAKI"),
    "king": gettext_lazy("King"),
    "plus3": gettext_lazy("+3"),
    "breaker": gettext_lazy("+3 Breaker"),
    "change-color": gettext_lazy("Change Color"),
}


def color_name(color: str | None) -> str:
    return str(COLOR_NAMES.get(color or "", color or ""))


def card_name(code: str) -> str:
    """``red:7`` → "red 7", ``blue:plus2`` → "blue +2", ``king`` → "King"."""
    if code in COLORLESS_CARD_NAMES:
        return str(COLORLESS_CARD_NAMES[code])
    color, _sep, symbol = code.partition(":")
    if symbol in COLORED_CARD_NAMES:
        return str(COLORED_CARD_NAMES[symbol]) % {"color": color_name(color)}
    return _("%(color)s %(number)s") % {"color": color_name(color), "number": symbol}


def _name(names: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return _("someone")


def _drew(who: str, count: int, reason: str | None) -> str:
    values = {"name": who, "count": count}
    if count == 0:
        return _("%(name)s could not draw: no cards are left") % values
    if reason == "plus2":
        return (
            ngettext(
                "%(name)s draws %(count)d for the +2 stack",
                "%(name)s draws %(count)d for the +2 stack",
                count,
            )
            % values
        )
    if reason == "plus3":
        return (
            ngettext(
                "%(name)s draws %(count)d for the +3", "%(name)s draws %(count)d for the +3", count
            )
            % values
        )
    if reason == "breaker":
        return (
            ngettext(
                "%(name)s draws %(count)d for the Breaker",
                "%(name)s draws %(count)d for the Breaker",
                count,
            )
            % values
        )
    if reason == "penalty":  # R20
        return (
            ngettext(
                "%(name)s draws %(count)d for not saying “last card”",
                "%(name)s draws %(count)d for not saying “last card”",
                count,
            )
            % values
        )
    if reason == "stage":  # R22
        return (
            ngettext(
                "%(name)s draws %(count)d card for the next stage",
                "%(name)s draws %(count)d cards for the next stage",
                count,
            )
            % values
        )
    if reason == "timeout":  # R23
        return (
            ngettext(
                "%(name)s ran out of time and draws %(count)d card",
                "%(name)s ran out of time and draws %(count)d cards",
                count,
            )
            % values
        )
    return ngettext("%(name)s draws a card", "%(name)s draws %(count)d cards", count) % values


def describe_event(event: Mapping[str, Any] | Event, names: Sequence[str]) -> str:
    """One event (as the engine gives it, or as stored in ``Move.events``) in words."""
    data = event.to_json() if isinstance(event, Event) else event
    kind = data.get("kind")
    who = _name(names, data.get("seat"))
    count = data.get("count", 0) or 0
    if kind == "played":
        card = data.get("card", "")
        if card == "change-color":
            return _("%(name)s played Change Color and named %(color)s") % {
                "name": who,
                "color": color_name(data.get("color")),
            }
        return _("%(name)s played %(card)s") % {"name": who, "card": card_name(card)}
    if kind == "drew":
        return _drew(who, count, data.get("reason"))
    if kind == "skipped":
        return _("%(name)s is skipped") % {"name": who}
    if kind == "direction":
        return _("the direction is reversed")
    if kind == "stack":
        return _("the +2 stack is now %(count)d") % {"count": count}
    if kind == "plus3":
        return _("everyone else must answer the +3")
    if kind == "accepted":
        return _("%(name)s accepts the +3") % {"name": who}
    if kind == "broken":
        return _("%(name)s breaks the +3 back to %(target)s") % {
            "name": who,
            "target": _name(names, data.get("target")),
        }
    if kind == "cancelled":
        return _("the King cancels the penalty")
    if kind == "taki_opened":
        return _("%(name)s opens a %(color)s TAKI run") % {
            "name": who,
            "color": color_name(data.get("color")),
        }
    if kind == "taki_closed":
        return _("%(name)s closes the TAKI run") % {"name": who}
    if kind == "taki_passed":
        return _("%(name)s passes and leaves the TAKI run open") % {"name": who}
    if kind == "announced":
        return _("%(name)s says “last card”") % {"name": who}
    if kind == "stage":
        return _("%(name)s cleared a hand: stage %(count)d next") % {"name": who, "count": count}
    if kind == "reshuffled":
        return ngettext(
            "%(count)d card is shuffled into a new draw pile",
            "%(count)d cards are shuffled into a new draw pile",
            count,
        ) % {"count": count}
    if kind == "won":
        return _("%(name)s wins the game") % {"name": who}
    if kind == "turn":
        return _("it is %(name)s’s turn") % {"name": who}
    return _("something happened")


def describe_takeover(name: str, because: str) -> str:
    """Why a bot took the seat of the person ``name`` (a ``Seat.Takeover``), for the table's
    log: the move log records moves only, the table records the takeover."""
    if because == "timeouts":  # R23
        return _("%(name)s timed out three times; a bot plays for them") % {"name": name}
    if because == "banned":
        return _("%(name)s was banned; a bot plays for them") % {"name": name}
    return _("%(name)s left; a bot plays for them") % {"name": name}


# Events that only restate what the table already shows; a move's sentence leaves them out.
QUIET_KINDS = frozenset({"turn"})


def describe_move(events: Iterable[Mapping[str, Any] | Event], names: Sequence[str]) -> str:
    """One move's events as one sentence: "dana played blue +2 — the +2 stack is now 4"."""
    parts = []
    for event in events:
        data = event.to_json() if isinstance(event, Event) else event
        if data.get("kind") not in QUIET_KINDS:
            parts.append(describe_event(data, names))
    return " — ".join(parts)


def describe_table_move(move: Mapping[str, Any], names: Sequence[str], announced: bool) -> str:
    """A stored move (``events``, ``seat``, ``source``) as the table's log shows it: marked when
    the server played it because its player ran out of time (R23), and with "last card" when it
    was said on the play itself (``announced``, R20), which the engine logs as no event."""
    text = describe_move(move["events"], names)
    who = _name(names, move.get("seat"))
    if announced:
        text += " — " + _("%(name)s: last card!") % {"name": who}
    if move.get("source") == "timeout":
        text = _("%(name)s ran out of time; the server played for them: %(move)s") % {
            "name": who,
            "move": text,
        }
    return text
