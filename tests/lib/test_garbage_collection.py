"""A server process's garbage collector, set once start-up is over (``lib.garbage_collection``)."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from games.live.server import LiveSide
from lib import garbage_collection


@pytest.fixture
def collector() -> Iterator[garbage_collection.Settling]:
    """A process that has not settled its collector yet; Python's own settings back after."""
    threshold = gc.get_threshold()
    yield garbage_collection.Settling()
    gc.unfreeze()
    gc.set_threshold(*threshold)


def test_settling_freezes_what_start_up_made_and_makes_collections_rarer(
    collector,
) -> None:
    made_at_start_up = [object() for _ in range(10)]
    gc.unfreeze()

    collector.settle()

    assert gc.get_freeze_count() > len(made_at_start_up)
    assert gc.get_threshold()[2] == garbage_collection.OLD_THRESHOLD


def test_only_the_first_call_settles(collector) -> None:
    collector.settle()
    gc.unfreeze()

    collector.settle()

    assert gc.get_freeze_count() == 0


async def test_the_live_side_settles_the_collector_as_it_serves_its_first_socket(
    collector,
) -> None:
    async def app(scope, receive, send) -> None:
        return None

    side = LiveSide(app, collector=collector)
    assert not collector.settled

    await side({"type": "websocket", "path": "/ws/lobby/"}, None, None)

    assert collector.settled and gc.get_freeze_count() > 0
    await side.hub().close()
