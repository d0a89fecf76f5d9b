"""Building games by hand for the rule tests: a 116-card deck that states exactly the hands, the
leading card and the top of the draw pile, and short ways to write actions.

Everything here is written from docs/rules.md and docs/record-format.md, not from the engine: the
deal of R4 (seat k gets positions k, k+n, k+2n, …) is done here again, so a test that builds a
deck with :func:`make_deck` also checks that the engine deals the same way.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.engine import Action, GameState, play

COLORS = ("red", "yellow", "green", "blue")
NUMBERS = ("1", "3", "4", "5", "6", "7", "8", "9")
ACTION_SYMBOLS = ("stop", "plus2", "direction", "plus", "taki")
COLORLESS = ("super-taki", "king", "plus3", "breaker", "change-color")
HAND_SIZE = 8


def full_deck() -> Counter[str]:
    """R1, R2: the 116 cards as a multiset of codes."""
    deck: Counter[str] = Counter()
    for color in COLORS:
        for symbol in (*NUMBERS, *ACTION_SYMBOLS):
            deck[f"{color}:{symbol}"] = 2
    for code in COLORLESS:
        deck[code] = 4 if code == "change-color" else 2
    return deck


def _filler_order() -> list[str]:
    """Fillers least likely to disturb a test: yellow and green numbers first, then blue and red
    numbers, then coloured action cards, colourless cards last."""
    order = [f"{c}:{n}" for c in ("yellow", "green", "blue", "red") for n in NUMBERS]
    order += [f"{c}:{s}" for c in ("yellow", "green", "blue", "red") for s in ACTION_SYMBOLS]
    order += ["change-color", "super-taki", "plus3", "breaker", "king"]
    return order


@dataclass
class Deal:
    """A hand-built deck and what R4 makes of it."""

    deck: list[str]  # top card first, before the deal
    hands: list[list[str]]  # full hands, in dealing order
    leading: str | None
    draw: list[str] = field(default_factory=list)  # the draw pile after the leading card, top first

    def __iter__(self):  # a Deal can be passed where the deck list is wanted
        return iter(self.deck)

    def __len__(self) -> int:
        return len(self.deck)


def make_deck(
    hands: Sequence[Sequence[str]],
    leading: str | None = None,
    draw: Sequence[str] = (),
    fill: Iterable[str] | None = None,
) -> Deal:
    """A deck (top first) dealing exactly ``hands`` (each filled up to 8 cards), then ``leading``
    turned over, then ``draw`` on top of the draw pile, then every other card.

    ``fill`` gives the filler cards in the order to use them; by default number cards of yellow
    and green first (see :func:`_filler_order`). With ``leading=None`` no leading card is placed:
    the engine turns over ``draw[0]`` (for the tests of R4).
    """
    pool = full_deck()

    def take(code: str) -> str:
        if pool[code] <= 0:
            raise ValueError(f"no copy of {code!r} left for this deck")
        pool[code] -= 1
        return code

    players = len(hands)
    assert 2 <= players <= 10
    wanted = [[take(c) for c in hand] for hand in hands]
    head = [take(leading)] if leading is not None else []
    top = [take(c) for c in draw]
    fillers = list(fill) if fill is not None else _filler_order()
    full_hands: list[list[str]] = []
    for hand in wanted:
        assert len(hand) <= HAND_SIZE, hand
        hand = list(hand)
        while len(hand) < HAND_SIZE:
            code = next((c for c in fillers if pool[c] > 0), None)
            if code is None:
                raise ValueError("no filler card left")
            hand.append(take(code))
        full_hands.append(hand)
    dealt = [full_hands[k % players][k // players] for k in range(HAND_SIZE * players)]
    rest = [code for code in _filler_order() for _ in range(pool[code])]
    deck = dealt + head + top + rest
    assert Counter(deck) == full_deck() and len(deck) == 116
    return Deal(deck, full_hands, leading, top + rest)


def new_game(
    hands: Sequence[Sequence[str]],
    leading: str | None = "red:5",
    draw: Sequence[str] = (),
    *,
    first: int = 0,
    seed: str = "test",
    tournament: bool = False,
    fill: Iterable[str] | None = None,
) -> GameState:
    """A game on :func:`make_deck`'s deck."""
    deal = make_deck(hands, leading, draw, fill)
    return GameState(deal.deck, len(hands), first, seed, tournament)


def draw(seat: int) -> Action:
    return Action("draw", seat)


def close(seat: int, last_card: bool = False) -> Action:
    return Action("close_taki", seat, last_card=last_card)


def pass_(seat: int) -> Action:
    return Action("pass", seat)


def accept(seat: int) -> Action:
    return Action("accept", seat)


def announce(seat: int) -> Action:
    return Action("last_card", seat)


def run(game: GameState, actions: Iterable[Action]) -> dict[str, Any]:
    """Apply ``actions`` in order and return the state (the replay's ``state``,
    docs/record-format.md)."""
    for action in actions:
        game.apply(action)
    return game.state_json()


def hand(game: GameState, seat: int) -> list[str]:
    """A hand as the state prints it: sorted codes."""
    return sorted(card.code for card in game.hands[seat])


def sort(codes: Iterable[str]) -> list[str]:
    return sorted(codes)


def moves(actions: Iterable[Action]) -> set[tuple]:
    """Actions compared as moves, without the ``last_card`` flag."""
    return {(a.type, a.player, a.card.code if a.card else None, a.color) for a in actions}


__all__ = [
    "Deal",
    "accept",
    "announce",
    "close",
    "draw",
    "full_deck",
    "hand",
    "make_deck",
    "moves",
    "new_game",
    "pass_",
    "play",
    "run",
    "sort",
]
