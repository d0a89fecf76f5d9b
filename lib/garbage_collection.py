"""Python's garbage collector, set once a server process has started, so that full collections
do not hold up every table's pushes at once.

A server process builds most of what it will ever hold while it starts (modules, settings,
templates, the translation catalogues) and keeps it for its life; each full collection would
walk all of it again, on the event loop, with every socket waiting. Once the process serves its
first socket, that is collected once and frozen out of the collector's sight (``gc.freeze``),
and a full collection waits for ten times as many collections of the middle generation as
Python's default. The young and middle generations' own passes stay as Python sets them: larger
young passes were tried, and each one held the loop longer. What full collections cost at 200
tables, and what this bought: docs/benchmarks.md, "No stalls".
"""

from __future__ import annotations

import gc

# Collections of the middle generation before a full one is considered (Python's default: 10;
# Python also waits until the objects that survived since the last one are a quarter more).
OLD_THRESHOLD = 100


class Settling:
    """Whether a process has settled its collector yet: the first :meth:`settle` does it, the
    others nothing."""

    def __init__(self) -> None:
        self.settled = False

    def settle(self) -> bool:
        """Collect and freeze what the process holds after start-up, and make full collections
        rarer; the first call only. Whether this call did it."""
        if self.settled:
            return False
        self.settled = True
        gc.collect()
        gc.freeze()
        young, middle, _old = gc.get_threshold()
        gc.set_threshold(young, middle, OLD_THRESHOLD)
        return True


# This process's.
process = Settling()


def settle() -> bool:
    """Settle this process's collector, once (:meth:`Settling.settle`)."""
    return process.settle()
