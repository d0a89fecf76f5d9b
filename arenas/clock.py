"""The arenas' job for the game clock (``settings.CLOCK_JOBS``): their starts, ends, waves,
reminders, schedules and no-shows, at most every ``TICK_SECONDS`` per process."""

from __future__ import annotations

import time
from datetime import datetime

from arenas.services import events

TICK_SECONDS = 1.0
_last = float("-inf")


def tick(now: datetime | None = None) -> None:
    """Run the arenas' tick (``events.tick``) if ``TICK_SECONDS`` have passed in this
    process."""
    global _last
    moment = time.monotonic()
    if moment - _last < TICK_SECONDS:
        return
    _last = moment
    events.tick(now)
