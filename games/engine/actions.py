"""Actions (the moves of a game record, docs/record-format.md), the events that applying them
produces, and errors."""

from __future__ import annotations

from typing import Any, NamedTuple

from .cards import CARDS, Card

PLAY = "play"
DRAW = "draw"
CLOSE_TAKI = "close_taki"
PASS = "pass"
ACCEPT = "accept"
LAST_CARD = "last_card"
ACTION_TYPES = frozenset({PLAY, DRAW, CLOSE_TAKI, PASS, ACCEPT, LAST_CARD})

# The error codes of docs/record-format.md.
BAD_ACTION = "bad_action"
GAME_OVER = "game_over"
NOT_YOUR_TURN = "not_your_turn"
CARD_NOT_IN_HAND = "card_not_in_hand"
MUST_ANSWER = "must_answer"
ILLEGAL_CARD = "illegal_card"
COLOR_REQUIRED = "color_required"
CANNOT_CLOSE = "cannot_close"
CANNOT_PASS = "cannot_pass"
CANNOT_DRAW = "cannot_draw"
CANNOT_ANNOUNCE = "cannot_announce"


class IllegalAction(ValueError):
    """An action the rules refuse; ``code`` is one of the error codes of docs/record-format.md."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def to_json(self, index: int | None = None) -> dict[str, Any]:
        return {"index": index, "code": self.code, "message": self.message}


class Action(NamedTuple):
    """One move by one seat.

    ``color`` is the raw colour given with a play (validated by the game, since a bad colour is
    ``color_required``, not ``bad_action``). ``last_card`` is the announcement of R20 riding on a
    play or a ``close_taki``; it is not part of what makes two actions the same move.
    """

    type: str
    player: int
    card: Card | None = None
    color: str | None = None
    last_card: bool = False

    @classmethod
    def from_json(cls, obj: Any, players: int) -> Action:
        """Read one action of a record.

        :raises IllegalAction: ``bad_action`` for anything malformed.
        """
        if not isinstance(obj, dict):
            raise IllegalAction(BAD_ACTION, "an action must be a JSON object")
        kind = obj.get("type")
        if not isinstance(kind, str) or kind not in ACTION_TYPES:  # a list or object: no hash
            raise IllegalAction(BAD_ACTION, f"unknown action type {kind!r}")
        player = obj.get("player")
        if type(player) is not int or not 0 <= player < players:
            raise IllegalAction(BAD_ACTION, f"no seat {player!r} in a {players}-player game")
        last_card = obj.get("last_card", False)
        if last_card is None:
            last_card = False
        if not isinstance(last_card, bool):
            raise IllegalAction(BAD_ACTION, "last_card must be true or false")
        card = color = None
        if kind == PLAY:
            if "card" not in obj:
                raise IllegalAction(BAD_ACTION, "a play needs a card")
            code = obj["card"]
            card = CARDS.get(code) if isinstance(code, str) else None
            if card is None:
                raise IllegalAction(BAD_ACTION, f"unknown card code {code!r}")
            raw = obj.get("color")
            if raw is not None:
                color = raw if isinstance(raw, str) else repr(raw)
        return cls(kind, player, card, color, last_card)

    def to_json(self) -> dict[str, Any]:
        """The action as docs/record-format.md writes it."""
        out: dict[str, Any] = {"type": self.type, "player": self.player}
        if self.card is not None:
            out["card"] = self.card.code
        if self.color is not None:
            out["color"] = self.color
        if self.last_card:
            out["last_card"] = True
        return out

    def announcing(self) -> Action:
        """The same move with "last card" announced on it (R20)."""
        return self._replace(last_card=True)

    @property
    def move(self) -> tuple:
        """The move without its announcement, to compare actions."""
        return (self.type, self.player, self.card, self.color)

    def __repr__(self) -> str:
        parts = [self.type, f"p{self.player}"]
        if self.card is not None:
            parts.append(self.card.code)
        if self.color is not None:
            parts.append(self.color)
        if self.last_card:
            parts.append("last_card")
        return f"Action({' '.join(parts)})"


def play(player: int, code: str, color: str | None = None, last_card: bool = False) -> Action:
    """A play, from a card code: ``play(0, "change-color", "red")``."""
    return Action(PLAY, player, Card.from_code(code), color, last_card)


class Event(NamedTuple):
    """Something that happened, in data only: the site words it (no text comes from the engine).

    kinds and their fields:
      played (seat, card, color: the active colour after it), drew (seat, count, reason),
      skipped (seat), direction (count: the new direction), stack (count: +2 stack size),
      plus3 (seat: who played it), accepted (seat),
      broken (seat: the Breaker's player, target: the +3's player),
      cancelled (seat: the King's player), taki_opened (seat, color), taki_closed (seat),
      taki_passed (seat), announced (seat), stage (seat, count: the new stage),
      reshuffled (count: cards shuffled), won (seat).
    ``drew`` reasons: choice, plus2, plus3, breaker, penalty, stage, timeout is the site's.
    Events never carry the codes of cards drawn: every event is public.
    """

    kind: str
    seat: int | None = None
    card: str | None = None
    color: str | None = None
    count: int = 0
    reason: str | None = None
    target: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in self._asdict().items() if v is not None and (k != "count" or v)}
