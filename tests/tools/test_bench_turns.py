"""The bench_turns command (make bench-turns) fills the turn-based games, finds those due, and
times the clock's look and the live move path."""

import re
from io import StringIO

import pytest
from django.core.management import call_command

from games.models import Game, Table
from tools.management.commands import bench_turns

pytestmark = pytest.mark.django_db(transaction=True)


def test_it_fills_the_waiting_games_and_reports_the_look_and_the_move_path() -> None:
    out = StringIO()

    call_command(bench_turns.Command(), games=120, looks=5, live=1, runs=1, stdout=out)

    waiting = Game.objects.filter(table__turn_days=3, table__status=Table.Status.PLAYING)
    assert waiting.count() == 120
    report = out.getvalue()
    assert "120 turn-based games waiting" in report
    assert re.search(r"look for due games: median [\d.]+ ms.*10 due found", report)
    assert re.search(r"live move path: [\d,]+ moves/s before, [\d,]+ moves/s with them", report)
