"""The playouts of the search: the quick player that moves every seat, a game played out to its
end, and what that end is worth to the seat that searches.

A playout is won or lost, but at a table of more than two a lost game still says something: the
seat that finished with two cards was nearer winning than the one left with twelve. The search may
count a loser's place for a share of a win (``place_weight``), which makes two moves' playouts
differ less by luck, so that a real difference between them shows sooner.
"""

from __future__ import annotations

from collections.abc import Callable

from .actions import ACCEPT, CLOSE_TAKI, DRAW, LAST_CARD, PASS, PLAY, Action
from .cards import BREAKER, CHANGE_COLOR, COLORS, KING, PLUS3, SUPER_TAKI, Card
from .state import KING_FOLLOW_UP, GameState

Policy = Callable[[GameState, int], Action]
"""A quick player for the playouts: given a game and a seat to act, one legal action."""

# A playout that runs this long (players drawing for ever) is judged on the hands it reached.
PLAYOUT_LIMIT = 200


def playout(
    game: GameState,
    seat: int,
    policy: Policy,
    limit: int = PLAYOUT_LIMIT,
    place_weight: float = 0.0,
) -> float:
    """Play ``game`` out with ``policy`` in every seat, at most ``limit`` actions, and return what
    the end is worth to ``seat`` (:func:`outcome`)."""
    apply = game.apply
    for _ in range(limit):
        if game.winner is not None:
            break
        pending = game.plus3
        actor = pending.waiting[0] if pending is not None else game.current
        apply(policy(game, actor))
    return outcome(game, seat, place_weight)


def outcome(game: GameState, seat: int, place_weight: float = 0.0) -> float:
    """What the end of ``game`` is worth to ``seat``: 1 if it won (R21, R22), and a loser
    ``place_weight`` times the share of the other losers it finished ahead of (fewer cards left;
    in a tournament, a lower stage first), a tie counted half. A game cut before anyone won goes
    to the seats nearest the end, shared among ties, and the others are placed the same way.
    Heads-up there is no other loser: a win is 1 and a loss 0, whatever the weight."""
    winner = game.winner
    if winner is not None and not place_weight:
        return 1.0 if winner == seat else 0.0
    stages = game.stages or [0] * game.players
    standing = [(stages[s], len(hand)) for s, hand in enumerate(game.hands)]
    if winner is not None:
        standing[winner] = (-1, 0)  # R21: out first, whatever the others hold
    best = min(standing)
    mine = standing[seat]
    if mine == best:
        return 1.0 / standing.count(best)
    losers = [place for place in standing if place != best]
    if len(losers) == 1:
        return 0.0
    ahead = sum(1.0 if mine < place else 0.5 if mine == place else 0.0 for place in losers)
    return place_weight * (ahead - 0.5) / (len(losers) - 1)  # less the half-tie with itself


def quick_player(game: GameState, seat: int) -> Action:
    """The playouts' player: the greedy bot's judgement (games/engine/bots.py) in a few
    comparisons, since it moves thousands of times per decision. It answers stacks, keeps King
    and Breaker for defence, plays its runs out, names its majority colour, says "last card"."""
    hand = game.hands[seat]
    announce = len(hand) == 2  # R20: the play leaves one card
    if game.plus3 is not None:  # R18, R19: bounce it, cancel it, or take it
        if BREAKER in hand:
            return Action(PLAY, seat, BREAKER, None, announce)
        if KING in hand and seat == game.current:
            return Action(PLAY, seat, KING, None, announce)
        return Action(ACCEPT, seat)
    if len(hand) == 1 and game.debts[seat]:
        return Action(LAST_CARD, seat)
    if game.plus2_stack:  # R10: pass it on, cancel it, or draw it
        for card in hand:
            if card.symbol == "plus2":
                return Action(PLAY, seat, card, None, announce)
        if KING in hand:
            return Action(PLAY, seat, KING, None, announce)
        return Action(DRAW, seat)
    run = game.taki_run
    if run is not None and run.player == seat and not run.open:  # R14: our own run
        other = None
        for card in hand:
            if card.color == run.color:
                if card.is_number:
                    return Action(PLAY, seat, card, None, announce)
                if other is None or other.symbol == "plus2":
                    other = card  # end the run on an action card, where it takes effect
        if other is not None:
            return Action(PLAY, seat, other, None, announce)
        if run.played:
            return Action(CLOSE_TAKI, seat, None, None, len(hand) == 1)
        return Action(PASS, seat)
    counts = dict.fromkeys(COLORS, 0)
    for card in hand:
        if card.color is not None:
            counts[card.color] += 1
    low = False
    for other_seat, other_hand in enumerate(game.hands):
        if other_seat != seat and len(other_hand) <= 2:
            low = True
            break
    anything = game.follow_up == KING_FOLLOW_UP  # R16: no matching
    active = game.active_color
    symbol = game.leading.symbol
    best: Card | None = None
    best_score = 0.0
    has_king = has_change = False
    for card in hand:
        color = card.color
        if color is None:
            if card is KING:
                has_king = True
                score = 0.5 if anything else -1.0
            elif card is CHANGE_COLOR:
                has_change = True
                continue
            elif card is PLUS3:
                score = 6.0 if low else 2.5
            elif card is SUPER_TAKI:
                score = 1.0 + 2 * counts[active] if counts[active] >= 2 else 0.5
            else:
                continue  # R19b: a Breaker costs three cards; keep it for a +3
        elif anything or color == active or card.symbol == symbol:  # R7
            score = 2.0 + 0.5 * counts[color]
            kind = card.symbol
            if kind == "taki":
                score += 2 * (counts[color] - 1)
            elif kind == "plus2" or kind == "stop":
                score += 3 if low else 1
            elif kind == "plus":  # R17: only with a card to follow it
                score += 1.5 if counts[color] > 1 or len(hand) > counts[color] + 1 else -3
        else:
            continue
        if score > best_score:
            best, best_score = card, score
    if best is not None:
        return Action(PLAY, seat, best, None, announce)
    if has_change:
        majority = max(COLORS, key=counts.__getitem__)
        return Action(PLAY, seat, CHANGE_COLOR, majority, announce)
    if has_king:
        return Action(PLAY, seat, KING, None, announce)
    return Action(DRAW, seat)
