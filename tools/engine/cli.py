"""``python -m tools.engine``: let bots play each other, or measure them in an arena.

Replaying a game record is the engine's own command line (``python -m games.engine replay``)."""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

from games.engine.bots import BOTS, LEVELS, make_bot
from games.engine.record import new_record
from tools.engine.arena import ARENA_MAX_ACTIONS, run_arena
from tools.engine.selfplay import MAX_ACTIONS, play_game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.engine",
        description="Let TAKI bots play each other, or measure them in an arena.",
    )
    commands = parser.add_subparsers(dest="command", required=True)

    sp = commands.add_parser(
        "selfplay",
        help="let bots play games against each other",
        description="Play games between bots and print games per second, average actions per "
        "game and wins per bot.",
    )
    sp.add_argument("--players", type=_players, default=2, help="seats per game, 2 to 10")
    sp.add_argument("--games", type=_positive, default=100, help="how many games")
    sp.add_argument(
        "--bots",
        type=_bots,
        default=["greedy", "random"],
        help=f"comma-separated bot per seat, repeated cyclically ({', '.join(BOTS)}); "
        "default greedy,random",
    )
    sp.add_argument("--seed", default=None, help="seed for decks and bots, for repeatable runs")
    sp.add_argument("--tournament", action="store_true", help="play tournament games (R22)")
    sp.add_argument("--records", type=Path, help="write every game as DIR/game-NNNNN.json")
    sp.add_argument(
        "--max-actions",
        type=_positive,
        default=MAX_ACTIONS,
        help=f"cut a game after this many actions, as unfinished (default {MAX_ACTIONS:,})",
    )
    sp.add_argument("--quiet", action="store_true", help="no progress bar")

    levels = ", ".join(f"{level.name} ({level.label})" for level in LEVELS)
    ar = commands.add_parser(
        "arena",
        help="measure bots against each other and print the result as JSON",
        description="Seat one bot per name and play GAMES games, the seats rotated one place "
        "each game so that every bot sits in every position equally. Print one JSON object: "
        "wins and win rate (with its 95% Wilson interval) per bot name, summed over its seats, "
        "unfinished games, moves, and thinking time per decision. The same seed gives the same "
        f"games for any --jobs. Levels, weakest first: {levels}; also random and greedy.",
    )
    ar.add_argument(
        "--bots",
        type=_arena_bots,
        required=True,
        help="comma-separated bot per seat, 2 to 10 names, e.g. hard,greedy,greedy,greedy",
    )
    ar.add_argument("--games", type=_positive, default=100, help="how many games (default 100)")
    ar.add_argument("--seed", default="arena", help="seed of the run (default 'arena')")
    ar.add_argument("--jobs", type=_positive, default=1, help="worker processes (default 1)")
    ar.add_argument(
        "--max-actions",
        type=_positive,
        default=ARENA_MAX_ACTIONS,
        help=f"cut a game after this many actions, as unfinished (default {ARENA_MAX_ACTIONS:,})",
    )

    args = parser.parse_args(argv)
    if args.command == "arena":
        result = run_arena(args.bots, args.games, args.seed, args.jobs, args.max_actions)
        print(json.dumps(result))
        return 0
    return _selfplay(args)


def _selfplay(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    names = [args.bots[i % len(args.bots)] for i in range(args.players)]
    bots = [make_bot(name, random.Random(rng.getrandbits(64))) for name in names]
    seats = [f"{name}-{i}" for i, name in enumerate(names)]
    if args.records:
        args.records.mkdir(parents=True, exist_ok=True)
    wins: Counter[str] = Counter()
    actions = unfinished = 0
    progress = None if args.quiet else _Progress(args.games)
    start = time.perf_counter()
    for number in range(1, args.games + 1):
        record = new_record(seats, rng, args.tournament)
        result = play_game(record, bots, args.records is not None, args.max_actions)
        actions += result.actions
        if result.winner is None:
            unfinished += 1
        else:
            wins[names[result.winner]] += 1
        if args.records:
            (args.records / f"game-{number:05d}.json").write_text(record.dumps())
        if progress:
            progress.update(number)
    elapsed = time.perf_counter() - start
    if progress:
        progress.close()
    kind = "tournament" if args.tournament else "standard"
    print(f"{args.games} {kind} games, {args.players} players, bots {','.join(names)}")
    print(f"games per second: {args.games / elapsed:,.1f}")
    print(f"actions per second: {actions / elapsed:,.0f}")
    print(f"average actions per game: {actions / args.games:,.1f}")
    seated = Counter(names)
    for name in sorted(seated, key=lambda n: -wins[n]):
        share = wins[name] / args.games
        print(f"wins {name}: {wins[name]} ({share:.1%}, {seated[name]} seat(s))")
    if unfinished:
        print(f"unfinished (cut at {args.max_actions:,} actions): {unfinished}")
    return 0


class _Progress:
    """A progress bar on standard error, redrawn at most 20 times a second."""

    def __init__(self, total: int, width: int = 30) -> None:
        self.total, self.width = total, width
        self.start = self.last = time.perf_counter()

    def update(self, done: int) -> None:
        now = time.perf_counter()
        if now - self.last < 0.05 and done < self.total:
            return
        self.last = now
        filled = self.width * done // self.total
        rate = done / max(now - self.start, 1e-9)
        bar = "#" * filled + "-" * (self.width - filled)
        sys.stderr.write(f"\r[{bar}] {done}/{self.total} games {rate:,.0f}/s")
        sys.stderr.flush()

    def close(self) -> None:
        sys.stderr.write("\n")


def _players(text: str) -> int:
    value = int(text)
    if not 2 <= value <= 10:
        raise argparse.ArgumentTypeError("a game has 2 to 10 players")
    return value


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def _bots(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in BOTS]
    if not names or unknown:
        raise argparse.ArgumentTypeError(f"bots are chosen from {', '.join(BOTS)}")
    return names


def _arena_bots(text: str) -> list[str]:
    names = _bots(text)
    if not 2 <= len(names) <= 10:
        raise argparse.ArgumentTypeError("an arena seats 2 to 10 bots, one per name")
    return names
