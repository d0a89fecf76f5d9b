"""A bot that takes its time, for the clock's tests. The clock's worker processes import this
module, so it imports the standard library and the engine's side of the site only."""

from __future__ import annotations

import time
from typing import Any

from games.services import thinking

SECONDS = 0.6


def slow_choose(turn: thinking.BotTurn) -> dict[str, Any]:
    """The bot's usual choice, after ``SECONDS`` of thought."""
    time.sleep(SECONDS)
    return thinking.choose(turn)
