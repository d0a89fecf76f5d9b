"""The in-memory channel layer, with its expiry sweep paced.

Channels' ``InMemoryChannelLayer`` looks through every channel's queue and every group
membership for expired entries on each ``receive`` and ``group_send``. Every message
the layer carries pays for that sweep, which grows with the sockets open (each has a channel):
with a few hundred open it is the layer's largest cost (docs/benchmarks.md). Expiry is measured
in a minute (messages) and a day (group memberships); sweeping once a second removes the same
entries, a second later at most.

``_clean_expired`` is Channels' own and private: ``tests/lib/test_channel_layer_memory.py``
checks that Channels still sweeps there, on every receive and group send.
"""

from __future__ import annotations

from time import monotonic

from channels.layers import InMemoryChannelLayer

# At most one sweep for expired messages and memberships in this many seconds.
SWEEP_EVERY = 1.0


class PacedInMemoryChannelLayer(InMemoryChannelLayer):
    """``channels.layers.InMemoryChannelLayer`` whose expiry sweep runs at most every
    ``SWEEP_EVERY`` seconds instead of on every message."""

    _swept_at = float("-inf")

    def _clean_expired(self) -> None:
        now = monotonic()
        if now - self._swept_at < SWEEP_EVERY:
            return
        self._swept_at = now
        super()._clean_expired()
