"""What the services send after commit, through the transport they are given: a move's change
handed to it in process, the group message to every process otherwise."""

from __future__ import annotations

import pytest

from games.services import broadcast


class Told:
    """A transport that records what it is handed and sent, in order."""

    def __init__(self, fails: bool = False, takes: bool = True) -> None:
        self.happened: list = []
        self.fails, self.takes = fails, takes

    def send(self, group: str, message: dict) -> None:
        self.happened.append(("sent", group, message))

    def move_stored(self, change) -> bool:
        self.happened.append(("handed", change))
        if self.fails:
            raise RuntimeError("the transport broke")
        return self.takes


@pytest.fixture
def given():
    """Give the services a transport of the test's own, as a server process gives its hub."""
    before = broadcast.transport()

    def give(transport: Told) -> Told:
        broadcast.serve_through(transport)
        return transport

    yield give
    broadcast.serve_through(before)


@pytest.mark.django_db
def test_a_move_s_change_is_handed_to_the_transport_after_commit(
    given, django_capture_on_commit_callbacks
) -> None:
    told = given(Told())
    change = object()  # what the move changed, as the move path built it

    with django_capture_on_commit_callbacks(execute=True):
        broadcast.table_changed(7, 42, change)
        broadcast.table_changed(8)  # a change that is no move: nothing to hand over
        assert told.happened == []

    assert told.happened == [
        ("handed", change),
        ("sent", "table-8", {"type": "table.update", "table": 8, "version": None}),
    ]


@pytest.mark.django_db
def test_a_move_the_transport_does_not_take_goes_to_the_table_s_group(
    given, django_capture_on_commit_callbacks
) -> None:
    told = given(Told(takes=False))  # its event loop has closed
    change = object()

    with django_capture_on_commit_callbacks(execute=True):
        broadcast.table_changed(7, 42, change)

    assert told.happened == [
        ("handed", change),
        ("sent", "table-7", {"type": "table.update", "table": 7, "version": 42}),
    ]


@pytest.mark.django_db
def test_the_other_processes_hear_of_a_move_whatever_becomes_of_the_hand_over(
    given, django_capture_on_commit_callbacks
) -> None:
    told = given(Told(fails=True))

    with django_capture_on_commit_callbacks(execute=True):
        broadcast.table_changed(7, 43, object())

    assert [event[0] for event in told.happened] == ["handed", "sent"]


@pytest.mark.django_db
def test_nothing_is_sent_before_commit_nor_after_a_rollback(given) -> None:
    from django.db import transaction

    told = given(Told())
    with pytest.raises(RuntimeError), transaction.atomic():
        broadcast.lobby_changed()
        broadcast.chat_posted(7, 1)
        raise RuntimeError("the action failed")

    assert told.happened == []
