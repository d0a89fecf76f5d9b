"""The playouts: what the end of a played-out game is worth to the seat that searches."""

from __future__ import annotations

import random

import pytest

from games.engine.cards import CARDS
from games.engine.playouts import outcome, playout, quick_player
from games.engine.record import new_record


def ended(sizes: list[int], winner: int | None, stages: list[int] | None = None):
    """A game whose hands hold ``sizes`` cards, won by ``winner`` (None: cut before anyone won)."""
    game = new_record(["p"] * len(sizes), random.Random(3), stages is not None).new_game()
    game.hands = [[CARDS["red:5"]] * size for size in sizes]
    game.winner = winner
    if stages is not None:
        game.stages = stages
    return game


@pytest.mark.parametrize("weight", [0.0, 0.4])
def test_r21_the_first_player_out_is_worth_a_whole_win_whatever_the_place_weight(weight):
    game = ended([3, 0, 7, 2], winner=1)
    assert outcome(game, 1, weight) == 1.0


@pytest.mark.parametrize("weight", [0.0, 0.4])
def test_heads_up_a_lost_game_is_worth_nothing_whatever_the_place_weight(weight):
    game = ended([0, 1], winner=0)
    assert outcome(game, 1, weight) == 0.0


def test_without_a_place_weight_every_loser_is_worth_nothing():
    game = ended([3, 0, 7, 2], winner=1)
    assert [outcome(game, seat) for seat in (0, 2, 3)] == [0.0, 0.0, 0.0]


def test_at_four_players_a_loser_is_worth_its_place_among_the_losers():
    game = ended([3, 0, 7, 2], winner=1)
    # Seat 3 (two cards) beat both other losers, seat 0 one of them, seat 2 neither.
    assert outcome(game, 3, 0.4) == pytest.approx(0.4)
    assert outcome(game, 0, 0.4) == pytest.approx(0.2)
    assert outcome(game, 2, 0.4) == 0.0


def test_losers_with_as_many_cards_share_their_places():
    game = ended([4, 0, 4, 9], winner=1)
    assert outcome(game, 0, 0.4) == outcome(game, 2, 0.4) == pytest.approx(0.3)


def test_r22_in_a_tournament_a_lower_stage_comes_before_fewer_cards():
    game = ended([6, 0, 1, 5], winner=1, stages=[3, 1, 6, 6])
    assert outcome(game, 0, 0.4) == pytest.approx(0.4)  # stage 3 with six cards: ahead of both
    assert outcome(game, 2, 0.4) == pytest.approx(0.2)
    assert outcome(game, 3, 0.4) == 0.0


def test_a_game_cut_before_anyone_won_goes_to_the_fewest_cards_and_places_the_rest():
    game = ended([2, 5, 2, 8], winner=None)
    assert outcome(game, 0) == outcome(game, 2) == 0.5
    assert outcome(game, 1, 0.4) == pytest.approx(0.4)
    assert outcome(game, 3, 0.4) == 0.0


def test_a_playout_ends_the_game_and_reports_its_outcome_for_the_seat():
    game = new_record(["p"] * 4, random.Random(8)).new_game()
    rewards = [playout(game.copy(), seat, quick_player, place_weight=0.3) for seat in range(4)]
    finished = game.copy()
    playout(finished, 0, quick_player)
    assert finished.winner is not None
    assert rewards[finished.winner] == 1.0
    assert sorted(rewards)[:3] == pytest.approx([0.0, 0.15, 0.3])
