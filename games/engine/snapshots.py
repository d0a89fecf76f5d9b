"""A game written out and read back: the stored snapshot (every hand and the draw pile,
secret), what everyone may see, the whole state as the replay prints it (docs/record-format.md),
and a copy for the searching bots. Each lists every field of
:class:`~games.engine.state.GameState`: a field added to the game is added here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Self

from .cards import CARDS, Card
from .pending import Plus3, TakiRun


class Snapshots:
    """The snapshots of :class:`~games.engine.state.GameState`, which holds the fields named
    here."""

    __slots__ = ()

    if TYPE_CHECKING:
        players: int
        seed: str
        tournament: bool
        hands: list[list[Card]]
        draw_pile: list[Card]
        discard: list[Card]
        leading: Card
        active_color: str
        current: int
        direction: int
        plus2_stack: int
        plus3: Plus3 | None
        taki_run: TakiRun | None
        follow_up: str | None
        debts: list[bool]
        announced: list[bool]
        stages: list[int] | None
        winner: int | None
        reshuffles: int
        moves: int

    def state_json(self) -> dict[str, Any]:
        """The whole state as docs/record-format.md's replay prints it: every hand included."""
        hands = [sorted(card.code for card in hand) for hand in self.hands]
        return {"hands": hands, **self.public_json()}

    def public_json(self) -> dict[str, Any]:
        """What everyone at the table may see: no card of any hand."""
        return {
            "discard_top": self.discard[-1].code,
            "leading": self.leading.code,
            "active_color": self.active_color,
            "current_player": self.current,
            "direction": self.direction,
            "draw_pile": len(self.draw_pile),
            "plus2_stack": self.plus2_stack,
            "plus3_pending": self.plus3.to_json() if self.plus3 else None,
            "taki_run": self.taki_run.to_json() if self.taki_run else None,
            "follow_up": self.follow_up,
            "stages": list(self.stages) if self.stages is not None else None,
            "finished": self.winner is not None,
            "winner": self.winner,
        }

    def to_snapshot(self) -> dict[str, Any]:
        """Everything needed to go on with this game later, as JSON (secret: it holds every hand
        and the order of the draw pile)."""
        run = self.taki_run
        return {
            "players": self.players,
            "seed": self.seed,
            "tournament": self.tournament,
            "hands": [[c.code for c in hand] for hand in self.hands],
            "draw_pile": [c.code for c in self.draw_pile],
            "discard": [c.code for c in self.discard],
            "active_color": self.active_color,
            "current": self.current,
            "direction": self.direction,
            "plus2_stack": self.plus2_stack,
            "plus3": self.plus3.to_json() if self.plus3 else None,
            "taki_run": [run.color, run.player, run.open, run.played] if run else None,
            "follow_up": self.follow_up,
            "debts": list(self.debts),
            "announced": list(self.announced),
            "stages": list(self.stages) if self.stages is not None else None,
            "winner": self.winner,
            "reshuffles": self.reshuffles,
            "moves": self.moves,
        }

    def copy(self) -> Self:
        """An independent copy of this game, far cheaper than a snapshot's round trip (searching
        bots play thousands of games out from copies)."""
        cls = type(self)
        game = cls.__new__(cls)
        game.players = self.players
        game.seed = self.seed
        game.tournament = self.tournament
        game.hands = [hand[:] for hand in self.hands]
        game.draw_pile = self.draw_pile[:]
        game.discard = self.discard[:]
        game.leading = self.leading
        game.active_color = self.active_color
        game.current = self.current
        game.direction = self.direction
        game.plus2_stack = self.plus2_stack
        pending = self.plus3
        game.plus3 = Plus3(pending.by, pending.waiting[:]) if pending is not None else None
        run = self.taki_run
        game.taki_run = TakiRun(run.color, run.player, run.open, run.played) if run else None
        game.follow_up = self.follow_up
        game.debts = self.debts[:]
        game.announced = self.announced[:]
        game.stages = self.stages[:] if self.stages is not None else None
        game.winner = self.winner
        game.reshuffles = self.reshuffles
        game.moves = self.moves
        return game

    @classmethod
    def from_snapshot(cls, data: dict[str, Any]) -> Self:
        """The game :meth:`to_snapshot` saved."""
        game = cls.__new__(cls)
        game.players = data["players"]
        game.seed = data["seed"]
        game.tournament = data["tournament"]
        game.hands = [[CARDS[c] for c in hand] for hand in data["hands"]]
        game.draw_pile = [CARDS[c] for c in data["draw_pile"]]
        game.discard = [CARDS[c] for c in data["discard"]]
        game.leading = next(c for c in reversed(game.discard) if not c.is_transparent)
        game.active_color = data["active_color"]
        game.current = data["current"]
        game.direction = data["direction"]
        game.plus2_stack = data["plus2_stack"]
        p3 = data["plus3"]
        game.plus3 = Plus3(p3["by"], list(p3["waiting"])) if p3 else None
        run = data["taki_run"]
        game.taki_run = TakiRun(*run) if run else None
        game.follow_up = data["follow_up"]
        game.debts = list(data["debts"])
        game.announced = list(data["announced"])
        game.stages = list(data["stages"]) if data["stages"] is not None else None
        game.winner = data["winner"]
        game.reshuffles = data["reshuffles"]
        game.moves = data["moves"]
        return game
