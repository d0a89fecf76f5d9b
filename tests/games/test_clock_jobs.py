"""The clock's extra jobs: what the apps above the games run on its ticks, named in
settings.CLOCK_JOBS, each given the tick's time, one's failure not stopping the others."""

from __future__ import annotations

import io
import logging
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from games import clock

heard: list[object] = []


def remember(now) -> None:
    heard.append(now)


def fail(now) -> None:
    raise RuntimeError("a job that fails")


@pytest.fixture(autouse=True)
def nothing_heard():
    heard.clear()
    yield
    heard.clear()


def test_the_settings_name_every_clock_s_jobs(settings) -> None:
    settings.CLOCK_JOBS = ["tests.games.test_clock_jobs.remember"]
    assert clock.configured_jobs() == [remember]
    settings.CLOCK_JOBS = []
    assert clock.configured_jobs() == []


def test_a_failing_job_is_logged_and_the_next_runs(caplog) -> None:
    now = timezone.now()
    with caplog.at_level(logging.ERROR, logger="games.clock"):
        clock.Clock(jobs=[fail, remember]).run_jobs(now)
    assert heard == [now]
    assert "failed" in caplog.text


@pytest.mark.django_db(transaction=True)
async def test_each_tick_runs_the_jobs_with_its_time() -> None:
    now = timezone.now() + timedelta(seconds=5)
    await clock.Clock(jobs=[remember]).tick(now)
    assert heard == [now]


@pytest.mark.django_db(transaction=True)  # run_clock closes stale connections, as every tick
def test_run_clock_runs_the_jobs_of_the_settings(settings) -> None:
    settings.CLOCK_JOBS = ["tests.games.test_clock_jobs.remember"]
    call_command("run_clock", "--once", stdout=io.StringIO(), stderr=io.StringIO())
    assert heard == [None]
