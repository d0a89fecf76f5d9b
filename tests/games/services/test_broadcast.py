"""The broadcast after commit: a move's state handed to this process's table listener, the
group message to every process; group sends made from a server's database thread are handed to
its event loop, not waited for, since that one thread runs every database call of the process."""

from __future__ import annotations

import asyncio
import threading

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from games.services import broadcast


async def test_a_send_from_the_database_thread_does_not_wait_for_the_busy_loop() -> None:
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add("sends", channel)
    sent = threading.Event()

    def send_in_order() -> None:
        for number in range(5):
            broadcast._group_send("sends", {"type": "test.message", "number": number})
        sent.set()

    call = asyncio.ensure_future(sync_to_async(send_in_order, thread_sensitive=True)())
    await asyncio.sleep(0)  # the call is on its way to the database thread
    # Block the event loop itself, as a loop busy drawing tables would be: waiting for it, the
    # sends could not finish and the event would never be set.
    assert sent.wait(timeout=10), "the database thread waited for the event loop"
    await call

    received = [await asyncio.wait_for(layer.receive(channel), 5) for _ in range(5)]
    assert [message["number"] for message in received] == [0, 1, 2, 3, 4]


def test_a_send_outside_a_server_thread_is_made_before_it_returns() -> None:
    """As ``manage.py run_clock`` sends: from a thread with no event loop behind it. The
    listener keeps one loop throughout (the Redis pub/sub layer subscribes per loop)."""
    layer = get_channel_layer()
    sent = threading.Event()

    def send() -> None:
        broadcast._group_send("direct", {"type": "test.message", "number": 7})
        sent.set()

    async def listen_while_another_thread_sends() -> dict:
        channel = await layer.new_channel()
        await layer.group_add("direct", channel)
        thread = threading.Thread(target=send)
        thread.start()
        await asyncio.to_thread(thread.join, 10)
        assert sent.is_set(), "the send did not return"
        return await asyncio.wait_for(layer.receive(channel), 5)

    assert asyncio.run(listen_while_another_thread_sends())["number"] == 7


async def test_sends_handed_to_the_loop_do_not_overtake_each_other(monkeypatch) -> None:
    """A layer whose first send is the slowest (as a Redis round trip may be) still delivers
    in the order the database thread sent."""
    delivered: list[int] = []

    class SlowFirstLayer:
        async def group_send(self, group: str, message: dict) -> None:
            await asyncio.sleep(0.05 if message["number"] == 0 else 0)
            delivered.append(message["number"])

    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: SlowFirstLayer())

    def send_three() -> None:
        for number in range(3):
            broadcast._group_send("slow", {"type": "test.message", "number": number})

    await sync_to_async(send_three, thread_sensitive=True)()
    while broadcast._sending:
        await asyncio.sleep(0.01)
    assert delivered == [0, 1, 2]


class Listener:
    """A process's table listener that records what it is handed."""

    def __init__(self, happened: list, fails: bool = False, takes: bool = True) -> None:
        self.happened, self.fails, self.takes = happened, fails, takes

    def move_stored(self, state) -> bool:
        self.happened.append(("handed", state))
        if self.fails:
            raise RuntimeError("the listener broke")
        return self.takes


@pytest.fixture
def happened(monkeypatch) -> list:
    """What the broadcast hands the listener and sends to the groups, in order."""
    happened: list = []
    monkeypatch.setattr(broadcast, "_listener", None)  # the listener of this test only
    monkeypatch.setattr(
        broadcast, "_group_send", lambda group, message: happened.append(("sent", group, message))
    )
    return happened


@pytest.mark.django_db
def test_a_move_s_state_is_handed_to_the_listener_after_commit_which_tells_the_others(
    happened, django_capture_on_commit_callbacks
) -> None:
    broadcast.listen(Listener(happened))
    state = object()  # what the move path holds of the table

    with django_capture_on_commit_callbacks(execute=True):
        broadcast.table_changed(7, 42, state)
        broadcast.table_changed(8)  # a change that is no move: nothing to hand over
        assert happened == []

    assert happened == [
        ("handed", state),
        ("sent", "table-8", {"type": "table.update", "table": 8, "version": None}),
    ]


@pytest.mark.django_db
def test_a_move_the_listener_does_not_take_goes_to_the_table_s_group(
    happened, django_capture_on_commit_callbacks
) -> None:
    broadcast.listen(Listener(happened, takes=False))  # its event loop has closed
    state = object()

    with django_capture_on_commit_callbacks(execute=True):
        broadcast.table_changed(7, 42, state)

    assert happened == [
        ("handed", state),
        ("sent", "table-7", {"type": "table.update", "table": 7, "version": 42}),
    ]


@pytest.mark.django_db
def test_the_other_processes_hear_of_a_move_whatever_becomes_of_this_one_s_listener(
    happened, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        broadcast.table_changed(7, 42, object())  # no listener in this process (a clock)
    broadcast.listen(Listener(happened, fails=True))
    with django_capture_on_commit_callbacks(execute=True):
        broadcast.table_changed(7, 43, object())

    assert [event[0] for event in happened] == ["sent", "handed", "sent"]
