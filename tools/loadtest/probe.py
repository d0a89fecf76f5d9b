"""What holds a benchmark server's event loop, written down as it happens: each garbage
collection of the oldest generation, and any other that takes longer than SLOW_COLLECTION.

Installed by the benchmark's settings when TAKI_BENCH_GC_LOG names a file (one line a
collection: the wall-clock time, the generation, how long it took on the clock and in CPU (on a
busy machine the process may wait for a core in the middle of one), what it freed and, for a
full one, how many objects were frozen out of its sight).
"""

from __future__ import annotations

import gc
import time
from typing import Any

SLOW_COLLECTION = 0.005  # seconds


def log_collections(path: str) -> None:
    """Append a line to ``path`` for every full collection and every slow one."""
    log = open(path, "a", buffering=1)  # noqa: SIM115 - open for the life of the process
    started = [0.0, 0.0]

    def callback(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            started[:] = [time.perf_counter(), time.thread_time()]
            return
        took = time.perf_counter() - started[0]
        cpu = time.thread_time() - started[1]
        if info["generation"] == 2 or took >= SLOW_COLLECTION:
            held = gc.get_freeze_count() if info["generation"] == 2 else ""
            log.write(
                f"{time.time():.3f} gen{info['generation']} {took * 1000:.1f} ms "
                f"(CPU {cpu * 1000:.1f} ms) collected {info['collected']} frozen {held}\n"
            )

    gc.callbacks.append(callback)
