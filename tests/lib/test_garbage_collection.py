"""A server process's garbage collector, set once start-up is over (``lib.garbage_collection``)."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from games.live import table_hub
from lib import garbage_collection as collector


@pytest.fixture
def fresh_collector(monkeypatch) -> Iterator[None]:
    """A process that has not settled its collector yet; Python's own settings back after."""
    monkeypatch.setattr(collector, "_settled", False)
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


def test_settling_freezes_what_start_up_made_and_makes_collections_rarer(
    fresh_collector,
) -> None:
    made_at_start_up = [object() for _ in range(10)]
    gc.unfreeze()

    collector.settle()

    assert gc.get_freeze_count() > len(made_at_start_up)
    assert gc.get_threshold()[2] == collector.OLD_THRESHOLD


def test_only_the_first_call_settles(fresh_collector) -> None:
    collector.settle()
    gc.unfreeze()

    collector.settle()

    assert gc.get_freeze_count() == 0


async def test_the_process_s_hub_settles_the_collector_when_it_is_made(
    fresh_collector, monkeypatch
) -> None:
    monkeypatch.setattr(table_hub, "_hub", None)

    hub = table_hub.TableHub.here()

    assert collector._settled and gc.get_freeze_count() > 0
    for task in hub._tasks:
        task.cancel()
