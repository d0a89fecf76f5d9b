"""The in-memory channel layer, with its expiry sweep paced.

Channels' ``InMemoryChannelLayer`` looks through every channel's queue and every group
membership for expired entries on each ``send``, ``receive`` and ``group_send``. Every message
of a busy server pays for that sweep (a table's change is one group send and one receive by the
process's table hub, the lobby's one receive per lobby socket), and with a few hundred sockets
open it was the layer's largest cost (6 % of a busy server in ``make bench-load``).
Expiry is measured in a minute (messages) and a day (group memberships); sweeping once a second
removes the same entries, a second later at most.
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
