"""The benchmark's own figures: the clients' loop it watches, and round trips in milliseconds."""

from __future__ import annotations

import asyncio
import time

from tools.loadtest.stats import OwnLoop, Window, round_trip_figures


def test_the_clients_own_loop_shows_how_long_something_held_it() -> None:
    own = OwnLoop()

    async def run() -> Window:
        window = Window.after(0.0, 0.4)
        watching = asyncio.create_task(own.watch(window))
        await asyncio.sleep(0.1)
        time.sleep(0.15)  # the clients' loop held, as a slow client would hold it
        await watching
        return window

    window = asyncio.run(run())

    figures = own.figures(window.seconds)
    assert figures["lag_max_ms"] >= 140
    assert figures["lag_p50_ms"] < 50  # the other ticks were on time
    assert 0 < figures["cpu_share"] <= 1.0


def test_round_trips_are_reported_in_milliseconds_with_their_count() -> None:
    figures = round_trip_figures([0.002] * 98 + [0.2, 0.4])

    assert figures == {"p50": 2.0, "p95": 2.0, "p99": 200.0, "samples": 100}
