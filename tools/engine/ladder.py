"""``make bench-bots``: measure the bot levels in the arena (docs/bots.md records the figures).

Each level plays the one below it heads-up; the top level plays greedy heads-up and at a table of
four against three greedy bots. A level is above its neighbour when the 95% interval of its win
rate lies above 50%. The top level must win at least 60% of 2,000 duels against greedy, at least
33% of 600 or more four-player games (25% is even), and think under 250 ms of processor time per
decision at the 99th percentile, heads-up and at four (where its budget is larger). Each line
prints the ``python -m tools.engine arena`` command that reproduces it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from games.engine.bots import LEVELS
from tools.engine.arena import run_arena

DUEL_TARGET = 0.60
TABLE_TARGET = 0.33
THINK_P99_TARGET_MS = 250.0


def matches(games: int, top_games: int, table_games: int) -> list[tuple[str, list[str], int]]:
    """(what is measured, the bots, games) for every line of the ladder."""
    names = [level.name for level in LEVELS]
    top = names[-1]
    lines = [
        (f"{upper} vs {lower}", [upper, lower], games)
        for lower, upper in zip(names, names[1:], strict=False)
    ]
    lines.append((f"{top} vs greedy", [top, "greedy"], top_games))
    lines.append((f"{top} vs 3 greedy", [top, "greedy", "greedy", "greedy"], table_games))
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.engine.ladder", description=__doc__)
    parser.add_argument("--games", type=int, default=400, help="games per neighbour pair")
    parser.add_argument(
        "--top-games", type=int, default=2000, help="duels of the top level against greedy"
    )
    parser.add_argument(
        "--table-games", type=int, default=800, help="four-player games of the top level"
    )
    parser.add_argument("--seed", default="ladder", help="seed of every arena run")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes per arena run")
    parser.add_argument("--json", action="store_true", help="print every arena result as JSON")
    args = parser.parse_args(argv)

    verdicts = []
    for label, bots, games in matches(args.games, args.top_games, args.table_games):
        start = time.perf_counter()
        result = run_arena(bots, games, args.seed, args.jobs)
        minutes = (time.perf_counter() - start) / 60
        first = bots[0]
        rate = result["win_rate"][first]
        think = result["cpu_ms"][first]  # processor time: one core's, however busy the machine
        command = (
            f"python -m tools.engine arena --bots {','.join(bots)} --games {games} "
            f"--seed {args.seed} --jobs {args.jobs}"
        )
        if args.json:
            print(json.dumps({"match": label, "command": command, **result}), flush=True)
        else:
            print(
                f"{label:<22} {rate['rate']:6.1%} [{rate['low']:.1%}, {rate['high']:.1%}]  "
                f"{first} cpu mean {think['mean']:6.1f} ms p99 {think['p99']:6.1f} ms  "
                f"unfinished {result['unfinished']}  ({minutes:.1f} min)\n    {command}",
                flush=True,
            )
        if len(bots) == 2 and label.endswith("greedy"):
            verdicts.append((f"{label} >= {DUEL_TARGET:.0%}", rate["rate"] >= DUEL_TARGET))
        elif len(bots) == 2:
            verdicts.append((f"{label}: interval above 50%", rate["low"] > 0.5))
        else:
            verdicts.append((f"{label} >= {TABLE_TARGET:.0%}", rate["rate"] >= TABLE_TARGET))
        if label.endswith("greedy"):
            verdicts.append(
                (f"{label}: p99 < {THINK_P99_TARGET_MS:.0f} ms", think["p99"] < THINK_P99_TARGET_MS)
            )
    for what, met in verdicts:
        print(f"{'meets' if met else 'MISSES'}: {what}", file=sys.stderr)
    return 0 if all(met for _, met in verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())
