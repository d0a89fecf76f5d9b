"""Play a table of the e2e site to its end at once, in a process of its own on the site's
database: ``python -m tests.e2e.finish_game TABLE_ID`` (with the site's DATABASE_URL).

People's seats play a greedy bot's choices through ``moves.submit_action`` as themselves; the
bots' seats are played by ``moves.advance``, each an hour later than the last, so that a long
game against bots takes a second, not minutes of bot pauses. The site's pages learn of it on
their next load (the pushes of this process reach no socket).
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def finish_on_site(site_server: Any, table_id: int) -> int:
    """Play the table of the e2e site to its end at once, in a process of its own; the finished
    game's id."""
    done = subprocess.run(
        [sys.executable, "-m", "tests.e2e.finish_game", str(table_id)],
        cwd=ROOT,
        env=site_server.env,
        check=True,
        capture_output=True,
        text=True,
    )
    return int(done.stdout.strip().splitlines()[-1])


def finish(table_id: int) -> int:
    from django.utils import timezone

    from games.engine import make_bot
    from games.models import Game, Seat
    from games.services import moves

    bot = make_bot("greedy", random.Random(5))
    later = timezone.now()
    for _ in range(5000):
        game = Game.objects.get(table_id=table_id)
        if game.finished:
            return game.pk
        engine = game.engine()
        seat = engine.seats_to_act()[0]
        user = Seat.objects.select_related("user").get(table_id=table_id, position=seat).user
        if user is None:
            later += timedelta(hours=1)
            moves.advance(game.pk, later)
            continue
        action = bot.choose(engine, seat).to_json()
        moves.submit_action(table_id, user, {**action, "version": game.version})
    raise SystemExit("the game did not finish")


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "taki_site.settings")
    import django

    django.setup()
    print(finish(int(sys.argv[1])))
