"""The game record, ``taki-record/1`` (docs/record-format.md): read, write and replay."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .actions import Action, IllegalAction
from .cards import is_full_deck, shuffled_deck
from .state import GameState

FORMAT = "taki-record/1"
BAD_RECORD = "bad_record"


class BadRecord(ValueError):
    """The document is not a ``taki-record/1`` record at all (replay exit status 2)."""


@dataclass
class Record:
    """A game record. ``actions`` are kept as the JSON objects they were read from, so that a
    malformed action is reported at its index when replayed, not when read."""

    seed: str
    players: list[str]
    deck: list[str]
    first_player: int
    tournament: bool = False
    actions: list[Any] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)  # keys a reader does not know

    @classmethod
    def from_json(cls, doc: Any) -> Record:
        """Read a parsed record.

        :raises BadRecord: wrong format, deck, players, first player, seed or actions list.
        """
        if not isinstance(doc, dict):
            raise BadRecord("a record is a JSON object")
        if doc.get("format") != FORMAT:
            raise BadRecord(f"format must be {FORMAT!r}, not {doc.get('format')!r}")
        players = doc.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise BadRecord("players must be a list of names")
        if not 2 <= len(players) <= 10:
            raise BadRecord(f"a game has 2 to 10 players, not {len(players)} (R3)")
        deck = doc.get("deck")
        if not isinstance(deck, list) or not all(isinstance(c, str) for c in deck):
            raise BadRecord("deck must be a list of card codes")
        if not is_full_deck(deck):
            raise BadRecord("deck must hold exactly the 116 cards of R1")
        first = doc.get("first_player")
        if type(first) is not int or not 0 <= first < len(players):
            raise BadRecord(f"first_player must be a seat from 0 to {len(players) - 1}")
        seed = doc.get("seed")
        if not isinstance(seed, str):
            raise BadRecord("seed must be a string")
        options = doc.get("options", {})
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise BadRecord("options must be an object")
        tournament = options.get("tournament", False)
        if not isinstance(tournament, bool):
            raise BadRecord("options.tournament must be true or false")
        actions = doc.get("actions", [])
        if not isinstance(actions, list):
            raise BadRecord("actions must be a list")
        known = {"format", "seed", "players", "options", "deck", "first_player", "actions"}
        extra = {k: v for k, v in doc.items() if k not in known}
        return cls(seed, players, deck, first, tournament, actions, extra)

    @classmethod
    def loads(cls, text: str | bytes) -> Record:
        """:raises BadRecord: not JSON, or not a record."""
        try:
            doc = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise BadRecord(f"not JSON: {exc}") from None
        return cls.from_json(doc)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "seed": self.seed,
            "players": list(self.players),
            "options": {"tournament": self.tournament},
            "deck": list(self.deck),
            "first_player": self.first_player,
            "actions": [a.to_json() if isinstance(a, Action) else a for a in self.actions],
            **self.extra,
        }

    def dumps(self, indent: int | None = None) -> str:
        return json.dumps(self.to_json(), indent=indent)

    def new_game(self) -> GameState:
        return GameState(
            self.deck, len(self.players), self.first_player, self.seed, self.tournament
        )


def new_record(players: Sequence[str], rng: random.Random, tournament: bool = False) -> Record:
    """A record for a fresh game: shuffled deck (R4), random first player (R5), a seed (R9)."""
    return Record(
        seed=f"{rng.getrandbits(64):016x}",
        players=list(players),
        deck=shuffled_deck(rng),
        first_player=rng.randrange(len(players)),
        tournament=tournament,
    )


@dataclass
class ReplayResult:
    ok: bool
    applied: int
    error: dict[str, Any] | None
    game: GameState | None

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "applied": self.applied,
            "error": self.error,
            "state": self.game.state_json() if self.game is not None else None,
        }

    @property
    def exit_status(self) -> int:
        if self.game is None:
            return 2
        return 0 if self.ok else 1


def replay(record: Record) -> ReplayResult:
    """Apply the record's actions in order, stopping at the first illegal one."""
    game = record.new_game()
    players = len(record.players)
    for index, raw in enumerate(record.actions):
        try:
            action = raw if isinstance(raw, Action) else Action.from_json(raw, players)
            game.apply(action)
        except IllegalAction as exc:
            return ReplayResult(False, index, exc.to_json(index), game)
    return ReplayResult(True, len(record.actions), None, game)


def replay_text(text: str | bytes) -> ReplayResult:
    """Replay a record given as JSON text; a document that is no record gives ``bad_record``."""
    try:
        record = Record.loads(text)
    except BadRecord as exc:
        return unreadable(str(exc))
    return replay(record)


def unreadable(message: str) -> ReplayResult:
    """The result for a document that is no record at all (exit status 2)."""
    return ReplayResult(False, 0, {"index": None, "code": BAD_RECORD, "message": message}, None)
