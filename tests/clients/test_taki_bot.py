"""The reference bot client (``clients/taki_bot.py``): it runs without Django, and what it
knows of a game from its seat's stream is what the site's own bots know of it."""

from __future__ import annotations

import random
import subprocess
import sys

from api.play import seat_state
from clients.taki_bot import choose, knowledge_of
from games.engine import GameState, deck_codes, make_bot
from games.engine.search import seat_knowledge
from tests.e2e.site_server import ROOT


def test_the_client_imports_no_django():
    code = "import sys, clients.taki_bot; assert not [m for m in sys.modules if 'django' in m]"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def played_game(moves: int, seed: int) -> GameState:
    """A three-player game some moves in, played by greedy bots."""
    deck = deck_codes()
    random.Random(seed).shuffle(deck)
    game = GameState(deck, 3, 0, f"{seed:016x}", False)
    bot = make_bot("greedy", random.Random(seed))
    for _ in range(moves):
        if game.winner is not None:
            break
        seat = game.seats_to_act()[0]
        game.apply(bot.choose(game, seat))
    return game


def test_the_stream_s_state_tells_the_client_what_the_seat_knows():
    for seed in range(6):
        game = played_game(moves=5 + 7 * seed, seed=seed)
        if game.winner is not None:
            continue
        for seat in range(3):
            assert knowledge_of(seat_state(game, seat)) == seat_knowledge(game, seat)


def test_the_client_chooses_one_of_the_seat_s_legal_actions():
    for seed in range(6):
        game = played_game(moves=4 * seed, seed=seed)
        if game.winner is not None:
            continue
        seat = game.seats_to_act()[0]
        state = seat_state(game, seat)
        action = choose(state, make_bot("expert", random.Random(seed)), random.Random(seed))
        legal = [
            {key: value for key, value in option.items() if key not in ("player", "last_card")}
            for option in state["legal_actions"]
        ]
        assert {key: value for key, value in action.items() if key != "last_card"} in legal
        assert "player" not in action
