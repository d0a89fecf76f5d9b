"""What a turn leaves owing to the next ones: a TAKI run (R14), a +3 waiting for its answers
(R18), and the follow-up owed after a Plus or a King (R16, R17)."""

from __future__ import annotations

from typing import Any

PLUS = "plus"  # follow-up owed after a Plus (R17)
KING_FOLLOW_UP = "king"  # follow-up owed after a King (R16)


class TakiRun:
    """A TAKI run (R14). ``open`` is True once its player passed it on after a TAKI played alone;
    ``played`` counts the cards its current player has played in it after the opening TAKI."""

    __slots__ = ("color", "player", "open", "played")

    def __init__(self, color: str, player: int, open: bool = False, played: int = 0) -> None:
        self.color = color
        self.player = player
        self.open = open
        self.played = played

    def to_json(self) -> dict[str, Any]:
        return {"color": self.color, "player": self.player, "open": self.open}


class Plus3:
    """A pending +3 (R18): who played it and the seats yet to answer, in turn order."""

    __slots__ = ("by", "waiting")

    def __init__(self, by: int, waiting: list[int]) -> None:
        self.by = by
        self.waiting = waiting

    def to_json(self) -> dict[str, Any]:
        return {"by": self.by, "waiting": list(self.waiting)}
