"""Replays of finished games: the table after any move, at a cost that does not grow with the
game's length.

The engine's snapshot is kept every ``SNAPSHOT_EVERY`` moves (:class:`ReplaySnapshot`), built in
one pass on the game's first replay. A step then loads the snapshot at or before it and applies
at most ``SNAPSHOT_EVERY - 1`` moves, instead of replaying the game from the deal. Only for
finished games: a snapshot holds every hand.
"""

from __future__ import annotations

from django.db import transaction

from games.engine import Action, GameState
from games.models import Game, ReplaySnapshot

SNAPSHOT_EVERY = 32


def engine_at(game: Game, step: int) -> GameState:
    """The engine's game after the first ``step`` moves of the finished ``game``."""
    if not game.finished:
        raise ValueError("only a finished game is replayed")  # its snapshots would hold hands
    step = min(max(step, 0), game.version)
    base = (step // SNAPSHOT_EVERY) * SNAPSHOT_EVERY
    snapshot = (
        ReplaySnapshot.objects.filter(game=game, seq=base).values_list("state", flat=True).first()
    )
    if snapshot is None:
        build_snapshots(game)
        snapshot = ReplaySnapshot.objects.values_list("state", flat=True).get(game=game, seq=base)
    engine = GameState.from_snapshot(snapshot)
    actions = game.moves.filter(seq__gte=base, seq__lt=step).order_by("seq")
    for raw in actions.values_list("action", flat=True):
        engine.apply(Action.from_json(raw, engine.players))
    return engine


def build_snapshots(game: Game) -> int:
    """Replay ``game`` once from the deal, keeping a snapshot every ``SNAPSHOT_EVERY`` moves;
    how many were kept. Another request building them at the same time is harmless."""
    engine = _new_game(game)
    snapshots = [ReplaySnapshot(game=game, seq=0, state=engine.to_snapshot())]
    for seq, raw in enumerate(game.moves.order_by("seq").values_list("action", flat=True)):
        engine.apply(Action.from_json(raw, engine.players))
        if (seq + 1) % SNAPSHOT_EVERY == 0:
            snapshots.append(ReplaySnapshot(game=game, seq=seq + 1, state=engine.to_snapshot()))
    with transaction.atomic():
        ReplaySnapshot.objects.bulk_create(snapshots, ignore_conflicts=True)
    return len(snapshots)


def _new_game(game: Game) -> GameState:
    return GameState(
        list(game.deck), len(game.players), game.first_player, game.seed, game.tournament
    )
