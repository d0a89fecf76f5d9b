"""Quick match's pairing: the people waiting in one pool in, the groups to seat out.

Pure and standard library only (the clock's tick calls it with the entries it read; a benchmark
calls it with thousands of made-up ones). docs/playing.md says the same in a player's words.

- Each wave takes the people who have waited longest first. Each is seated with the people
  nearest to them in rating who are still unseated, if those are within their **band**: the
  rating gap they accept, which widens the longer they wait (:func:`band`). The one who waited
  longest sets the band of the group: a newcomer may meet a long waiter a little further away
  than they would have chosen, and the long waiter is not left waiting for ever.
- A group is as large as the pool's table: no one is seated twice, no one half a group.
- Someone who asked for bots and has waited ``BOTS_AFTER`` seconds without a full group is
  seated with the people in their band who asked for bots too, and bots on the seats left.
  Nobody who did not ask for bots is ever seated with them (a bot makes the game casual).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

# The band, in shown rating points: ±BAND_START at once, BAND_GROWTH more each second waited.
# After 30 s ±400; after a minute ±700; after two minutes almost anyone.
BAND_START = 100
BAND_GROWTH = 10
BOTS_AFTER = 20.0  # seconds before someone who asked for bots is seated with them


@dataclass(frozen=True, slots=True)
class Waiting:
    """One person waiting in a pool, as the pairing sees them."""

    entry: int  # the pool entry's id
    rating: int  # shown rating in the pool's mode, when they entered
    waited: float  # seconds since they entered
    bots_wanted: bool = False


@dataclass(frozen=True, slots=True)
class Group:
    """The people of one new table, in seat order, and how many bots take the seats left."""

    entries: tuple[int, ...]
    bots: int = 0


def band(waited: float) -> float:
    """The rating gap someone accepts after waiting ``waited`` seconds."""
    return BAND_START + BAND_GROWTH * max(waited, 0.0)


def pair(waiting: Iterable[Waiting], seats: int) -> list[Group]:
    """The groups of ``seats`` to seat this wave; the others wait for the next.

    Runs in O(n log n) for n people: they are sorted by rating once, and those still unseated
    kept in a doubly linked list in that order, so that finding a person's nearest neighbours
    never walks over the seated.
    """
    if seats < 2:
        raise ValueError("a table has at least two seats")
    people = sorted(waiting, key=lambda person: (person.rating, person.entry))
    count = len(people)
    before = list(range(-1, count - 1))  # the nearest unseated person below, -1 for none
    after = list(range(1, count + 1))  # above, ``count`` for none
    seated = [False] * count

    def unlink(index: int) -> None:
        seated[index] = True
        if before[index] >= 0:
            after[before[index]] = after[index]
        if after[index] < count:
            before[after[index]] = before[index]

    groups: list[Group] = []
    longest_first = sorted(range(count), key=lambda index: (-people[index].waited, index))
    for anchor in longest_first:
        if seated[anchor]:
            continue
        person = people[anchor]
        widest = band(person.waited)
        mates = _nearest(people, before, after, anchor, seats - 1, widest, bots_only=False)
        bots = 0
        if len(mates) < seats - 1:
            if not (person.bots_wanted and person.waited >= BOTS_AFTER):
                continue  # waits for the next wave, its band a little wider
            mates = _nearest(people, before, after, anchor, seats - 1, widest, bots_only=True)
            bots = seats - 1 - len(mates)
        for index in (anchor, *mates):
            unlink(index)
        groups.append(Group(tuple(people[i].entry for i in (anchor, *mates)), bots))
    return groups


def _nearest(
    people: list[Waiting],
    before: list[int],
    after: list[int],
    anchor: int,
    wanted: int,
    widest: float,
    *,
    bots_only: bool,
) -> list[int]:
    """Up to ``wanted`` unseated people nearest to ``anchor`` in rating and within ``widest`` of
    it (only those who asked for bots, if ``bots_only``), nearest first."""
    rating = people[anchor].rating
    below, above = before[anchor], after[anchor]
    found: list[int] = []
    while len(found) < wanted:
        gap_below = rating - people[below].rating if below >= 0 else None
        gap_above = people[above].rating - rating if above < len(people) else None
        if gap_below is None and gap_above is None:
            break
        take_below = gap_above is None or (gap_below is not None and gap_below <= gap_above)
        index, gap = (below, gap_below) if take_below else (above, gap_above)
        if gap > widest:
            break  # the other side is further still
        if take_below:
            below = before[below]
        else:
            above = after[above]
        if not bots_only or people[index].bots_wanted:
            found.append(index)
    return found
