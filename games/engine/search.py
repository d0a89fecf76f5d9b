"""Choosing a move without seeing the other hands: determinized Monte Carlo search.

A seat does not know the other hands nor the order of the draw pile. The search therefore never
reads a :class:`GameState` of the real game: it works from a :class:`SeatKnowledge`, which
:func:`seat_knowledge` builds from the seat's own perspective (``perspectives.seat_view``: its own
hand, the public table, every hand's size) and the cards everyone saw played, plus what the seat
learnt by watching the others (:class:`TableMemory`: a player who drew when they could have
followed probably holds nothing that follows).

To search, the unseen cards (the deck less the seat's own hand and the discard pile) are dealt at
random into the other hands, by their known sizes and within what was learnt, and into the draw
pile: one *determinization* of the game. Every candidate move is played out from the same
determinizations to the end of the game by a quick policy, the candidates that win least are
dropped round by round (sequential halving) so that the budget goes to the close calls, and the
policy's own choice stands unless another move clearly beat it. The budget is a number of
playouts, not a time, so a seed always gives the same move.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

from .actions import ACCEPT, CLOSE_TAKI, DRAW, LAST_CARD, PLAY, Action
from .cards import BREAKER, CARDS, DECK_COUNTS, KING, Card
from .perspectives import seat_view
from .playouts import Policy, playout
from .state import KING_FOLLOW_UP, GameState, Plus3, TakiRun

NOTHING: frozenset[Card] = frozenset()
_DECK: tuple[Card, ...] = tuple(CARDS[code] for code in DECK_COUNTS.elements())
_PLUS2_OR_KING = frozenset({KING, *(c for c in CARDS.values() if c.symbol == "plus2")})


@dataclass(frozen=True)
class SeatKnowledge:
    """Everything one seat knows of a game, and nothing else.

    ``hand`` is the seat's own hand, sorted by code; ``discard`` is the discard pile, oldest
    first (every card on it was played in front of everyone, R6, R9); ``beliefs`` holds, for every
    seat, one set per card in that hand (oldest card first) of the cards it is believed not to be.
    """

    seat: int
    players: int
    tournament: bool
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    discard: tuple[Card, ...]
    draw_pile: int
    active_color: str
    current: int
    direction: int
    plus2_stack: int
    plus3: tuple[int, tuple[int, ...]] | None
    taki_run: tuple[str, int, bool, int] | None
    follow_up: str | None
    debts: tuple[bool, ...]
    announced: tuple[bool, ...]
    stages: tuple[int, ...] | None
    reshuffles: int
    moves: int
    beliefs: tuple[tuple[frozenset[Card], ...], ...]

    @cached_property
    def unseen(self) -> tuple[Card, ...]:
        """The cards this seat has not seen where they are: the other hands and the draw pile,
        in the deck's fixed order (never in the real game's)."""
        left: dict[Card, int] = {}
        for card in _DECK:
            left[card] = left.get(card, 0) + 1
        for card in self.hand:
            left[card] -= 1
        for card in self.discard:
            left[card] -= 1
        return tuple(card for card, count in left.items() for _ in range(count))


def seat_knowledge(game: GameState, seat: int, memory: TableMemory | None = None) -> SeatKnowledge:
    """Reduce ``game`` to what ``seat`` may know: its own view of the table (no card of another
    hand, not the order of the draw pile), the cards played, and what ``memory`` learnt."""
    view = seat_view(game, seat)
    run = game.taki_run  # its colour, player and state are in the view; how long it is, is public
    pending = view["plus3_pending"]
    sizes = tuple(view["hand_sizes"])
    beliefs = memory.beliefs(sizes) if memory is not None else _no_beliefs(sizes)
    return SeatKnowledge(
        seat=seat,
        players=game.players,
        tournament=game.tournament,
        hand=tuple(CARDS[code] for code in view["hand"]),
        hand_sizes=sizes,
        discard=tuple(game.discard),  # every card on it was played in the open
        draw_pile=view["draw_pile"],
        active_color=view["active_color"],
        current=view["current_player"],
        direction=view["direction"],
        plus2_stack=view["plus2_stack"],
        plus3=(pending["by"], tuple(pending["waiting"])) if pending else None,
        taki_run=(run.color, run.player, run.open, run.played) if run is not None else None,
        follow_up=view["follow_up"],
        debts=tuple(game.debts),  # R20: everyone saw the play to one card and heard no call
        announced=tuple(view["announced"]),
        stages=tuple(view["stages"]) if view["stages"] is not None else None,
        reshuffles=game.reshuffles,
        moves=view["version"],
        beliefs=beliefs,
    )


def _no_beliefs(sizes: Sequence[int]) -> tuple[tuple[frozenset[Card], ...], ...]:
    return tuple((NOTHING,) * size for size in sizes)


class Moment(NamedTuple):
    """The public table just before an action: what a watcher reads the action against."""

    active_color: str
    leading: Card
    follow_up: str | None
    plus2_stack: int
    plus3_pending: bool
    current: int
    hand_sizes: tuple[int, ...]


def public_moment(game: GameState) -> Moment:
    """The public facts of ``game`` that :class:`TableMemory` reads (no card of any hand)."""
    return Moment(
        game.active_color,
        game.leading,
        game.follow_up,
        game.plus2_stack,
        game.plus3 is not None,
        game.current,
        tuple(len(hand) for hand in game.hands),
    )


class TableMemory:
    """What a watcher learns from the others' moves, card by card.

    For every seat it keeps one set per card in the hand, oldest card first, of the cards that one
    is believed not to be. A player who draws instead of playing is believed to hold nothing they
    would have played (keeping a Breaker for a +3 and a Plus with nothing to follow it are good
    reasons, so those are not ruled out); one who accepts a +3 holds no Breaker. A card drawn
    later is unknown again. If a player plays a card they were believed not to hold, what was
    believed of them is forgotten: they do not play the way we assumed.
    """

    def __init__(self, players: int) -> None:
        self.slots: list[list[frozenset[Card]]] = [[] for _ in range(players)]

    def watch(self, moment: Moment, action: Action) -> None:
        """Learn from ``action``, seen on the table ``moment`` just before it was applied."""
        seat = action.player
        slots = self._sync(seat, moment.hand_sizes[seat])
        kind = action.type
        if kind == PLAY:
            card = action.card
            for index in range(len(slots) - 1, -1, -1):  # the newest card that may be it
                if card not in slots[index]:
                    del slots[index]
                    return
            slots[:] = [NOTHING] * (len(slots) - 1)
            return
        if kind == DRAW:
            ruled_out = _would_have_played(moment)
        elif kind == ACCEPT:  # R18, R19: no Breaker to bounce it, no King to cancel it
            ruled_out = frozenset({BREAKER, KING}) if seat == moment.current else _BREAKER_ONLY
        else:
            return
        slots[:] = [known | ruled_out for known in slots]

    def beliefs(self, sizes: Sequence[int]) -> tuple[tuple[frozenset[Card], ...], ...]:
        """The beliefs for hands of these ``sizes`` (the cards drawn since are unknown)."""
        return tuple(tuple(self._sync(seat, size)) for seat, size in enumerate(sizes))

    def _sync(self, seat: int, size: int) -> list[frozenset[Card]]:
        slots = self.slots[seat]
        if len(slots) < size:
            slots.extend([NOTHING] * (size - len(slots)))
        elif len(slots) > size:
            del slots[size:]
        return slots


_BREAKER_ONLY = frozenset({BREAKER})
_FOLLOWERS: dict[tuple[str, str, bool], frozenset[Card]] = {}


def _would_have_played(moment: Moment) -> frozenset[Card]:
    """The cards a sensible player who drew at ``moment`` would not be holding."""
    if moment.plus3_pending:
        return NOTHING
    if moment.plus2_stack:  # R10: a +2 would pass the stack on, a King cancel it
        return _PLUS2_OR_KING
    key = (moment.active_color, moment.leading.symbol, moment.follow_up == KING_FOLLOW_UP)
    known = _FOLLOWERS.get(key)
    if known is None:
        color, symbol, anything = key
        known = _FOLLOWERS[key] = frozenset(
            card
            for card in CARDS.values()
            if card is not BREAKER
            and card.symbol != "plus"
            and (anything or card.color in (None, color) or card.symbol == symbol)  # R7, R16
        )
    return known


def determinize(knowledge: SeatKnowledge, rng: random.Random) -> GameState:
    """One game consistent with ``knowledge``: the unseen cards dealt at random into the other
    hands (each card within what is believed of it, where the cards allow) and the draw pile."""
    pool = list(knowledge.unseen)
    rng.shuffle(pool)
    seat = knowledge.seat
    hands: list[list[Card]] = []
    for other, size in enumerate(knowledge.hand_sizes):
        if other == seat:
            hands.append(list(knowledge.hand))
            continue
        hand: list[Card] = []
        # The most constrained cards first, while the pool still has the most to choose from.
        for ruled_out in sorted(knowledge.beliefs[other][:size], key=len, reverse=True):
            index = len(pool) - 1
            if ruled_out:
                while index >= 0 and pool[index] in ruled_out:
                    index -= 1
                if index < 0:
                    index = len(pool) - 1  # nothing fits: the belief was wrong
            pool[index], pool[-1] = pool[-1], pool[index]
            hand.append(pool.pop())
        hands.append(hand)
    game = GameState.__new__(GameState)
    game.players = knowledge.players
    # R9: the real seed would tell the order of every reshuffle; a determinization has its own.
    game.seed = f"{rng.getrandbits(64):016x}"
    game.tournament = knowledge.tournament
    game.hands = hands
    game.draw_pile = pool
    game.discard = list(knowledge.discard)
    game.leading = next(card for card in reversed(knowledge.discard) if not card.is_transparent)
    game.active_color = knowledge.active_color
    game.current = knowledge.current
    game.direction = knowledge.direction
    game.plus2_stack = knowledge.plus2_stack
    pending = knowledge.plus3
    game.plus3 = Plus3(pending[0], list(pending[1])) if pending is not None else None
    game.taki_run = TakiRun(*knowledge.taki_run) if knowledge.taki_run is not None else None
    game.follow_up = knowledge.follow_up
    game.debts = list(knowledge.debts)
    game.announced = list(knowledge.announced)
    game.stages = list(knowledge.stages) if knowledge.stages is not None else None
    game.winner = None
    game.reshuffles = knowledge.reshuffles
    game.moves = knowledge.moves
    return game


def candidate_moves(game: GameState, seat: int, policy: Policy) -> list[Action]:
    """The moves worth searching for ``seat``: its legal actions, the policy's choice first (it
    wins ties), "last card" said on every play and close that leaves one card (R20)."""
    legal = game.legal_actions(seat)
    last = len(game.hands[seat]) == 1
    if last and game.debts[seat]:
        return [Action(LAST_CARD, seat)]  # R20: free now, four cards later
    keep_one = len(game.hands[seat]) == 2
    moves: list[Action] = []
    for action in legal:
        if action.type == LAST_CARD:
            continue
        if (action.type == PLAY and keep_one) or (action.type == CLOSE_TAKI and last):
            action = action.announcing()
        moves.append(action)
    preferred = policy(game, seat)
    for index, action in enumerate(moves):
        if action.move == preferred.move:
            moves.insert(0, moves.pop(index))
            break
    return moves


def search(
    knowledge: SeatKnowledge,
    rng: random.Random,
    playouts: int,
    policy: Policy,
    margin: float = 1.0,
    place_weight: float = 0.0,
) -> Action:
    """The move for ``knowledge.seat`` that did best in about ``playouts`` games played out by
    ``policy`` from determinizations of what the seat knows.

    Every move is compared with the policy's own choice on the same deals (paired, so that the
    luck of a deal cancels out), and replaces it only when it won more by ``margin`` standard
    errors: with few playouts the policy's judgement is worth more than a lucky deal. A playout
    is worth 1 if the seat wins it and, at a table of more than two, ``place_weight`` times its
    place among the losers if not (games/engine/playouts.py).
    """
    seat = knowledge.seat
    first = determinize(knowledge, rng)
    moves = candidate_moves(first, seat, policy)
    if len(moves) == 1 or playouts < 2 * len(moves):
        return moves[0]
    # moves[0], the policy's choice, is never dropped: the others are measured against it.
    gain = [0.0] * len(moves)
    gain_squares = [0.0] * len(moves)
    deals = [0] * len(moves)
    alive = list(range(len(moves)))
    rounds = max(1, (len(moves) - 1).bit_length())  # ceil(log2) halvings down to two
    sample: GameState | None = first
    for round_number in range(rounds):
        for _ in range(max(1, playouts // rounds // len(alive))):
            deal = sample if sample is not None else determinize(knowledge, rng)
            sample = None
            results = []
            for index in alive:
                game = deal.copy()
                game.apply(moves[index])
                results.append(playout(game, seat, policy, place_weight=place_weight))
            base = results[0]
            for index, result in zip(alive, results, strict=True):
                difference = result - base
                gain[index] += difference
                gain_squares[index] += difference * difference
                deals[index] += 1
        if round_number < rounds - 1:
            rivals = sorted(alive[1:], key=lambda i: (-gain[i] / deals[i], i))
            alive = [0, *sorted(rivals[: len(rivals) // 2 or 1])]
    best = max(alive, key=lambda i: (gain[i] / deals[i], -i))
    if best == 0:
        return moves[0]
    n = deals[best]
    mean = gain[best] / n
    spread = max(gain_squares[best] / n - mean * mean, 0.0)
    return moves[best] if mean > margin * math.sqrt(spread / n) else moves[0]
