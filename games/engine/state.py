"""The state of one TAKI game and the rules that change it (docs/rules.md R3–R22).

``GameState.apply`` is the one way a game changes: it validates an :class:`Action`, raises
:class:`IllegalAction` with a docs/record-format.md error code if the rules refuse it, and otherwise
applies it and returns the :class:`Event` list of what happened. ``GameState.legal_actions``
lists what a seat may do now; the two are kept in agreement by property tests.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .actions import (
    ACCEPT,
    BAD_ACTION,
    CANNOT_ANNOUNCE,
    CANNOT_CLOSE,
    CANNOT_DRAW,
    CANNOT_PASS,
    CARD_NOT_IN_HAND,
    CLOSE_TAKI,
    COLOR_REQUIRED,
    DRAW,
    GAME_OVER,
    ILLEGAL_CARD,
    LAST_CARD,
    MUST_ANSWER,
    NOT_YOUR_TURN,
    PASS,
    PLAY,
    Action,
    Event,
    IllegalAction,
)
from .cards import BREAKER, CARDS, CHANGE_COLOR, COLORS, KING, SUPER_TAKI, Card
from .effects import CardEffects
from .pending import KING_FOLLOW_UP, Plus3, TakiRun
from .snapshots import Snapshots

HAND_SIZE = 8  # R4
FIRST_STAGE = 8  # R22

# Actions are immutable, so legal_actions hands out these interned ones instead of building new
# tuples on every call (it is the engine's hot path).
_SEATS = range(10)
_PLAYS = [{card: Action(PLAY, seat, card) for card in CARDS.values()} for seat in _SEATS]
_CHANGE_COLORS = [[Action(PLAY, seat, CHANGE_COLOR, c) for c in COLORS] for seat in _SEATS]
_DRAWS = [Action(DRAW, seat) for seat in _SEATS]
_ACCEPTS = [Action(ACCEPT, seat) for seat in _SEATS]
_CLOSES = [Action(CLOSE_TAKI, seat) for seat in _SEATS]
_PASSES = [Action(PASS, seat) for seat in _SEATS]
_LAST_CARDS = [Action(LAST_CARD, seat) for seat in _SEATS]
_STACKABLE = frozenset({KING, *(c for c in CARDS.values() if c.symbol == "plus2")})  # R10, R16


class GameState(CardEffects, Snapshots):
    """One game, from the deal to the win. What a card does once it is down, and a hand going
    out, are :class:`~games.engine.effects.CardEffects`; the game written out and read back is
    :class:`~games.engine.snapshots.Snapshots`.

    :param deck: the 116 card codes, top card first, before the deal (R4).
    :param players: the number of seats, 2 to 10 (R3).
    :param first_player: the seat that starts (R5).
    :param seed: the record's seed; it drives the reshuffles of R9.
    :param tournament: play the eight stages of R22.
    """

    __slots__ = (
        "players",
        "seed",
        "tournament",
        "hands",
        "draw_pile",
        "discard",
        "leading",
        "active_color",
        "current",
        "direction",
        "plus2_stack",
        "plus3",
        "taki_run",
        "follow_up",
        "debts",
        "announced",
        "stages",
        "winner",
        "reshuffles",
        "moves",
    )

    def __init__(
        self,
        deck: Sequence[str],
        players: int,
        first_player: int = 0,
        seed: str = "",
        tournament: bool = False,
    ) -> None:
        if not 2 <= players <= 10:
            raise ValueError("a game has 2 to 10 players (R3)")
        if not 0 <= first_player < players:
            raise ValueError(f"no seat {first_player} for the first player")
        cards = [Card.from_code(code) for code in deck]
        self.players = players
        self.seed = seed
        self.tournament = tournament
        dealt = HAND_SIZE * players
        # R4: seat k gets positions k, k+n, k+2n, …
        self.hands: list[list[Card]] = [cards[k:dealt:players] for k in range(players)]
        rest = cards[dealt:]
        leading = _turn_leading_card(rest)
        self.draw_pile: list[Card] = rest[::-1]  # top card last, so that a draw is a pop()
        self.discard: list[Card] = [leading]  # oldest first
        self.leading: Card = leading
        self.active_color: str = leading.color  # type: ignore[assignment]  # R4: always coloured
        self.current = first_player
        self.direction = 1  # R3
        self.plus2_stack = 0
        self.plus3: Plus3 | None = None
        self.taki_run: TakiRun | None = None
        self.follow_up: str | None = None
        self.debts = [False] * players  # R20: played down to one card and not announced
        self.announced = [False] * players  # said "last card" and still holds that one card
        self.stages: list[int] | None = [FIRST_STAGE] * players if tournament else None
        self.winner: int | None = None
        self.reshuffles = 0
        self.moves = 0  # actions applied; the state's version

    # ------------------------------------------------------------------ queries

    @property
    def finished(self) -> bool:
        return self.winner is not None

    def next_seat(self, seat: int, steps: int = 1) -> int:
        """The seat ``steps`` places after ``seat`` in the current direction (R3)."""
        return (seat + steps * self.direction) % self.players

    def seats_to_act(self) -> list[int]:
        """Seats that may act now: the current player, and during a pending +3 every seat yet to
        answer (R18, R19a)."""
        if self.winner is not None:
            return []
        if self.plus3 is not None:
            return list(self.plus3.waiting)
        return [self.current]

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now, each distinct card once.

        Any listed play or ``close_taki`` may also carry ``last_card`` (R20); that does not make
        it another move.
        """
        if self.winner is not None:
            return []
        hand = self.hands[seat]
        plays = _PLAYS[seat]
        pending = self.plus3
        if pending is not None:
            if seat not in pending.waiting:
                return []
            actions = [_ACCEPTS[seat]]
            if BREAKER in hand:
                actions.append(plays[BREAKER])
            if seat == self.current and KING in hand:
                actions.append(plays[KING])
            return actions
        if seat != self.current:
            return []
        if self.plus2_stack:
            actions = [_DRAWS[seat]]
            actions += [plays[card] for card in dict.fromkeys(hand) if card in _STACKABLE]
            return actions
        run = self.taki_run
        if run is not None and run.player == seat and not run.open:
            color = run.color
            actions = [plays[card] for card in dict.fromkeys(hand) if card.color == color]
            actions.append(_CLOSES[seat] if run.played else _PASSES[seat])
        else:
            actions = [_DRAWS[seat]]
            anything = self.follow_up == KING_FOLLOW_UP  # R16: no matching
            active = self.active_color
            symbol = self.leading.symbol
            for card in dict.fromkeys(hand):
                color = card.color
                if color is None:
                    if card is CHANGE_COLOR:
                        actions += _CHANGE_COLORS[seat]
                    else:
                        actions.append(plays[card])
                elif anything or color == active or card.symbol == symbol:
                    actions.append(plays[card])
        if len(hand) == 1:
            actions.append(_LAST_CARDS[seat])
        return actions

    def default_action(self, seat: int) -> Action:
        """What the server plays for ``seat`` when its time runs out (R23): accept a pending +3;
        in its own TAKI run close it, or ``pass`` where R14 forbids closing; otherwise draw
        (which also takes a +2 stack and ends a Plus or King follow-up)."""
        kinds = {action.type for action in self.legal_actions(seat)}
        for kind in ("accept", "close_taki", "pass"):
            if kind in kinds:
                return Action(kind, seat)
        return Action("draw", seat)

    def is_legal(self, action: Action) -> bool:
        try:
            self.check(action)
        except IllegalAction:
            return False
        return True

    def check(self, action: Action) -> None:
        """Validate ``action`` against the rules without applying it.

        :raises IllegalAction: with the error code of docs/record-format.md.
        """
        if self.winner is not None:
            raise IllegalAction(GAME_OVER, "the game is over")
        kind, seat, card, color, _ = action
        if type(seat) is not int or not 0 <= seat < self.players:
            raise IllegalAction(BAD_ACTION, f"no seat {seat!r}")
        pending = self.plus3
        if kind == ACCEPT:
            if pending is None:
                raise IllegalAction(NOT_YOUR_TURN, "there is no +3 to accept")
            if seat not in pending.waiting:
                raise IllegalAction(NOT_YOUR_TURN, "this seat has no +3 to answer")
            return
        if pending is not None and seat not in pending.waiting:
            # R18: an answer is final; the +3's own player never answers it (R19a).
            raise IllegalAction(NOT_YOUR_TURN, "this seat has no +3 to answer")
        if seat != self.current and not (pending is not None and card is BREAKER and kind == PLAY):
            raise IllegalAction(NOT_YOUR_TURN, f"it is seat {self.current}'s turn")
        hand = self.hands[seat]
        if kind == PLAY:
            if card is None:
                raise IllegalAction(BAD_ACTION, "a play needs a card")
            if card not in hand:
                raise IllegalAction(CARD_NOT_IN_HAND, f"seat {seat} holds no {card.code}")
            if card is CHANGE_COLOR:
                if color not in COLORS:
                    raise IllegalAction(COLOR_REQUIRED, "name red, yellow, green or blue (R11)")
            elif color is not None:
                raise IllegalAction(COLOR_REQUIRED, f"{card.code} takes no colour")
        elif kind not in (DRAW, CLOSE_TAKI, PASS, LAST_CARD):
            raise IllegalAction(BAD_ACTION, f"unknown action type {kind!r}")
        if pending is not None:
            if kind == PLAY and (card is BREAKER or (card is KING and seat == self.current)):
                return
            raise IllegalAction(MUST_ANSWER, "a +3 is pending: accept, or answer it (R18, R19)")
        if self.plus2_stack:
            if kind == DRAW or (kind == PLAY and (card is KING or card.symbol == "plus2")):
                return
            raise IllegalAction(
                MUST_ANSWER, f"a +2 stack of {self.plus2_stack} is waiting: draw, +2 or King (R10)"
            )
        run = self.taki_run
        own_run = run is not None and run.player == seat and not run.open
        if kind == PLAY:
            if own_run:
                if card.color != run.color:  # type: ignore[union-attr]
                    raise IllegalAction(
                        ILLEGAL_CARD,
                        f"only {run.color} cards may go on this TAKI run (R14)",  # type: ignore[union-attr]
                    )
            elif not (
                card.color is None
                or self.follow_up == KING_FOLLOW_UP
                or card.color == self.active_color
                or card.symbol == self.leading.symbol
            ):
                raise IllegalAction(
                    ILLEGAL_CARD,
                    f"{card.code} matches neither {self.active_color} nor {self.leading.code} (R7)",
                )
        elif kind == DRAW:
            if own_run:
                what = "close" if run.played else "pass"  # type: ignore[union-attr]
                raise IllegalAction(CANNOT_DRAW, f"you are in a TAKI run: {what} it (R14)")
        elif kind == CLOSE_TAKI:
            if not own_run:
                raise IllegalAction(CANNOT_CLOSE, "there is no run of yours to close (R14)")
            if not run.played:  # type: ignore[union-attr]
                raise IllegalAction(CANNOT_CLOSE, "a TAKI played alone is not closed: pass (R14)")
        elif kind == PASS:
            if not own_run or run.played:  # type: ignore[union-attr]
                raise IllegalAction(CANNOT_PASS, "pass only ends a turn after a lone TAKI (R14)")
        elif len(hand) != 1:  # LAST_CARD
            raise IllegalAction(CANNOT_ANNOUNCE, f"you hold {len(hand)} cards, not one (R20)")

    # ------------------------------------------------------------------ changes

    def apply(self, action: Action) -> list[Event]:
        """Apply one action and return what happened.

        :raises IllegalAction: the rules refuse it; the game is unchanged.
        """
        self.check(action)
        events: list[Event] = []
        kind = action.type
        if kind == PLAY:
            self._play(action, events)
        elif kind == DRAW:
            self._draw_action(action.player, events)
        elif kind == CLOSE_TAKI:
            self._close(action, events)
        elif kind == PASS:
            self.taki_run.open = True  # type: ignore[union-attr]  # R14: the run stays open
            events.append(Event("taki_passed", action.player))
            self._pass_turn(action.player, events)
        elif kind == ACCEPT:
            self._accept(action.player, events)
        else:
            self._announce(action.player, events)
        self.moves += 1
        return events

    def _play(self, action: Action, events: list[Event]) -> None:
        seat, card = action.player, action.card
        assert card is not None
        hand = self.hands[seat]
        hand.remove(card)
        self.discard.append(card)
        if not card.is_transparent:
            self.leading = card  # R6
        # R20: a play that leaves one card is announced on the play or owes it.
        single = len(hand) == 1
        self.debts[seat] = single and not action.last_card
        self.announced[seat] = single and action.last_card
        run = self.taki_run
        if run is not None and card.color == run.color and seat == self.current:
            # R14: on in one's own run, or on with an open run passed on to us.
            run.player, run.open = seat, False
            run.played += 1
            events.append(Event("played", seat, card.code, self.active_color))
            if hand:
                return
            self.taki_run = None  # R21: a run in which the hand empties closes by itself
            events.append(Event("taki_closed", seat))
            self._resolve(seat, card, events, closing_run=True)
            return
        self.taki_run = None  # any other card, or a draw, ends an open run (R14)
        self.follow_up = None
        if card.color is not None:
            self.active_color = card.color  # R6
        elif card is CHANGE_COLOR:
            self.active_color = action.color  # type: ignore[assignment]  # R11
        events.append(Event("played", seat, card.code, self.active_color))
        self._resolve(seat, card, events)

    def _draw_action(self, seat: int, events: list[Event]) -> None:
        if self.plus2_stack:  # R10: drawing the whole stack is the turn
            count, self.plus2_stack = self.plus2_stack, 0
            self._draw(seat, count, "plus2", events)
        else:  # R8, R16, R17; a draw also ends an open run (R14)
            self.follow_up = None
            self.taki_run = None
            self._draw(seat, 1, "choice", events)
            if not self.hands[seat] and self._goes_out(seat, events):
                return  # R9: nothing left to draw after a final Plus
        self._pass_turn(seat, events)

    def _close(self, action: Action, events: list[Event]) -> None:
        seat = action.player
        self.taki_run = None
        events.append(Event("taki_closed", seat))
        if action.last_card and len(self.hands[seat]) == 1:
            self._announce(seat, events)
        self._resolve(seat, self.discard[-1], events, closing_run=True)

    def _announce(self, seat: int, events: list[Event]) -> None:
        self.debts[seat] = False
        self.announced[seat] = True
        events.append(Event("announced", seat))

    def _pass_turn(self, seat: int, events: list[Event], skip: bool = False) -> None:
        """The turn passes from ``seat`` to the next player, or the one after (R12)."""
        step = self.direction
        nxt = (seat + step) % self.players
        if skip:
            events.append(Event("skipped", nxt))
            nxt = (nxt + step) % self.players
        self.current = nxt
        if True in self.debts:  # R20: whoever owes "last card" draws 4
            for i in range(self.players):
                owing = (seat + i * step) % self.players
                if self.debts[owing]:
                    self._draw(owing, 4, "penalty", events)

    def _draw(self, seat: int, count: int, reason: str, events: list[Event]) -> int:
        """``seat`` draws ``count`` cards, reshuffling as R9 says; returns how many it got."""
        hand = self.hands[seat]
        pile = self.draw_pile
        if len(pile) >= count:
            hand.extend(pile[-1 : -count - 1 : -1])
            del pile[-count:]
            drawn = count
        else:
            drawn = 0
            while drawn < count and (pile or self._reshuffle(events)):
                hand.append(pile.pop())
                drawn += 1
        if drawn:
            self.debts[seat] = False  # R20: the hand changed size again
            self.announced[seat] = False
        events.append(Event("drew", seat, count=drawn, reason=reason))
        return drawn

    def _reshuffle(self, events: list[Event]) -> bool:
        """R9 (docs/record-format.md): shuffle all but the top of the discard pile into the draw
        pile."""
        discard = self.discard
        keep = len(discard) - 1
        while discard[keep].is_transparent:
            keep -= 1
        cards = discard[:keep]
        if not cards:
            return False
        self.reshuffles += 1
        random.Random(f"{self.seed}:{self.reshuffles}").shuffle(cards)
        del discard[:keep]
        self.draw_pile.extend(reversed(cards))  # cards[0] is the new top
        events.append(Event("reshuffled", count=len(cards)))
        return True


def _turn_leading_card(rest: list[Card]) -> Card:
    """R4: turn cards over until a number card leads; the others go under the draw pile."""
    for _ in range(len(rest)):
        if rest[0].is_number:
            return rest.pop(0)
        rest.append(rest.pop(0))
    # No number card left (a full turn brought the pile back to its order): the first coloured
    # card leads, without its action.
    index = next(i for i, card in enumerate(rest) if card.color is not None)
    return rest.pop(index)


__all__ = ["KING_FOLLOW_UP", "SUPER_TAKI", "GameState", "Plus3", "TakiRun"]
