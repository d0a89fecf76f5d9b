"""The bench_site command (make bench-site) really plays bot games to the end through services."""

from io import StringIO

import pytest
from django.core.management import call_command

from games.models import Game, Move
from games.services.history import verify_game
from tools.management.commands import bench_site

pytestmark = pytest.mark.django_db


def test_it_plays_bot_games_to_the_end_and_reports_moves_per_second() -> None:
    out = StringIO()

    call_command(bench_site.Command(), games=2, players=3, runs=1, stdout=out)

    games = list(Game.objects.all())
    assert len(games) == 2
    assert all(game.winner is not None for game in games)
    assert all(verify_game(game) for game in games)  # the log replays to the stored state
    assert f"{Move.objects.count():,} moves logged" in out.getvalue()
    assert "moves per second through services" in out.getvalue()
