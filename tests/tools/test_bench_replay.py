"""``manage.py bench_replay`` stores a long game and times replay steps through the snapshots."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command

from games.models import ReplaySnapshot
from games.services import replays
from tools.management.commands import bench_replay


@pytest.mark.django_db
def test_it_times_steps_early_and_late_from_the_snapshots() -> None:
    out = io.StringIO()

    call_command(
        bench_replay.Command(), "--players", "4", "--moves", "300", "--repeat", "2", stdout=out
    )

    lines = out.getvalue().splitlines()
    total = int(re.search(r"game of ([\d,]+) moves", lines[0]).group(1).replace(",", ""))
    assert [
        int(re.search(r"step +([\d,]+)", line).group(1).replace(",", "")) for line in lines[1:]
    ] == [1, total // 2, total]
    assert ReplaySnapshot.objects.count() == total // replays.SNAPSHOT_EVERY + 1
