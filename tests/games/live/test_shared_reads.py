"""One read per change and process, shared by the lobby's sockets, even those a message or two
behind the others (``games.live.consumers.SharedReads``)."""

from __future__ import annotations

import asyncio

from games.live.consumers import SharedReads


def reader(reads: list[str]):
    def read_for(key: str):
        async def read() -> str:
            reads.append(key)
            await asyncio.sleep(0)
            return f"view after {key}"

        return read

    return read_for


async def test_sockets_behind_the_others_share_the_reads_of_their_messages() -> None:
    shared: SharedReads[str] = SharedReads(depth=4)
    reads: list[str] = []
    read = reader(reads)
    # The first socket handles three messages in a row, then a second socket catches up.
    first = [await shared.get(key, read(key)) for key in ("m1", "m2", "m3")]
    second = [await shared.get(key, read(key)) for key in ("m1", "m2", "m3")]

    assert first == second == ["view after m1", "view after m2", "view after m3"]
    assert reads == ["m1", "m2", "m3"]


async def test_only_the_last_messages_are_kept() -> None:
    shared: SharedReads[str] = SharedReads(depth=2)
    reads: list[str] = []
    read = reader(reads)
    for key in ("m1", "m2", "m3"):
        await shared.get(key, read(key))

    await shared.get("m3", read("m3"))  # kept
    await shared.get("m1", read("m1"))  # too far behind: read again

    assert reads == ["m1", "m2", "m3", "m1"]
