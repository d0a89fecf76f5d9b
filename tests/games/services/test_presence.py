"""Who is connected to a table: atomic counters in the shared cache that expire unless their
sockets keep them alive, so a process killed with sockets open does not leave people online.

The cache's clock is the test's (``later``): on the in-process cache the wall clock is moved
on, on Redis every key's time to live is shortened by as much, as if that long had passed.
"""

from __future__ import annotations

import pytest

from games.services import presence

pytestmark = pytest.mark.django_db


def online(table, *users) -> set[int]:
    return presence.connected_users(table.pk, [user.pk for user in users])


def test_a_person_is_online_while_any_of_their_sockets_is_open(
    later, make_table, alice, bob
) -> None:
    table = make_table(players=[bob])

    presence.socket_opened(table.pk, alice)
    presence.socket_opened(table.pk, alice)
    presence.socket_closed(table.pk, alice)
    assert online(table, alice, bob) == {alice.pk}

    presence.socket_closed(table.pk, alice)
    assert online(table, alice, bob) == set()


def test_only_a_first_socket_and_a_last_one_redraw_the_seats(
    later, make_table, alice, told, django_capture_on_commit_callbacks
) -> None:
    table = make_table()

    with django_capture_on_commit_callbacks(execute=True):
        presence.socket_opened(table.pk, alice)
        presence.socket_opened(table.pk, alice)  # a second tab: nobody sees a change
        presence.socket_closed(table.pk, alice)
        presence.socket_closed(table.pk, alice)

    assert [message["type"] for message in told.messages()] == ["table.presence", "table.presence"]


def test_the_count_of_a_killed_process_expires(later, make_table, alice) -> None:
    table = make_table()

    presence.socket_opened(table.pk, alice)  # its process dies: no close ever comes
    later(presence.PRESENCE_TTL - 1)
    assert online(table, alice) == {alice.pk}
    later(2)

    assert online(table, alice) == set()


def test_an_open_socket_keeps_its_person_online(later, make_table, alice) -> None:
    table = make_table()

    presence.socket_opened(table.pk, alice)
    for _ in range(5):
        later(presence.PRESENCE_REFRESH)
        presence.socket_alive(table.pk, alice)

    assert online(table, alice) == {alice.pk}


def test_a_socket_alive_after_its_count_expired_counts_again(later, make_table, alice) -> None:
    table = make_table()
    presence.socket_opened(table.pk, alice)
    later(presence.PRESENCE_TTL + 1)

    presence.socket_alive(table.pk, alice)

    assert online(table, alice) == {alice.pk}
    presence.socket_closed(table.pk, alice)
    assert online(table, alice) == set()


def test_a_killed_process_s_people_show_offline_within_seconds() -> None:
    # Lichess shows a player gone within seconds: a count no process keeps expires within
    # PRESENCE_TTL, and a living process refreshes it several times within that.
    assert presence.PRESENCE_TTL <= 15
    assert presence.PRESENCE_REFRESH * 3 <= presence.PRESENCE_TTL


def test_a_process_keeps_all_its_people_counted_at_once(
    later, make_table, alice, bob, carol
) -> None:
    first, second = make_table(), make_table(host=bob)
    for table, person in ((first, alice), (first, carol), (second, bob)):
        presence.socket_opened(table.pk, person)

    for _ in range(5):
        later(presence.PRESENCE_REFRESH)
        presence.people_alive([(first.pk, alice.pk), (first.pk, carol.pk), (second.pk, bob.pk)])

    assert online(first, alice, carol) == {alice.pk, carol.pk}
    assert online(second, bob) == {bob.pk}


def test_a_count_kept_after_it_expired_redraws_the_seats(
    later, make_table, alice, told, django_capture_on_commit_callbacks
) -> None:
    table = make_table()
    presence.socket_opened(table.pk, alice)
    later(presence.PRESENCE_TTL + 1)

    with django_capture_on_commit_callbacks(execute=True):
        presence.people_alive([(table.pk, alice.pk)])

    assert online(table, alice) == {alice.pk}
    assert [message["type"] for message in told.messages()] == ["table.presence"]


def test_a_process_with_thousands_of_people_keeps_every_count(
    later, make_table, told, django_capture_on_commit_callbacks
) -> None:
    # The in-process cache once dropped a third of its keys past 300: people still at their
    # tables showed offline, and every refresh drew their tables' seats again.
    table = make_table()
    people = range(1, 2001)
    pairs = [(table.pk, person) for person in people]
    presence.people_alive(pairs)
    told.sent.clear()

    with django_capture_on_commit_callbacks(execute=True):
        presence.people_alive(pairs)

    assert told.messages() == []
    assert presence.connected_users(table.pk, people) == set(people)
