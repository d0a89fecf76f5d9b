"""The rules page: every card face as the table draws it, with what it does (RULES.md)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

# One example of each kind of card (R1, R2), and what it does, with the rule it follows.
CARD_LEGEND = (
    ("red:7", "R7", _("A number card: play it on the same colour or the same number.")),
    ("yellow:stop", "R12", _("Stop: the next player is skipped.")),
    (
        "green:plus2",
        "R10",
        _("+2: the next player draws 2, unless they answer with a +2 (the stack grows) or a King."),
    ),
    ("blue:direction", "R13", _("Change Direction: play goes the other way round.")),
    ("red:plus", "R17", _("Plus: play one more card, or draw one.")),
    (
        "yellow:taki",
        "R14",
        _("TAKI: play more cards of its colour in the same turn, then close the run."),
    ),
    ("super-taki", "R15", _("Super TAKI: a TAKI in the colour in play; plays on anything.")),
    (
        "king",
        "R16",
        _("King: plays on anything, cancels a +2 stack or a +3; then play any card or draw one."),
    ),
    ("plus3", "R18", _("+3: every other player draws 3, unless someone breaks it.")),
    (
        "breaker",
        "R19",
        _(
            "+3 Breaker: answers a +3, even out of turn: the +3's player draws 3. "
            "Played otherwise, its own player draws 3."
        ),
    ),
    ("change-color", "R11", _("Change Color: you name the colour the next player follows.")),
)

COLORS = ("red", "yellow", "green", "blue")


def rules_context() -> dict[str, Any]:
    return {
        "legend": [{"code": code, "rule": rule, "text": text} for code, rule, text in CARD_LEGEND],
        "colors": COLORS,
    }
