"""What a card does once it is down (R10–R19), and a hand going out (R21, R22).

:class:`CardEffects` is a part of :class:`~games.engine.state.GameState`, kept apart because the
rules give it its own seam: ``GameState.apply`` puts a card down (R6, R7, R14) and hands it to
``_resolve``; everything a +2 stack, a +3 and its Breaker, a King, a Plus, a Stop, a Change
Direction or a TAKI opening do to the game is decided here, and where an emptied hand ends the
game or, in a tournament, its stage.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import Event
from .cards import BREAKER, KING, PLUS3, Card
from .pending import KING_FOLLOW_UP, PLUS, Plus3, TakiRun


class CardEffects:
    """The card effects of :class:`~games.engine.state.GameState`, which holds the fields named
    here and the turn's own steps (``_pass_turn``, ``_draw``)."""

    __slots__ = ()

    if TYPE_CHECKING:
        players: int
        hands: list[list[Card]]
        current: int
        direction: int
        plus2_stack: int
        plus3: Plus3 | None
        taki_run: TakiRun | None
        follow_up: str | None
        stages: list[int] | None
        winner: int | None

        def next_seat(self, seat: int, steps: int = 1) -> int: ...
        def _pass_turn(self, seat: int, events: list[Event], skip: bool = False) -> None: ...
        def _draw(self, seat: int, count: int, reason: str, events: list[Event]) -> int: ...

    def _resolve(self, seat: int, card: Card, events: list[Event], closing_run=False) -> None:
        """Carry out the action of the card ``seat`` just played (or closed a run on)."""
        symbol = card.symbol
        # R21: out once the action is resolved; a Plus must first be followed (R17), and a
        # Breaker played on one's own turn first costs its penalty (R19b).
        out = not self.hands[seat] and symbol != "plus" and not (card is BREAKER and not self.plus3)
        if out and self._goes_out(seat, events):
            return  # a standard game ends at once: the card's effect is void
        if card is PLUS3:  # R18
            waiting = [self.next_seat(seat, i) for i in range(1, self.players)]
            self.plus3 = Plus3(seat, waiting)
            events.append(Event("plus3", seat))
            self._pass_turn(seat, events)
        elif card is BREAKER:
            pending = self.plus3
            if pending is not None:  # R19a: the +3 bounces to its player
                self.plus3 = None
                events.append(Event("broken", seat, target=pending.by))
                self._draw(pending.by, 3, "breaker", events)
                self._pass_turn(pending.by, events)
            else:  # R19b: the Breaker's own player draws 3
                self._draw(seat, 3, "breaker", events)
                if self.hands[seat] or not self._goes_out(seat, events):
                    self._pass_turn(seat, events)
        elif card is KING:  # R16
            if self.plus2_stack or self.plus3 is not None:
                events.append(Event("cancelled", seat))
            self.plus2_stack = 0
            self.plus3 = None
            self.follow_up = KING_FOLLOW_UP
        elif symbol == "taki":
            if closing_run or out:
                # R14: a TAKI closing a run has no further effect; R21: a run in which the hand
                # empties (a TAKI as the stage card of R22) closes by itself.
                self._pass_turn(seat, events)
            else:  # R14, R15: a Super TAKI takes the active colour
                self.taki_run = TakiRun(self.active_color, seat)
                events.append(Event("taki_opened", seat, color=self.active_color))
        elif symbol == "plus":
            self.follow_up = PLUS  # R17
        elif symbol == "plus2":  # R10
            self.plus2_stack += 2
            events.append(Event("stack", count=self.plus2_stack))
            self._pass_turn(seat, events)
        elif symbol == "stop":  # R12
            self._pass_turn(seat, events, skip=True)
        elif symbol == "direction":  # R13
            self.direction = -self.direction
            events.append(Event("direction", count=self.direction))
            self._pass_turn(seat, events)
        else:  # numbers and Change Color
            self._pass_turn(seat, events)

    def _accept(self, seat: int, events: list[Event]) -> None:
        pending = self.plus3
        assert pending is not None
        pending.waiting.remove(seat)
        events.append(Event("accepted", seat))
        if pending.waiting:
            return
        self.plus3 = None
        # R18: each other player, in turn order from the next player, draws 3.
        for step in range(1, self.players):
            self._draw(self.next_seat(pending.by, step), 3, "plus3", events)

    def _goes_out(self, seat: int, events: list[Event]) -> bool:
        """``seat``'s hand is empty (R21, R22). True when that ends the game."""
        stages = self.stages
        if stages is None or stages[seat] == 1:
            self.winner = self.current = seat
            self.plus2_stack = 0
            self.plus3 = None
            self.taki_run = None
            self.follow_up = None
            events.append(Event("won", seat))
            return True
        stages[seat] -= 1
        events.append(Event("stage", seat, count=stages[seat]))
        self._draw(seat, stages[seat], "stage", events)
        return False
