"""Server-side players for empty seats, and the levels a table offers them at.

A bot sees what its seat may see: its own hand, the public state, and its legal actions. The
searching bots make that structural: they reduce the game to the seat's knowledge first
(games/engine/search.py) and search only from it.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import NamedTuple

from .actions import ACCEPT, CLOSE_TAKI, DRAW, LAST_CARD, PASS, PLAY, Action
from .cards import BREAKER, CHANGE_COLOR, COLORS, KING, PLUS3, SUPER_TAKI, Card
from .playouts import quick_player
from .search import TableMemory, public_moment, search, seat_knowledge
from .state import KING_FOLLOW_UP, GameState

# Playouts per decision of each searching level (measured in docs/bots.md).
MEDIUM_PLAYOUTS = 24
HARD_PLAYOUTS = 80
EXPERT_PLAYOUTS = 400


class Bot:
    """Chooses one of a seat's legal actions."""

    name = "bot"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()

    def choose(self, game: GameState, seat: int) -> Action:
        raise NotImplementedError

    def observe(self, game: GameState, action: Action) -> None:
        """Watch ``action`` (any seat's) about to be applied to ``game``. A bot that learns from
        the table overrides this; it must read only what is public."""


class RandomBot(Bot):
    """Any legal action, uniformly at random (it may well forget to say "last card")."""

    name = "random"

    def choose(self, game: GameState, seat: int) -> Action:
        actions = game.legal_actions(seat)
        return actions[int(self.rng.random() * len(actions))]


class GreedyBot(Bot):
    """A sensible player: it answers stacks, keeps King and Breaker for defence, names its
    majority colour, plays its TAKI runs out and closes them, and always announces its last card.
    """

    name = "greedy"

    def choose(self, game: GameState, seat: int) -> Action:
        actions = game.legal_actions(seat)
        hand = game.hands[seat]
        plays = {a.card: a for a in actions if a.type == PLAY and a.card is not CHANGE_COLOR}
        kinds = {a.type for a in actions}
        if ACCEPT in kinds:  # R18, R19: bounce a +3 if we can, cancel it with a King, else take it
            answer = plays.get(BREAKER) or plays.get(KING)
            return self._announced(answer, hand) if answer else Action(ACCEPT, seat)
        if game.plus2_stack:  # R10: pass the stack on, or cancel it
            for card, action in plays.items():
                if card.symbol == "plus2":
                    return self._announced(action, hand)
            return plays.get(KING) or Action(DRAW, seat)
        if CLOSE_TAKI in kinds or PASS in kinds:  # in our own run
            return self._in_run(game, seat, plays, hand)
        choice = self._best_play(game, seat, plays, hand, actions)
        if choice is not None:
            return self._announced(choice, hand)
        if LAST_CARD in kinds and not game.announced[seat]:
            return Action(LAST_CARD, seat)
        return Action(DRAW, seat)

    def _in_run(
        self, game: GameState, seat: int, plays: dict[Card, Action], hand: list[Card]
    ) -> Action:
        if plays:
            # Numbers first; keep an action card to end the run on, where it takes effect.
            card = min(plays, key=lambda c: (not c.is_number, c.symbol == "plus2", c.code))
            return self._announced(plays[card], hand)
        if game.taki_run is not None and game.taki_run.played:
            return Action(CLOSE_TAKI, seat, last_card=len(hand) == 1)
        return Action(PASS, seat)

    def _best_play(
        self,
        game: GameState,
        seat: int,
        plays: dict[Card, Action],
        hand: list[Card],
        actions: list[Action],
    ) -> Action | None:
        colors = Counter(card.color for card in hand if card.color is not None)
        majority = max(COLORS, key=lambda c: (colors[c], -COLORS.index(c)))
        opponents_low = any(
            len(h) <= 2 for s, h in enumerate(game.hands) if s != seat
        )  # public: hand sizes
        scored: list[tuple[float, Action]] = []
        for card, action in plays.items():
            if card is BREAKER:
                continue  # R19b costs three cards: keep it to bounce a +3
            scored.append((self._score(card, colors, hand, opponents_low, game), action))
        if scored:
            score, action = max(scored, key=lambda pair: pair[0])
            if score > 0:
                return action
        if any(a.card is CHANGE_COLOR for a in actions):
            return Action(PLAY, seat, CHANGE_COLOR, majority)
        if KING in plays:
            return plays[KING]
        return None

    def _score(
        self, card: Card, colors: Counter, hand: list[Card], opponents_low: bool, game: GameState
    ) -> float:
        if card is KING:
            return -1 if game.follow_up != KING_FOLLOW_UP else 0.5
        if card is PLUS3:
            return 6 if opponents_low else 2.5
        if card is SUPER_TAKI:
            return 1 + 2 * colors[game.active_color] if colors[game.active_color] >= 2 else 0.5
        score = 2 + colors[card.color] * 0.5
        symbol = card.symbol
        if symbol == "taki":
            score += 2 * (colors[card.color] - 1)
        elif symbol in ("plus2", "stop"):
            score += 3 if opponents_low else 1
        elif symbol == "plus":
            # R17: worth it only with a card to follow it
            others = [c for c in hand if c is not card]
            follow = any(c.color in (None, card.color) or c.symbol == "plus" for c in others)
            score += 1.5 if follow else -3
        return score

    @staticmethod
    def _announced(action: Action, hand: list[Card]) -> Action:
        """R20: always say "last card" on the play that leaves one."""
        return action.announcing() if len(hand) == 2 else action


class SearchBot(Bot):
    """A player that thinks ahead: on every decision it deals the cards it cannot see in many
    ways consistent with what it knows and plays each move out with a quick greedy player
    (games/engine/search.py). ``playouts`` is its budget per decision; ``observe`` lets it learn
    what the others do not hold from how they play.
    """

    name = "search"
    playouts = 200
    # How many standard errors a move must win by to overrule the playout player's own choice;
    # ``table_margin``, if set, at a table of more than two (where places make playouts steadier).
    margin = 1.0
    table_margin: float | None = None
    # At a table of more than two: the budget grows by this share for every player past two (up
    # to four), and a loser's place in a playout is worth this share of a win.
    table_growth = 0.0
    place_weight = 0.0

    def __init__(self, rng: random.Random | None = None, playouts: int | None = None) -> None:
        super().__init__(rng)
        if playouts is not None:
            self.playouts = playouts
        self._game: GameState | None = None
        self._memory: TableMemory | None = None

    def choose(self, game: GameState, seat: int) -> Action:
        memory = self._memory if game is self._game else None
        knowledge = seat_knowledge(game, seat, memory)
        playouts = self.budget(game.players)
        margin = self.margin
        if game.players > 2 and self.table_margin is not None:
            margin = self.table_margin
        return search(knowledge, self.rng, playouts, quick_player, margin, self.place_weight)

    def budget(self, players: int) -> int:
        """Playouts per decision at a table of ``players``: a playout is won less often the more
        players there are, so a larger table may get a larger budget, up to four players. Past
        four a playout is longer, about in proportion to the players, so a budget that grew is
        cut in the same proportion: a decision takes about as long as at four players."""
        budget = self.playouts * (1 + self.table_growth * (min(players, 4) - 2))
        if self.table_growth and players > 4:
            budget *= 4 / players
        return round(budget)

    def observe(self, game: GameState, action: Action) -> None:
        if game is not self._game:  # a new game: forget the last one
            self._game, self._memory = game, TableMemory(game.players)
        self._memory.watch(public_moment(game), action)  # type: ignore[union-attr]


class BeginnerBot(RandomBot):
    """Plays any legal move."""

    name = "beginner"


class EasyBot(GreedyBot):
    """Plays the best-looking card now, without thinking ahead."""

    name = "easy"


class MediumBot(SearchBot):
    """Thinks a little ahead."""

    name = "medium"
    playouts = MEDIUM_PLAYOUTS


class HardBot(SearchBot):
    """Thinks further ahead."""

    name = "hard"
    playouts = HARD_PLAYOUTS


class ExpertBot(SearchBot):
    """Thinks furthest ahead, and takes a smaller edge for a real one."""

    name = "expert"
    playouts = EXPERT_PLAYOUTS
    margin = 0.7  # with five times the playouts, a smaller gain is already a real one
    table_margin = 0.3  # and at a table of more than two, where a loser's place counts
    table_growth = 0.5  # twice the playouts at four players
    place_weight = 0.5


class Level(NamedTuple):
    """A bot level as a table offers it: machine name, label, one line for the players."""

    name: str
    label: str
    description: str


LEVELS: tuple[Level, ...] = (
    Level("beginner", "Beginner", "Plays any card it may, at random."),
    Level("easy", "Easy", "Plays its best-looking card, keeps a King and a Breaker for defence."),
    Level("medium", "Medium", "Plays its moves out on a few guesses of the hidden cards."),
    Level("hard", "Hard", "Plays its moves out on three times as many guesses."),
    Level("expert", "Expert", "Plays its moves out on the most guesses: the strongest bot."),
)

BOTS: dict[str, type[Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "beginner": BeginnerBot,
    "easy": EasyBot,
    "medium": MediumBot,
    "hard": HardBot,
    "expert": ExpertBot,
}


def make_bot(name: str, rng: random.Random | None = None) -> Bot:
    """The bot called ``name`` (a level of :data:`LEVELS`, or ``random`` or ``greedy``).

    :raises ValueError: no bot of that name.
    """
    try:
        return BOTS[name](rng)
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; choose from {', '.join(BOTS)}") from None
