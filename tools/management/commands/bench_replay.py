"""``manage.py bench_replay``: what one replay step costs, early and late in a long game.

Bots play a long game (a tournament at ten seats, R22) in the engine; it is stored as a
finished game with its move log, as the site stores one. Then a step is timed at the start, the
middle and the end of the game, through ``replays.engine_at`` (a snapshot every
``SNAPSHOT_EVERY`` moves) and, for comparison, by replaying from the deal. Run it on a throwaway
database (``DATABASE_URL=sqlite:////tmp/bench.sqlite3``, after ``migrate``).
"""

from __future__ import annotations

import random
import statistics
import time

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction
from django.utils import timezone

from games.engine import Record, make_bot, replay
from games.engine.record import new_record
from games.models import Game, Move, Table
from games.services import replays
from tools.engine.selfplay import play_game


class Command(BaseCommand):
    help = "Time a replay step early and late in a long stored game (writes to the database)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, default=10, help="seats, 2 to 10")
        parser.add_argument("--moves", type=int, default=20_000, help="moves at most")
        parser.add_argument("--repeat", type=int, default=20, help="timings per step")
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args, players: int, moves: int, repeat: int, seed: int, **options) -> None:
        game = self._stored_game(players, seed, moves)
        total = game.version
        replays.build_snapshots(game)
        self.stdout.write(f"a stored game of {total:,} moves, {players} seats (tournament)")
        for step in (1, total // 2, total):
            snapshot = self._median_ms(lambda step=step: replays.engine_at(game, step), repeat)
            naive = self._median_ms(
                lambda step=step: self._from_the_deal(game, step), max(3, repeat // 5)
            )
            self.stdout.write(
                f"step {step:>6,}: {snapshot:7.2f} ms from the snapshots, "
                f"{naive:8.2f} ms replayed from the deal"
            )

    def _stored_game(self, players: int, seed: int, moves: int) -> Game:
        rng = random.Random(seed)
        names = [f"bot{seat}" for seat in range(players)]
        record = new_record(names, rng, tournament=True)
        result = play_game(record, [make_bot("random", rng) for _ in names], max_actions=moves)
        host, _ = get_user_model().objects.get_or_create(username="bench-replay")
        with transaction.atomic():
            table = Table.objects.create(
                name="bench replay", host=host, seat_count=players, status="finished"
            )
            game = Game.objects.create(
                table=table,
                seed=record.seed,
                players=names,
                deck=list(record.deck),
                first_player=record.first_player,
                tournament=True,
                state=result.game.to_snapshot(),
                version=result.actions,
                # Stopped at ``moves`` if nobody won by then: stored as won by seat 0, since only a
                # finished game is replayed.
                winner=result.game.winner if result.game.winner is not None else 0,
                finished_at=timezone.now(),
            )
            digest = ""
            rows = []
            for seq, action in enumerate(record.actions):
                data = action.to_json()
                digest = Move.chain(digest, data)
                rows.append(Move(game=game, seq=seq, seat=0, action=data, digest=digest))
            Move.objects.bulk_create(rows)
        return game

    @staticmethod
    def _from_the_deal(game: Game, step: int) -> None:
        record: Record = game.record()
        record.actions = record.actions[:step]
        replay(record)

    @staticmethod
    def _median_ms(work, repeat: int) -> float:
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            work()
            times.append((time.perf_counter() - start) * 1000)
        return statistics.median(times)
