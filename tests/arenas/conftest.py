"""An arena of the tests' own, and its people."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from arenas.models import Arena

User = get_user_model()


@pytest.fixture
def make_arena(db) -> Callable[..., Arena]:
    """``make_arena(seats=2, starts_in=-1, minutes=30, ...)``: a site arena (running if it
    started already, as the clock would have it)."""

    def make(*, starts_in: float = -60.0, **options) -> Arena:
        options.setdefault("name", "Evening arena")
        options.setdefault("seats", 2)
        options.setdefault("turn_seconds", None)
        options.setdefault("minutes", 30)
        starts_at = timezone.now() + timedelta(seconds=starts_in)
        status = Arena.Status.RUNNING if starts_in <= 0 else Arena.Status.SCHEDULED
        return Arena.objects.create(starts_at=starts_at, status=status, **options)

    return make


@pytest.fixture
def people(db) -> Callable[[int], list]:
    def make(count: int) -> list:
        return [
            User.objects.create_user(f"player{n}", password="player-password-1")
            for n in range(count)
        ]

    return make
