"""Players for the accounts tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.cache import cache

PASSWORD = "a-long-enough-passphrase"

User = get_user_model()


@pytest.fixture(autouse=True)
def fresh_cache() -> Iterator[None]:
    # The log-in throttle counts failures in the cache, which outlives a test's database.
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def dana(db) -> AbstractBaseUser:
    return User.objects.create_user("Dana", "dana@example.com", PASSWORD)


@pytest.fixture
def ben(db) -> AbstractBaseUser:
    return User.objects.create_user("ben", "", PASSWORD)
