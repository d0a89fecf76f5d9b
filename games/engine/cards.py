"""Cards and the deck (R1, R2).

Every card code names one interned :class:`Card`; the two copies of a card share it, so cards are
compared by identity and a hand is a plain list of them.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Final

COLORS: Final = ("red", "yellow", "green", "blue")
NUMBERS: Final = ("1", "3", "4", "5", "6", "7", "8", "9")  # R1: no 2, the +2 takes its place
ACTIONS: Final = ("stop", "plus2", "direction", "plus", "taki")
COLORLESS: Final = ("super-taki", "king", "plus3", "breaker", "change-color")

# R6: these never become the leading card; the card under them leads.
TRANSPARENT: Final = frozenset({"king", "plus3", "breaker"})


class Card:
    """One card code of R2: ``red:7``, ``blue:plus2``, ``king`` …

    ``color`` is None for the colourless cards. ``symbol`` is what R7 matches on: a Super TAKI
    counts as a TAKI, so its symbol is ``taki``.
    """

    __slots__ = ("code", "color", "symbol", "is_number", "is_transparent")

    code: str
    color: str | None
    symbol: str
    is_number: bool
    is_transparent: bool

    def __init__(self, code: str) -> None:
        color, _, symbol = code.rpartition(":")
        self.code = code
        self.color = color or None
        self.symbol = "taki" if code == "super-taki" else symbol
        self.is_number = symbol in NUMBERS
        self.is_transparent = code in TRANSPARENT

    @staticmethod
    def from_code(code: str) -> Card:
        """The card with this code.

        :raises ValueError: the code names no card of R2.
        """
        try:
            return CARDS[code]
        except (KeyError, TypeError):
            raise ValueError(f"unknown card code {code!r}") from None

    def __repr__(self) -> str:
        return f"Card({self.code!r})"

    def __reduce__(self) -> tuple:  # keep cards interned through pickle and copy
        return (Card.from_code, (self.code,))


def _all_codes() -> list[str]:
    coloured = [f"{c}:{s}" for c in COLORS for s in (*NUMBERS, *ACTIONS)]
    return coloured + list(COLORLESS)


CARDS: Final[dict[str, Card]] = {code: Card(code) for code in _all_codes()}

KING: Final = CARDS["king"]
PLUS3: Final = CARDS["plus3"]
BREAKER: Final = CARDS["breaker"]
SUPER_TAKI: Final = CARDS["super-taki"]
CHANGE_COLOR: Final = CARDS["change-color"]


def deck_codes() -> list[str]:
    """The 116 cards of R1 as codes, in a fixed order (two of each, four Change Color)."""
    codes: list[str] = []
    for code in CARDS:
        copies = 4 if code == "change-color" else 2
        codes.extend([code] * copies)
    return codes


DECK_COUNTS: Final[Counter[str]] = Counter(deck_codes())
assert sum(DECK_COUNTS.values()) == 116


def is_full_deck(codes: list[str]) -> bool:
    """True if ``codes`` holds exactly the 116 cards of R1, in any order."""
    return len(codes) == 116 and Counter(codes) == DECK_COUNTS


def shuffled_deck(rng: random.Random) -> list[str]:
    """A freshly shuffled deck, top card first (R4)."""
    codes = deck_codes()
    rng.shuffle(codes)
    return codes
