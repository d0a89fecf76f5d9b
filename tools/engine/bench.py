"""``make bench``: the engine's speed and memory; speeds are the median of several runs.

Self-play (legal-action generation, the bot's choice and apply, all included) with random and
with greedy bots at 2 and 4 players, then replay of recorded games (JSON actions parsed and
applied), then memory: what one live game holds, and the size of its JSON snapshot.
Reference: RLCard's UNO environment does about 50,000 steps per second with random agents on
this kind of machine; TAKI with random bots must reach three times that.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
import tracemalloc

from games.engine.bots import make_bot
from games.engine.record import Record, new_record, replay
from tools.engine.selfplay import play_game

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


def memory_run(players: int, games: int = 1000) -> dict[str, float]:
    """Bytes one live game holds in memory (tracemalloc, averaged over ``games`` fresh deals) and
    the size of its JSON snapshot, which the site stores per game."""
    rng = random.Random(2)
    records = [new_record([f"p{i}" for i in range(players)], rng) for _ in range(games)]
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    live = [record.new_game() for record in records]
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    snapshot = statistics.median(len(json.dumps(game.to_snapshot())) for game in live)
    return {"bytes_in_memory": (after - before) / games, "snapshot_json_bytes": snapshot}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.engine.bench", description=__doc__)
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
    memory = {f"game {players}p": memory_run(players) for players in (2, 4, 10)}
    sys.stderr.write("\n")

    if args.json:
        print(json.dumps({**figures, **{f"memory {k}": v for k, v in memory.items()}}, indent=2))
    else:
        print(f"{'benchmark':<22} {'actions/s':>12} {'games/s':>10}   (median of {args.runs})")
        for name, fig in figures.items():
            games = f"{fig['games_per_second']:>10,.1f}" if "games_per_second" in fig else " " * 10
            print(f"{name:<22} {fig['actions_per_second']:>12,.0f} {games}")
        print(f"{'memory':<22} {'in memory':>12} {'snapshot':>10}   (bytes per game)")
        for name, fig in memory.items():
            print(
                f"{name:<22} {fig['bytes_in_memory']:>12,.0f} {fig['snapshot_json_bytes']:>10,.0f}"
            )
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
