"""social.notifications: stored, counted, told after commit, read, forgotten."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone, translation

from social import notifications
from social.models import Notification
from social.signals import notifications_read, notified

pytestmark = pytest.mark.django_db

Kind = Notification.Kind


@pytest.fixture
def heard():
    """What the social app told the apps above it: (signal, user_id, notification_id)."""
    events = []

    def on_notified(sender, user_id, notification_id, **kwargs):
        events.append(("notified", user_id, notification_id))

    def on_read(sender, user_id, **kwargs):
        events.append(("read", user_id, None))

    notified.connect(on_notified, dispatch_uid="test-notified")
    notifications_read.connect(on_read, dispatch_uid="test-read")
    yield events
    notified.disconnect(dispatch_uid="test-notified")
    notifications_read.disconnect(dispatch_uid="test-read")


def test_it_is_told_after_commit(alice, heard, django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        stored = notifications.notify(alice.pk, Kind.NEW_FOLLOWER, by="bob")
        assert heard == []

    assert heard == [("notified", alice.pk, stored.pk)]


def test_a_rolled_back_notification_is_never_told(alice, heard, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        try:
            with transaction.atomic():
                notifications.notify(alice, Kind.NEW_FOLLOWER, by="bob")
                raise RuntimeError("the action failed")
        except RuntimeError:
            pass

    assert heard == []
    assert not Notification.objects.exists()


def test_the_unread_count_and_the_list(alice, bob) -> None:
    first = notifications.notify(alice, Kind.NEW_FOLLOWER, by="bob")
    second = notifications.notify(alice, Kind.CHALLENGE_RECEIVED, by="carol")
    notifications.notify(bob, Kind.NEW_FOLLOWER, by="alice")

    assert notifications.unread_count(alice) == 2
    assert notifications.newest(alice) == [second, first]


def test_marking_read_lowers_the_count_and_tells_the_other_pages(
    alice, heard, django_capture_on_commit_callbacks
) -> None:
    first = notifications.notify(alice, Kind.NEW_FOLLOWER, by="bob")
    notifications.notify(alice, Kind.NEW_FOLLOWER, by="carol")

    with django_capture_on_commit_callbacks(execute=True):
        assert notifications.mark_read(alice, [first.pk]) == 1
    assert notifications.unread_count(alice) == 1
    assert heard[-1] == ("read", alice.pk, None)

    with django_capture_on_commit_callbacks(execute=True):
        assert notifications.mark_read(alice) == 1
        assert notifications.mark_read(alice) == 0
    assert notifications.unread_count(alice) == 0
    assert [event for event in heard if event[0] == "read"] == [("read", alice.pk, None)] * 2


def test_old_notifications_are_forgotten(alice) -> None:
    old = notifications.notify(alice, Kind.NEW_FOLLOWER, by="bob")
    Notification.objects.filter(pk=old.pk).update(
        created_at=timezone.now() - notifications.KEPT_FOR - timedelta(minutes=1)
    )
    kept = notifications.notify(alice, Kind.NEW_FOLLOWER, by="carol")

    assert notifications.forget_old() == 1
    assert list(Notification.objects.all()) == [kept]


def test_the_words_are_drawn_in_the_reader_s_language(alice) -> None:
    told = notifications.notify(alice, Kind.CHALLENGE_RECEIVED, by="bob", url="/challenges/3/")

    assert notifications.words(told) == "bob challenges you to a game."
    with translation.override("es"):
        assert notifications.words(told) == "bob te desafía a una partida."
    assert notifications.link(told) == "/challenges/3/"


def test_words_missing_from_the_data_read_as_a_dash_and_a_link_leaves_the_site_never(alice):
    told = notifications.notify(alice, Kind.CHALLENGE_ACCEPTED, url="https://example.com/")
    elsewhere = notifications.notify(alice, Kind.NEW_FOLLOWER, by="x", url="//example.com/")

    assert notifications.words(told) == "– accepted your challenge."
    assert notifications.link(told) == "" and notifications.link(elsewhere) == ""


def test_the_challenger_s_own_expiry_and_a_new_friend(alice) -> None:
    expired = notifications.notify(alice, Kind.CHALLENGE_EXPIRED, by="alice", yours=True)
    friend = notifications.notify(alice, Kind.NEW_FOLLOWER, by="bob", friends=True)

    assert notifications.words(expired) == "Your challenge expired."
    assert notifications.words(friend) == "bob follows you. You are friends now."
