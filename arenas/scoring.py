"""An arena's points: what one finish at one table is worth, and the streak that doubles them.

Pure and standard library only (the arena's results call it with each seat's rank, which
``games.services.ratings.ranking`` reads from the finished game: R21, R22). docs/playing.md says
the same in a player's words.

- **Points by place**: a seat scores one point for every seat that finished behind it: ``k − 1``
  for the winner of a table of ``k``, down to 0 for the last. Seats that tie (two players of a
  tournament-rules game, R22, on the same stage with as many cards) score alike.
- **Leavers and no-shows** score 0, whatever the bot that took their seat did.
- **The streak** ("on fire"): a top-half finish (more points than half of ``k − 1``) adds one to
  the streak, a bottom-half finish (fewer) puts it back to 0, the middle place of an odd table
  leaves it as it is. With a streak of two or more before the game, its points count double,
  unless the finish is in the bottom half: that one counts once, and the fire is out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

FIRE_AFTER = 2  # top-half finishes in a row that light the fire


@dataclass(frozen=True, slots=True)
class Scored:
    """One seat's finish as the arena counts it."""

    points: int  # what it adds to the player's score (doubled on fire)
    place_points: int  # the points by place alone
    streak: int  # the player's streak after it
    doubled: bool


def place_points(ranks: Sequence[int], seat: int) -> int:
    """The points by place of ``seat``: how many seats finished strictly behind it (``ranks``:
    each seat's rank, 0 first, equal ranks tie)."""
    mine = ranks[seat]
    return sum(1 for rank in ranks if rank > mine)


def half(points: int, seats: int) -> int:
    """+1 for a top-half finish, -1 for a bottom-half one, 0 for the middle of an odd table."""
    twice, best = 2 * points, seats - 1
    return (twice > best) - (twice < best)


def on_fire(streak: int) -> bool:
    return streak >= FIRE_AFTER


def score(
    ranks: Sequence[int], seat: int, streak: int, *, left: bool = False, absent: bool = False
) -> Scored:
    """What ``seat``'s finish adds, and the streak after it, for a player whose streak was
    ``streak`` before the game. ``left``: they left the game (a bot took their seat);
    ``absent``: they never came to the table. Either scores 0 and ends the streak."""
    if left or absent:
        return Scored(0, 0, 0, False)
    points = place_points(ranks, seat)
    where = half(points, len(ranks))
    doubled = on_fire(streak) and where >= 0
    after = streak + 1 if where > 0 else 0 if where < 0 else streak
    return Scored(points * 2 if doubled else points, points, after, doubled)
