"""Who plays whom in an arena's wave: the players waiting in its pool in, the tables out.

Pure and standard library only (the arena's wave calls it with the players it read; a benchmark
with thousands of made-up ones). docs/playing.md says the same in a player's words.

- A wave seats as many full tables of ``k`` as the waiting players make. When they do not
  divide by ``k``, those who have waited least are left for the next wave (a player's game that
  ends a moment later joins them there).
- The others are ordered by score (then rating), and each table takes the best placed player
  still unseated and the next ones in that order, skipping anyone who shared the last table of
  someone already at it (**kept apart**). When the pool has nobody else left, they are seated
  together anyway, as few of them as the order allows; but the very same table again (everyone
  at it shared the last one) only once one of them has waited ``REMATCH_AFTER`` seconds.
- Players left over who have waited ``SMALLER_AFTER`` seconds are seated together at a smaller
  table (two at least); in an arena whose creator allowed bots, bots fill it to ``k`` instead.
  Someone alone waits: nobody else is free.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

SMALLER_AFTER = 20.0  # seconds before a player left over is seated at a smaller table
REMATCH_AFTER = 20.0  # seconds before people who just shared a table may share the next
LOOK_AHEAD = 12  # players looked at past a kept-apart one before giving up keeping apart


@dataclass(frozen=True, slots=True)
class Waiting:
    """One player in the arena's pool, as the pairing sees them."""

    player: int  # the arena player's id
    points: int
    rating: int
    waited: float  # seconds since their last game ended (or since the arena started)
    apart: frozenset[int] = field(default_factory=frozenset)  # players of their last table


@dataclass(frozen=True, slots=True)
class Table:
    """The players of one new table, best placed first, and how many bots take the seats left."""

    players: tuple[int, ...]
    bots: int = 0


def pair(waiting: Iterable[Waiting], seats: int, *, bots_allowed: bool = False) -> list[Table]:
    """The tables of ``seats`` to seat this wave; the others wait for the next.

    O(n log n) for n players, plus at most ``LOOK_AHEAD`` looks per seat.
    """
    if seats < 2:
        raise ValueError("a table has at least two seats")
    people = list(waiting)
    spare = len(people) % seats
    # Those who waited least wait on, when the players do not divide into full tables.
    by_wait = sorted(people, key=lambda w: (w.waited, -w.points, -w.rating, w.player))
    left_over, seated_now = by_wait[:spare], by_wait[spare:]
    order = sorted(seated_now, key=lambda w: (-w.points, -w.rating, w.player))
    tables = _tables(order, seats)
    late = [w for w in left_over if w.waited >= SMALLER_AFTER]
    if bots_allowed and late:
        # Bots fill a table for the longest waiters; nobody else was free.
        late.sort(key=lambda w: (-w.points, -w.rating, w.player))
        for start in range(0, len(late), seats):
            group = late[start : start + seats]
            tables.append(Table(tuple(w.player for w in group), seats - len(group)))
    elif len(late) >= 2:
        late.sort(key=lambda w: (-w.points, -w.rating, w.player))
        tables.append(Table(tuple(w.player for w in late)))
    return tables


def _tables(order: list[Waiting], seats: int) -> list[Table]:
    """Full tables from ``order`` (its length a multiple of ``seats``), kept apart if possible."""
    count = len(order)
    taken = [False] * count
    first = 0  # the best placed unseated player's index
    tables: list[Table] = []
    while True:
        while first < count and taken[first]:
            first += 1
        if first >= count:
            return tables
        group = [first]
        taken[first] = True
        apart = set(order[first].apart)
        players = {order[first].player}
        index, looked = first + 1, 0
        skipped: list[int] = []
        while len(group) < seats and index < count:
            if not taken[index]:
                candidate = order[index]
                if candidate.player in apart or players & candidate.apart:
                    skipped.append(index)
                    looked += 1
                    if looked > LOOK_AHEAD:
                        break
                else:
                    group.append(index)
                    taken[index] = True
                    apart |= candidate.apart
                    players.add(candidate.player)
            index += 1
        # Nobody else within reach: those who just shared a table sit together again, once one
        # of them has waited long enough for anyone else to come.
        for other in (*skipped, *range(index, count)):
            if len(group) == seats:
                break
            if not taken[other]:
                group.append(other)
                taken[other] = True
        last = order[first].apart
        again = all(order[i].player in last for i in group[1:])
        if again and max(order[i].waited for i in group) < REMATCH_AFTER:
            continue  # they wait for the next wave (still taken: nobody else takes them now)
        tables.append(Table(tuple(order[i].player for i in group)))
