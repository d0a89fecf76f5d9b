"""Who is connected to a table: atomic counters in the shared cache that expire unless their
sockets keep them alive, so a process killed with sockets open does not leave people online."""

from __future__ import annotations

import time

import pytest
from django.core.cache import cache

from games.services import broadcast
from lib.env import cache_config

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True, params=["locmem", "redis"])
def shared_cache(request, settings):
    """Each test runs on the in-process cache and on a real Redis, as several processes share
    it (REDIS_URL)."""
    if request.param == "redis":
        settings.CACHES = cache_config(request.getfixturevalue("redis_url"))
    cache.clear()


def online(table, *users) -> set[int]:
    return broadcast.connected_users(table.pk, [user.pk for user in users])


def test_a_person_is_online_while_any_of_their_sockets_is_open(make_table, alice, bob) -> None:
    table = make_table(players=[bob])

    broadcast.socket_opened(table.pk, alice)
    broadcast.socket_opened(table.pk, alice)
    broadcast.socket_closed(table.pk, alice)
    assert online(table, alice, bob) == {alice.pk}

    broadcast.socket_closed(table.pk, alice)
    assert online(table, alice, bob) == set()


def test_only_a_first_socket_and_a_last_one_redraw_the_seats(
    make_table, alice, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    table = make_table()
    sent = []
    monkeypatch.setattr(broadcast, "_group_send", lambda group, message: sent.append(message))

    with django_capture_on_commit_callbacks(execute=True):
        broadcast.socket_opened(table.pk, alice)
        broadcast.socket_opened(table.pk, alice)  # a second tab: nobody sees a change
        broadcast.socket_closed(table.pk, alice)
        broadcast.socket_closed(table.pk, alice)

    assert [message["type"] for message in sent] == ["table.presence", "table.presence"]


def test_the_count_of_a_killed_process_expires(make_table, alice, monkeypatch) -> None:
    table = make_table()
    monkeypatch.setattr(broadcast, "PRESENCE_TTL", 1)

    broadcast.socket_opened(table.pk, alice)  # its process dies: no close ever comes
    assert online(table, alice) == {alice.pk}
    time.sleep(1.2)

    assert online(table, alice) == set()


def test_an_open_socket_keeps_its_person_online(make_table, alice, monkeypatch) -> None:
    table = make_table()
    monkeypatch.setattr(broadcast, "PRESENCE_TTL", 1)

    broadcast.socket_opened(table.pk, alice)
    for _ in range(3):
        time.sleep(0.5)
        broadcast.socket_alive(table.pk, alice)

    assert online(table, alice) == {alice.pk}


def test_a_socket_alive_after_its_count_expired_counts_again(
    make_table, alice, monkeypatch
) -> None:
    table = make_table()
    monkeypatch.setattr(broadcast, "PRESENCE_TTL", 1)
    broadcast.socket_opened(table.pk, alice)
    time.sleep(1.2)

    broadcast.socket_alive(table.pk, alice)

    assert online(table, alice) == {alice.pk}
    broadcast.socket_closed(table.pk, alice)
    assert online(table, alice) == set()


def test_a_killed_process_s_people_show_offline_within_seconds() -> None:
    # Lichess shows a player gone within seconds: a count no process keeps expires within
    # PRESENCE_TTL, and a living process refreshes it several times within that.
    assert broadcast.PRESENCE_TTL <= 15
    assert broadcast.PRESENCE_REFRESH * 3 <= broadcast.PRESENCE_TTL


def test_a_process_keeps_all_its_people_counted_at_once(
    make_table, alice, bob, carol, monkeypatch
) -> None:
    first, second = make_table(), make_table(host=bob)
    monkeypatch.setattr(broadcast, "PRESENCE_TTL", 1)
    for table, person in ((first, alice), (first, carol), (second, bob)):
        broadcast.socket_opened(table.pk, person)

    for _ in range(3):
        time.sleep(0.5)
        broadcast.people_alive([(first.pk, alice.pk), (first.pk, carol.pk), (second.pk, bob.pk)])

    assert online(first, alice, carol) == {alice.pk, carol.pk}
    assert online(second, bob) == {bob.pk}


def test_a_count_kept_after_it_expired_redraws_the_seats(
    make_table, alice, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    table = make_table()
    monkeypatch.setattr(broadcast, "PRESENCE_TTL", 1)
    broadcast.socket_opened(table.pk, alice)
    time.sleep(1.2)
    sent = []
    monkeypatch.setattr(broadcast, "_group_send", lambda group, message: sent.append(message))

    with django_capture_on_commit_callbacks(execute=True):
        broadcast.people_alive([(table.pk, alice.pk)])

    assert online(table, alice) == {alice.pk}
    assert [message["type"] for message in sent] == ["table.presence"]


def test_a_process_with_thousands_of_people_keeps_every_count(
    make_table, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    # The in-process cache once dropped a third of its keys past 300: people still at their
    # tables showed offline, and every refresh drew their tables' seats again.
    table = make_table()
    people = range(1, 2001)
    pairs = [(table.pk, person) for person in people]
    broadcast.people_alive(pairs)
    sent = []
    monkeypatch.setattr(broadcast, "_group_send", lambda group, message: sent.append(message))

    with django_capture_on_commit_callbacks(execute=True):
        broadcast.people_alive(pairs)

    assert sent == []
    assert broadcast.connected_users(table.pk, people) == set(people)
