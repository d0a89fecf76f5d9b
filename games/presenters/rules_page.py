"""The rules page: every card face as the table draws it, with what it does (docs/rules.md), and
the bot levels a table offers, with how strong each was measured to be (docs/bots.md)."""

from __future__ import annotations

from typing import Any

from django.utils import formats
from django.utils.translation import gettext_lazy as _

from games.models import BOT_LEVELS

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

# How each level plays (games.engine.bots.LEVELS' descriptions, in the players' words).
LEVEL_PLAY = {
    "beginner": _("Plays any card it may, at random."),
    "easy": _("Plays its best-looking card, keeps a King and a Breaker for defence."),
    "medium": _("Tries out its moves on a few guesses of the hidden cards."),
    "hard": _("Tries its moves on many guesses and reads what you cannot hold."),
    "expert": _("Thinks hardest: the strongest player on the site."),
}

# The measured strength of each level: its two-player games against the level below it in the
# arena (docs/bots.md, "Measured"; ``make bench-bots`` measures them again). The one place the
# site keeps these figures: the rules page draws them.
LEVEL_STRENGTH: dict[str, tuple[str, float, int]] = {
    # level: (the level below, the share of games it won, games played)
    "easy": ("beginner", 0.983, 400),
    "medium": ("easy", 0.560, 400),
    "hard": ("medium", 0.570, 400),
    "expert": ("hard", 0.555, 400),
}
# The top level at a table of four, the other three seats held by the level named (25% is even).
LEVEL_TABLE_STRENGTH: dict[str, tuple[str, float, int]] = {
    # level: (the level in the other seats, the share of games it won, games played)
    "expert": ("easy", 0.344, 1600),
}


def bot_levels() -> list[dict[str, Any]]:
    """Each level a table offers, weakest first: its name, how it plays, how strong it is."""
    names = dict(BOT_LEVELS)
    levels = []
    for name, label in BOT_LEVELS:
        strength = ""
        if name in LEVEL_STRENGTH:
            below, rate, games = LEVEL_STRENGTH[name]
            strength = _(
                "Wins %(rate)d%% of two-player games against the %(opponent)s (%(games)s games)."
            ) % {"rate": round(rate * 100), "opponent": names[below], "games": _count(games)}
        if name in LEVEL_TABLE_STRENGTH:
            others, rate, games = LEVEL_TABLE_STRENGTH[name]
            strength += " " + _(
                "Wins %(rate)d%% of four-player games against the %(opponent)s in the other "
                "three seats (%(games)s games)."
            ) % {"rate": round(rate * 100), "opponent": names[others], "games": _count(games)}
        levels.append(
            {"name": name, "label": label, "play": LEVEL_PLAY[name], "strength": strength}
        )
    return levels


def _count(games: int) -> str:
    """A number of games as the visitor's language writes it (1,600; 1.600)."""
    return formats.number_format(games, force_grouping=True)


def rules_context() -> dict[str, Any]:
    return {
        "legend": [{"code": code, "rule": rule, "text": text} for code, rule, text in CARD_LEGEND],
        "colors": COLORS,
        "bot_levels": bot_levels(),
    }
