"""``python -m tools.engine arena``: bots measured against each other, seats rotated, one JSON
object out, the same for any number of worker processes."""

from __future__ import annotations

import json

import pytest

from tests.tools.engine.test_selfplay import cli
from tools.engine.arena import play_arena_game, run_arena, seating, summarize, wilson
from tools.engine.ladder import matches

NAMES = ["medium", "greedy", "greedy", "random"]


def without_times(result: dict) -> dict:
    return {key: value for key, value in result.items() if key not in ("think_ms", "cpu_ms")}


def test_r3_seats_rotate_so_every_bot_sits_in_every_position_equally():
    names = ["hard", "greedy", "random"]
    rounds = [seating(names, index) for index in range(6)]
    for position in range(3):
        assert sorted(r[position] for r in rounds) == sorted(names * 2)
    assert seating(names, 1) == ["greedy", "random", "hard"]
    assert play_arena_game(names, "s", 1).think_ms.keys() == set(names)


def test_the_arena_prints_one_json_object_with_wins_rates_moves_and_thinking_times():
    proc = cli("arena", "--bots", ",".join(NAMES), "--games", "6", "--seed", "7")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["games"] == 6 and out["players"] == 4 and out["bots"] == NAMES
    assert set(out["wins"]) == set(out["win_rate"]) == set(out["think_ms"]) == set(NAMES)
    assert set(out["cpu_ms"]) == set(NAMES)
    assert sum(out["wins"].values()) + out["unfinished"] == 6
    greedy = out["win_rate"]["greedy"]  # two seats: twelve chances in six games
    assert greedy["rate"] == round(out["wins"]["greedy"] / 12, 4)
    assert 0 <= greedy["low"] <= greedy["rate"] <= greedy["high"] <= 1
    assert out["moves"] > 0
    for times in out["think_ms"].values():
        assert times["decisions"] > 0 and 0 <= times["mean"] <= times["max"]
        assert times["p99"] <= times["max"]


def test_the_arena_gives_the_same_games_for_a_seed_whatever_the_jobs():
    one = run_arena(NAMES, 5, "jobs", jobs=1)
    two = run_arena(NAMES, 5, "jobs", jobs=2)
    assert without_times(one) == without_times(two)
    assert without_times(run_arena(NAMES, 5, "other")) != without_times(one)


def test_unfinished_games_count_as_no_win():
    out = run_arena(["random", "random"], 3, "cut", max_actions=4)
    assert out["unfinished"] == 3 and out["wins"] == {"random": 0}
    assert out["moves"] == 12


def test_wilson_interval():
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(612, 1000)
    assert low == pytest.approx(0.5814, abs=1e-4) and high == pytest.approx(0.6417, abs=1e-4)
    assert wilson(10, 10)[1] == pytest.approx(1.0)


def test_summary_of_no_decisions():
    assert summarize(["a", "b"], [], 10)["think_ms"]["a"]["decisions"] == 0


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--bots", "greedy"], "2 to 10"),
        (["--bots", ",".join(["random"] * 11)], "2 to 10"),
        (["--bots", "greedy,nobody"], "expert"),
        (["--bots", "greedy,random", "--games", "0"], "games"),
    ],
)
def test_arena_bad_arguments(args, words):
    proc = cli("arena", *args)
    assert proc.returncode == 2
    assert words in proc.stderr


def test_arena_help_lists_the_levels():
    proc = cli("arena", "--help")
    assert proc.returncode == 0
    for word in ("beginner", "easy", "medium", "hard", "expert", "--jobs", "Wilson"):
        assert word in proc.stdout


def test_the_ladder_sets_each_level_against_the_one_below_and_the_top_against_greedy():
    lines = matches(games=10, top_games=20, table_games=30)
    assert [bots for _, bots, _ in lines] == [
        ["easy", "beginner"],
        ["medium", "easy"],
        ["hard", "medium"],
        ["expert", "hard"],
        ["expert", "greedy"],
        ["expert", "greedy", "greedy", "greedy"],
    ]
    assert [games for _, _, games in lines] == [10, 10, 10, 10, 20, 30]
