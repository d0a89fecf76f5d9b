"""The bench_arena command (make bench-arena) really seats the arena it fills."""

import re
from io import StringIO

import pytest
from django.core.management import call_command

from arenas.models import ArenaPlayer, ArenaResult
from games.models import Seat, Table
from tools.management.commands import bench_arena

pytestmark = [pytest.mark.bench, pytest.mark.django_db(transaction=True)]


def test_it_pairs_and_seats_a_full_arena_and_reports_each_part_of_the_wave() -> None:
    out = StringIO()

    call_command(bench_arena.Command(), people=30, seats=3, runs=2, stdout=out)

    assert Table.objects.filter(status=Table.Status.PLAYING).count() == 10
    seated = Seat.objects.filter(user__isnull=False)
    assert seated.count() == seated.values("user").distinct().count() == 30
    # Each table's end heard: its people back in the pool, with their points.
    assert ArenaPlayer.objects.filter(waiting_since__isnull=False).count() == 30
    assert ArenaResult.objects.count() == 30
    assert ArenaResult.objects.filter(place_points=2).count() == 10
    report = out.getvalue()
    assert "30 waiting in an arena of tables of 3, median of 2 runs" in report
    assert re.search(r"\+ 10 tables written, games started\) +[\d.]+ ms", report)
    assert re.search(r"a game's end scored +[\d.]+ ms", report)
    assert re.search(r"read once [\d.]+ ms, drawn for 30 pages [\d.]+ ms", report)
