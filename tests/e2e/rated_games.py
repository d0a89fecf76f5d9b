"""Rated duels on the e2e site, played at once in a process of its own on the site's database:
``python -m tests.e2e.rated_games PLAYER RIVAL GAMES`` (with the site's DATABASE_URL).

Each duel is opened, joined and started through the services, the two taking turns as host,
and played to its end as ``finish_game`` plays a table: so the pages that show ratings (a
profile's chart, the leaderboards) have something to show. The rival is signed up here if
needed. Eight duels take a newcomer's rating past provisional (sigma 7), onto the leaderboard.
"""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

from tests.e2e.finish_game import ROOT, finish


def play_rated_duels(site_server: Any, player: str, rival: str, games: int) -> list[int]:
    """Play ``games`` rated duels of ``player`` (signed up already) against ``rival`` on the
    e2e site; the finished games' ids."""
    done = subprocess.run(
        [sys.executable, "-m", "tests.e2e.rated_games", player, rival, str(games)],
        cwd=ROOT,
        env=site_server.env,
        check=True,
        capture_output=True,
        text=True,
    )
    return [int(game) for game in done.stdout.split()]


def play(player: str, rival: str, games: int) -> list[int]:
    from django.contrib.auth import get_user_model

    from games.services import tables

    users = get_user_model().objects
    first = users.get(username=player)
    second = users.filter(username=rival).first() or users.create_user(rival, password=None)
    played = []
    for number in range(games):
        host, other = (first, second) if number % 2 == 0 else (second, first)
        table = tables.create_table(
            host, name=f"Rated duel {number + 1}", seat_count=2, turn_seconds=None, rated=True
        )
        tables.join_table(table.pk, other)
        tables.start_game(table.pk, host)
        played.append(finish(table.pk))
    return played


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "taki_site.settings")
    import django

    django.setup()
    print(*play(sys.argv[1], sys.argv[2], int(sys.argv[3])))
