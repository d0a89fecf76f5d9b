"""The bench_match command (make bench-match) really seats the pool it fills."""

import re
from io import StringIO

import pytest
from django.core.management import call_command

from games.models import PoolEntry, Seat, Table
from tools.management.commands import bench_match

pytestmark = pytest.mark.django_db(transaction=True)


def test_it_pairs_and_seats_a_full_pool_and_reports_each_part_of_the_wave() -> None:
    out = StringIO()

    call_command(bench_match.Command(), people=40, pool="party-30", runs=2, stdout=out)

    tables = Table.objects.filter(status=Table.Status.PLAYING)
    assert tables.exists()
    seated = Seat.objects.filter(user__isnull=False)
    assert seated.count() == seated.values("user").distinct().count()  # no one seated twice
    assert seated.count() + PoolEntry.objects.count() == 40
    report = out.getvalue()
    assert "40 waiting in party-30, median of 2 runs" in report
    assert "pairing alone" in report
    assert re.search(r"\+ \d+ tables written, games started\) +[\d.]+ ms", report)
