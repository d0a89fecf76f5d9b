"""The bots: greedy beats random, always announces its last card; random only plays legal moves."""

from __future__ import annotations

import random

from games.engine import GreedyBot, RandomBot
from games.engine.record import new_record
from tools.engine.selfplay import play_game


def test_greedy_beats_random_clearly():
    rng = random.Random(2024)
    wins = 0
    games = 300
    for number in range(games):
        greedy_seat = number % 2  # both seats, both orders
        bots = [RandomBot(random.Random(rng.getrandbits(32))) for _ in range(2)]
        bots[greedy_seat] = GreedyBot(random.Random(rng.getrandbits(32)))
        result = play_game(new_record(["a", "b"], rng), bots, keep_actions=False)
        wins += result.winner == greedy_seat
    assert wins / games > 0.75


def test_greedy_always_announces_its_last_card():
    rng = random.Random(5)
    checked = 0
    for number in range(120):
        players = 2 + number % 9
        bots = [
            GreedyBot(random.Random(rng.getrandbits(32)))
            if seat % 2 == 0
            else RandomBot(random.Random(rng.getrandbits(32)))
            for seat in range(players)
        ]
        record = new_record([f"s{i}" for i in range(players)], rng, number % 4 == 0)
        game = record.new_game()
        while not game.finished:
            pending = game.plus3
            seat = pending.waiting[0] if pending is not None else game.current
            for event in game.apply(bots[seat].choose(game, seat)):
                if event.kind == "drew" and event.reason == "penalty":
                    assert event.seat % 2 == 1, f"greedy seat {event.seat} drew a penalty"
                    checked += 1
    assert checked > 0  # the random bots do forget, so penalties happen at all


def test_random_bot_only_chooses_legal_actions():
    rng = random.Random(9)
    for number in range(60):
        players = 2 + number % 9
        bots = [RandomBot(random.Random(rng.getrandbits(32))) for _ in range(players)]
        game = new_record(["x"] * players, rng).new_game()
        while not game.finished:
            seat = rng.choice(game.seats_to_act())
            action = bots[seat].choose(game, seat)
            assert action.move in {a.move for a in game.legal_actions(seat)}
            game.apply(action)
