"""What an arena's finished game is worth to each of its players, and the players who never
came to their table.

A game's places are read from the finished game as the ratings read them
(``games.services.ratings.ranking``: the winner first (R21), then by fewer stages still to play
(R22) and fewer cards left, those who left last), and scored by :mod:`arenas.scoring`. Each
arena table is scored once (its ``scored`` flag, set under its lock), whichever comes first: the
game's end or the no-show sweep.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from arenas import scoring
from arenas.models import Arena, ArenaPlayer, ArenaResult, ArenaTable
from arenas.services import broadcast
from games.models import Move, Seat, Table
from games.services import presence, ratings
from games.services.finish import Ending, finish
from lib.sqlite.retry import retried_while_locked

State = ArenaPlayer.State
# A player sent to a table who has neither opened it nor played within this is a no-show.
NO_SHOW_AFTER = timedelta(seconds=30)
NO_SHOWS_TO_WITHDRAW = 2  # in a row


def game_ended(table_id: int, ending: str, winner: int | None, now: datetime | None = None) -> bool:
    """Score the arena table ``table_id`` whose game just ended; False if it is no arena's, or
    was scored already."""
    return retried_while_locked(
        lambda: _game_ended(table_id, ending, winner, now or timezone.now())
    )


def _game_ended(table_id: int, ending: str, winner: int | None, now: datetime) -> bool:
    with transaction.atomic():
        # Only the arena's table is locked: its game may be missing (an outer join).
        arena_table = (
            ArenaTable.objects.select_for_update(of=("self",))
            .select_related("arena", "game")
            .filter(table_id=table_id, scored=False)
            .first()
        )
        # Scored once, by whichever comes first (one conditional UPDATE: SQLite locks no row).
        if arena_table is None or not _claim(arena_table):
            return False
        arena = arena_table.arena
        seats = list(Seat.objects.filter(table_id=table_id).order_by("position"))
        people = {seat.position: seat.replaced_user_id or seat.user_id for seat in seats}
        players = {
            player.user_id: player
            for player in ArenaPlayer.objects.select_for_update().filter(
                arena=arena, user_id__in=[p for p in people.values() if p is not None]
            )
        }
        counts = arena.status == Arena.Status.RUNNING and arena.ends_at > now
        left = {seat.position for seat in seats if seat.replaced_user_id is not None}
        if ending == Ending.WON and arena_table.game is not None:
            state = arena_table.game.state
            ranks = ratings.ranking(
                [len(hand) for hand in state["hands"]], winner, left, state.get("stages")
            )
        elif ending in (Ending.ABANDONED, Ending.FORFEITED):
            ranks = [0] * len(seats)
            left = set(people)  # nobody stayed to the end
        else:  # aborted by a moderator: it counts for no one
            ranks = None
        # Those who left and were scored for it already (``pause_leavers``) may play elsewhere
        # by now: their place is theirs.
        done = set(ArenaResult.objects.filter(table=arena_table).values_list("player", flat=True))
        for position, user_id in people.items():
            player = players.get(user_id)
            if player is None or player.pk in done:
                continue
            gone = position in left
            if ranks is not None and counts:
                _record(arena_table, player, ranks, position, left=gone)
            player.apart = [players[u].pk for u in people.values() if u in players and u != user_id]
            _back_to_pool(player, arena, now, paused=gone)
            player.save()
        broadcast.standings_changed(arena.pk)
    return True


def _claim(arena_table: ArenaTable) -> bool:
    """Mark the table scored; False if something else scored it first."""
    claimed = ArenaTable.objects.filter(pk=arena_table.pk, scored=False).update(scored=True)
    arena_table.scored = True
    return claimed == 1


def _record(
    arena_table: ArenaTable,
    player: ArenaPlayer,
    ranks: list[int],
    position: int,
    *,
    left: bool = False,
    absent: bool = False,
) -> None:
    scored = scoring.score(ranks, position, player.streak, left=left, absent=absent)
    ArenaResult.objects.create(
        table=arena_table,
        player=player,
        points=scored.points,
        place_points=scored.place_points,
        doubled=scored.doubled,
        left=left,
        absent=absent,
    )
    player.points += scored.points
    player.games += 1
    player.streak = scored.streak


def _back_to_pool(player: ArenaPlayer, arena: Arena, now: datetime, *, paused: bool) -> None:
    """The player's game is over: back in the pool, or paused (they left, or never came)."""
    running = arena.status == Arena.Status.RUNNING and arena.ends_at > now
    if paused and player.state == State.ACTIVE:
        player.state = State.PAUSED
    if not paused:
        player.no_shows = 0
    player.waiting_since = now if running and player.state == State.ACTIVE else None


# ---------------------------------------------------------------------------- leavers


def pause_leavers(now: datetime | None = None) -> int:
    """Score 0 and pause, at once, each player who left a running arena game (a bot took their
    seat): they are free to come back and play on while the game goes on without them. Each
    leaver once (their result is the mark); how many."""
    now = now or timezone.now()
    gone = Seat.objects.filter(
        table__arena_table__scored=False,
        table__status=Table.Status.PLAYING,
        replaced_user__isnull=False,
    ).values_list("table__arena_table", "replaced_user_id", "table__seat_count")
    scored = set(
        ArenaResult.objects.filter(
            table__scored=False, table__table__status=Table.Status.PLAYING, left=True
        ).values_list("table_id", "player__user_id")
    )
    paused = 0
    for arena_table_id, user_id, seats in gone:
        if (arena_table_id, user_id) in scored:
            continue
        if retried_while_locked(lambda t=arena_table_id, u=user_id, k=seats: _left(t, u, k, now)):
            paused += 1
    return paused


def _left(arena_table_id: int, user_id: int, seats: int, now: datetime) -> bool:
    with transaction.atomic():
        arena_table = ArenaTable.objects.select_related("arena").get(pk=arena_table_id)
        player = (
            ArenaPlayer.objects.select_for_update()
            .filter(arena=arena_table.arena, user_id=user_id)
            .first()
        )
        if player is None or ArenaResult.objects.filter(table=arena_table, player=player).exists():
            return False
        arena = arena_table.arena
        if arena.status == Arena.Status.RUNNING and arena.ends_at > now:
            _record(arena_table, player, [0] * seats, 0, left=True)
        if player.state == State.ACTIVE:
            player.state = State.PAUSED
        player.waiting_since = None
        player.save()
        broadcast.standings_changed(arena.pk)
    return True


# ---------------------------------------------------------------------------- no-shows


def absent_from(table_ids: Iterable[int], now: datetime) -> dict[int, set[int]]:
    """The people of each running arena table, ``NO_SHOW_AFTER`` old, who have neither opened
    it nor played: table id → their ids."""
    tables = list(table_ids)
    people: dict[int, set[int]] = {}
    for table_id, user_id in Seat.objects.filter(
        table_id__in=tables, user__isnull=False
    ).values_list("table_id", "user_id"):
        people.setdefault(table_id, set()).add(user_id)
    played = set(
        Move.objects.filter(game__table_id__in=tables, source=Move.Source.PLAYER)
        .values_list("game__table_id", "seat")
        .distinct()
    )
    positions = dict(
        ((table_id, user_id), position)
        for table_id, user_id, position in Seat.objects.filter(
            table_id__in=tables, user__isnull=False
        ).values_list("table_id", "user_id", "position")
    )
    absent = {}
    for table_id, seated in people.items():
        waiting = [u for u in seated if (table_id, positions[table_id, u]) not in played]
        if not waiting:
            continue
        came = presence.arrived_users(table_id, waiting) | presence.connected_users(
            table_id, waiting
        )
        missing = set(waiting) - came
        if missing:
            absent[table_id] = missing
    return absent


def sweep_no_shows(now: datetime | None = None) -> list[int]:
    """Abort every running arena table someone never came to: the absent score 0 and are
    paused (withdrawn after ``NO_SHOWS_TO_WITHDRAW`` in a row), the others go back to the pool
    with the time they had waited. Returns the tables' ids."""
    now = now or timezone.now()
    candidates = list(
        ArenaTable.objects.filter(
            scored=False,
            table__status=Table.Status.PLAYING,
            created_at__lte=now - NO_SHOW_AFTER,
        ).values_list("table_id", flat=True)
    )
    if not candidates:
        return []
    aborted = []
    for table_id, missing in retried_while_locked(lambda: absent_from(candidates, now)).items():
        if retried_while_locked(lambda t=table_id, m=missing: _abort(t, m, now)):
            aborted.append(table_id)
    return aborted


def _abort(table_id: int, missing: set[int], now: datetime) -> bool:
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id).first()
        arena_table = (
            ArenaTable.objects.select_for_update()
            .select_related("arena")
            .filter(table_id=table_id, scored=False)
            .first()
        )
        if table is None or arena_table is None or table.status != Table.Status.PLAYING:
            return False
        missing = absent_from([table_id], now).get(table_id, set())  # asked again, locked
        if not missing:
            return False
        if not _claim(arena_table):
            return False
        arena = arena_table.arena
        seats = list(Seat.objects.filter(table=table, user__isnull=False))
        players = ArenaPlayer.objects.select_for_update().filter(
            arena=arena, user_id__in=[seat.user_id for seat in seats]
        )
        for player in players:
            if player.user_id in missing:
                _record(arena_table, player, [0] * len(seats), 0, absent=True)
                player.no_shows += 1
                player.waiting_since = None
                if player.no_shows >= NO_SHOWS_TO_WITHDRAW:
                    player.state = State.WITHDRAWN
                elif player.state == State.ACTIVE:
                    player.state = State.PAUSED
            elif player.state == State.ACTIVE and arena.status == Arena.Status.RUNNING:
                # Back at the head of the pool: waiting since they were seated.
                player.waiting_since = arena_table.created_at
            player.save()
        table.no_show_id = min(missing)
        table.save(update_fields=["no_show"])
        finish(table, Ending.ABORTED, now=now)
        broadcast.standings_changed(arena.pk)
    return True
