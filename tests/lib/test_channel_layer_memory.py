"""The in-memory channel layer sweeps for expired messages once a second, not on every message,
and still delivers in order and expires what it must; a channel holds a burst of messages."""

from __future__ import annotations

import inspect

import pytest
from channels.layers import InMemoryChannelLayer

from lib import channel_layers
from lib.channel_layers import PacedInMemoryChannelLayer
from lib.env import channel_layers_config


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch) -> Clock:
    clock = Clock()
    monkeypatch.setattr(channel_layers, "monotonic", clock)
    return clock


@pytest.fixture
def sweeps(monkeypatch) -> list[int]:
    """Counts the sweeps that really run (the base class's)."""
    counted: list[int] = []
    base = InMemoryChannelLayer._clean_expired

    def counting(self) -> None:
        counted.append(1)
        base(self)

    monkeypatch.setattr(InMemoryChannelLayer, "_clean_expired", counting)
    return counted


async def test_a_burst_of_group_messages_costs_one_sweep(clock, sweeps) -> None:
    layer = PacedInMemoryChannelLayer()
    names = [await layer.new_channel() for _ in range(3)]
    for name in names:
        await layer.group_add("table-1", name)
    for version in range(50):
        await layer.group_send("table-1", {"type": "table.update", "version": version})
        for name in names:
            assert (await layer.receive(name))["version"] == version
    assert len(sweeps) == 1
    clock.now += channel_layers.SWEEP_EVERY
    await layer.group_send("table-1", {"type": "table.update", "version": 50})
    assert len(sweeps) == 2


async def test_expired_messages_are_still_removed_with_their_channel(clock) -> None:
    layer = PacedInMemoryChannelLayer()
    stale, fresh = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("table-1", stale)
    await layer.group_add("table-1", fresh)
    await layer.group_send("table-1", {"type": "table.update", "version": 0})
    for name in (stale, fresh):
        await layer.receive(name)
    layer.expiry = -1  # the next message has expired as it is sent, and is never read
    await layer.send(stale, {"type": "table.update", "version": 1})
    # The next sweep drops it and takes its channel out of the group, as the base layer does
    # on every call.
    clock.now += channel_layers.SWEEP_EVERY
    await layer.group_send("table-1", {"type": "table.update", "version": 2})
    assert stale not in layer.groups["table-1"]
    assert (await layer.receive(fresh))["version"] == 2


async def test_a_process_s_channel_holds_a_burst_the_layer_s_default_would_drop() -> None:
    held = PacedInMemoryChannelLayer(**channel_layers_config(None)["default"]["CONFIG"])
    default = PacedInMemoryChannelLayer()
    for layer in (held, default):
        await layer.group_add("table-1", await layer.new_channel())  # a process's table hub

        for version in range(150):
            await layer.group_send("table-1", {"type": "table.update", "version": version})

    [in_held] = held.channels.values()
    [in_default] = default.channels.values()
    assert (in_held.qsize(), in_default.qsize()) == (150, 100)  # the default dropped 50


# What lib/channel_layers leans on: Channels' in-memory layer does all its expiry in its private
# ``_clean_expired``, which it calls on every receive and group send. If Channels changes that,
# these fail.
CHANGED = "Channels' InMemoryChannelLayer changed under lib/channel_layers.py, which paces it"


def test_channels_layer_still_has_the_sweep_with_no_arguments() -> None:
    assert PacedInMemoryChannelLayer.__mro__[1] is InMemoryChannelLayer
    assert list(inspect.signature(InMemoryChannelLayer._clean_expired).parameters) == ["self"], (
        CHANGED
    )


async def test_channels_layer_sweeps_on_every_receive_and_group_send(monkeypatch) -> None:
    sweeps: list[str] = []
    monkeypatch.setattr(InMemoryChannelLayer, "_clean_expired", lambda self: sweeps.append("s"))
    layer = InMemoryChannelLayer()
    name = await layer.new_channel()
    await layer.group_add("table-1", name)

    await layer.group_send("table-1", {"type": "table.update"})
    assert sweeps == ["s"], f"{CHANGED}: a group send no longer sweeps there"
    await layer.receive(name)
    assert sweeps == ["s", "s"], f"{CHANGED}: a receive no longer sweeps there"


async def test_channels_sweep_is_what_drops_expired_messages_and_memberships(monkeypatch) -> None:
    layer = InMemoryChannelLayer(expiry=-1, group_expiry=-10)  # all is expired once sent
    late, member = await layer.new_channel(), await layer.new_channel()
    await layer.send(late, {"type": "table.update"})
    await layer.group_add("table-1", member)
    assert late in layer.channels and member in layer.groups["table-1"]

    layer._clean_expired()

    assert late not in layer.channels, f"{CHANGED}: an expired message outlived the sweep"
    assert member not in layer.groups.get("table-1", {}), (
        f"{CHANGED}: an expired membership outlived the sweep"
    )
