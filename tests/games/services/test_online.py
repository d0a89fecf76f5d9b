"""Who has a page of the site open (games.services.online), and when their friends are told."""

from __future__ import annotations

import pytest

from games.services import online, tables
from social import relations

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("nobody_connected")]


def presence_pushes(told) -> list[str]:
    return [group for group, message in told.sent if message["type"] == "friends.presence"]


@pytest.fixture
def friends(alice, bob):
    relations.follow(alice, bob)
    relations.follow(bob, alice)


def test_pages_are_counted_and_friends_told_once_as_one_comes(
    alice, bob, friends, told, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        assert online.page_opened(alice) == 1
        assert online.page_opened(alice) == 2

    assert online.online_among([alice.pk, bob.pk]) == {alice.pk}
    assert presence_pushes(told) == [f"site-{bob.pk}"]


def test_friends_are_told_of_leaving_only_once_no_page_is_left(
    alice, bob, friends, told, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        online.page_opened(alice)
        online.page_opened(alice)
        assert online.page_closed(alice) == 1
        assert online.gone(alice) is False
        assert online.page_closed(alice) == 0
        assert online.gone(alice) is True
        assert online.gone(alice) is True  # told once

    assert not online.is_online(alice)
    assert presence_pushes(told) == [f"site-{bob.pk}", f"site-{bob.pk}"]


def test_an_open_page_is_kept_alive_and_a_dead_process_s_pages_expire(later, alice) -> None:
    online.page_opened(alice)
    later(online.ONLINE_TTL - 2)
    online.pages_alive([alice.pk])
    later(online.ONLINE_TTL - 2)
    assert online.is_online(alice)

    later(3)  # nobody kept it alive
    assert not online.is_online(alice)


def test_the_people_online_are_counted_once_across_processes_until_a_process_dies(
    later, alice, bob, carol
) -> None:
    online.process_people("one", [alice.pk, bob.pk])
    online.process_people("two", [bob.pk, carol.pk])  # bob has pages in both
    assert online.people_online() == 3

    later(online.ONLINE_TTL - 2)
    online.process_people("one", [alice.pk])  # bob's page here closed; "two" beats no more
    assert online.people_online() == 3

    later(3)  # "two" died with its sockets open
    assert online.people_online() == 1


def test_nobody_is_online_before_any_page_opens() -> None:
    assert online.people_online() == 0


def test_sitting_down_to_a_game_and_leaving_it_redraw_the_friends_panels(
    alice, bob, carol, friends, told, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        table = tables.play_against_bots(alice, opponents=1)
    assert presence_pushes(told) == [f"site-{bob.pk}"]  # carol is no friend of alice's

    with django_capture_on_commit_callbacks(execute=True):
        tables.leave_table(table.pk, alice)
    assert presence_pushes(told) == [f"site-{bob.pk}", f"site-{bob.pk}"]
