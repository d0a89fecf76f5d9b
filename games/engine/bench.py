"""``make bench``: the engine's speed, as the median of several runs.

Self-play (legal-action generation, the bot's choice and apply, all included) with random and
with greedy bots at 2 and 4 players, then replay of recorded games (JSON actions parsed and
applied). Reference: RLCard's UNO environment does about 50,000 steps per second with random
agents on this kind of machine; TAKI with random bots must reach three times that.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time

from .bots import make_bot
from .record import Record, replay
from .selfplay import new_record, play_game

RLCARD_UNO_STEPS_PER_SECOND = 50_000


def selfplay_run(players: int, bot: str, games: int, seed: int) -> tuple[float, float]:
    """One run: (actions per second, games per second)."""
    rng = random.Random(seed)
    bots = [make_bot(bot, random.Random(seed * 100 + i)) for i in range(players)]
    names = [f"{bot}-{i}" for i in range(players)]
    records = [new_record(names, rng) for _ in range(games)]
    actions = 0
    start = time.perf_counter()
    for record in records:
        actions += play_game(record, bots, keep_actions=False).actions
    elapsed = time.perf_counter() - start
    return actions / elapsed, games / elapsed


def replay_run(records: list[Record]) -> float:
    """One run: actions per second replaying ``records`` from their JSON form."""
    docs = [json.loads(record.dumps()) for record in records]
    start = time.perf_counter()
    actions = 0
    for doc in docs:
        result = replay(Record.from_json(doc))
        assert result.ok, result.error
        actions += result.applied
    return actions / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.engine.bench", description=__doc__)
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (median)")
    parser.add_argument("--games", type=int, default=200, help="games per self-play run")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)

    figures: dict[str, dict[str, float]] = {}
    for bot in ("random", "greedy"):
        for players in (2, 4):
            runs = [selfplay_run(players, bot, args.games, seed) for seed in range(args.runs)]
            figures[f"selfplay {bot} {players}p"] = {
                "actions_per_second": statistics.median(r[0] for r in runs),
                "games_per_second": statistics.median(r[1] for r in runs),
            }
            _progress(f"selfplay {bot} {players}p")
    rng = random.Random(1)
    bots = [make_bot("random", random.Random(i)) for i in range(4)]
    records = [new_record(["a", "b", "c", "d"], rng) for _ in range(args.games // 4 or 1)]
    for record in records:
        play_game(record, bots)
    figures["replay 4p"] = {
        "actions_per_second": statistics.median(replay_run(records) for _ in range(args.runs))
    }
    _progress("replay")
    sys.stderr.write("\n")

    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print(f"{'benchmark':<22} {'actions/s':>12} {'games/s':>10}   (median of {args.runs})")
        for name, fig in figures.items():
            games = f"{fig['games_per_second']:>10,.1f}" if "games_per_second" in fig else " " * 10
            print(f"{name:<22} {fig['actions_per_second']:>12,.0f} {games}")
    target = 3 * RLCARD_UNO_STEPS_PER_SECOND
    worst = min(figures[f"selfplay random {p}p"]["actions_per_second"] for p in (2, 4))
    verdict = "meets" if worst >= target else "MISSES"
    print(f"random self-play: {worst:,.0f} actions/s {verdict} the target of {target:,}")
    return 0 if worst >= target else 1


def _progress(name: str) -> None:
    sys.stderr.write(f"\r{name:<30}")
    sys.stderr.flush()


if __name__ == "__main__":
    sys.exit(main())
