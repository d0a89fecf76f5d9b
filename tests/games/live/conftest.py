"""What every socket test starts from."""

from __future__ import annotations

import pytest

from games.live import limits


@pytest.fixture(autouse=True)
def no_flooders() -> None:
    """No one is held back from opening sockets by an earlier test's flood."""
    limits.flooders.clear()


@pytest.fixture(autouse=True)
def no_visitors_counted() -> None:
    """No address holds sockets left open by an earlier test."""
    limits.visitors.clear()
