"""The outbox: the notifications that matter told by e-mail and push to those who opted in,
retried then dropped, with a one-click unsubscribe; sent by a pass, never inside a move."""

from __future__ import annotations

import json
import threading
from datetime import UTC, datetime, timedelta

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from games import clock
from outbox import queue, sending
from outbox.models import Delivery, Preferences, PushSubscription
from outbox.sending import Message, SendFailed
from social import notifications
from social.models import Notification

pytestmark = pytest.mark.django_db
NOW = datetime(2026, 5, 4, 12, 0, tzinfo=UTC)


class Recording:
    """A sender that keeps what it was given; ``failing`` makes every send fail."""

    def __init__(self, failing: SendFailed | None = None) -> None:
        self.emails: list[tuple[str, Message]] = []
        self.pushes: list[tuple[str, Message]] = []
        self.failing = failing

    def email(self, address: str, message: Message) -> None:
        if self.failing:
            raise self.failing
        self.emails.append((address, message))

    def push(self, subscription: PushSubscription, message: Message) -> None:
        if self.failing:
            raise self.failing
        self.pushes.append((subscription.endpoint, message))


@pytest.fixture
def opted(alice) -> Preferences:
    alice.email = "alice@example.com"
    alice.save()
    PushSubscription.objects.create(
        user=alice, endpoint="https://push.example/abc", p256dh="key", auth="secret"
    )
    return sending.set_preferences(alice, email=True, push=True, language="es")


def told(user, kind=Notification.Kind.YOUR_MOVE, capture=None, **data):
    with capture(execute=True):
        return notifications.notify(user, kind, table="Slow game", url="/tables/7/", **data)


def test_nothing_is_queued_for_someone_who_opted_into_nothing(
    alice, django_capture_on_commit_callbacks
):
    told(alice, capture=django_capture_on_commit_callbacks)
    assert not Delivery.objects.exists()


def test_a_move_is_told_by_email_and_push_in_the_persons_language(
    opted, alice, django_capture_on_commit_callbacks
):
    told(alice, capture=django_capture_on_commit_callbacks)
    sender = Recording()
    assert sending.deliver_due(sender) == 2
    [(address, message)] = sender.emails
    assert address == "alice@example.com"
    assert message.body == "Te toca mover en Slow game."
    assert message.link.endswith("/tables/7/")
    [(endpoint, _pushed)] = sender.pushes
    assert endpoint == "https://push.example/abc"
    assert sending.deliver_due(sender) == 0  # each sent once


def test_kinds_that_wait_for_the_next_visit_are_not_sent(
    opted, alice, django_capture_on_commit_callbacks
):
    told(alice, Notification.Kind.NEW_FOLLOWER, django_capture_on_commit_callbacks, by="bob")
    assert not Delivery.objects.exists()


def test_the_site_sender_mails_with_a_one_click_unsubscribe(
    opted, alice, django_capture_on_commit_callbacks
):
    Preferences.objects.filter(user=alice).update(push=False)
    told(alice, capture=django_capture_on_commit_callbacks)
    sending.deliver_due()
    [sent] = mail.outbox
    assert sent.to == ["alice@example.com"]
    assert sent.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    link = sent.extra_headers["List-Unsubscribe"].strip("<>")
    assert link in sent.body

    path = link.removeprefix("http://localhost:8000")
    client = Client()
    assert 'type="submit"' in client.get(path).content.decode()
    assert Preferences.objects.get(user=alice).email  # a look is no unsubscribe
    client.post(path)  # as a mail program's one click (RFC 8058), with no CSRF token
    assert not Preferences.objects.get(user=alice).email


def test_an_altered_unsubscribe_link_is_refused(alice):
    token = sending.unsubscribe_token(alice.pk, "email")
    response = Client().post(reverse("outbox:unsubscribe", args=[token + "x"]))
    assert response.status_code == 400


def test_a_failed_send_is_retried_then_dropped(opted, alice, django_capture_on_commit_callbacks):
    Preferences.objects.filter(user=alice).update(push=False)
    told(alice, capture=django_capture_on_commit_callbacks)
    Delivery.objects.update(due_at=NOW)
    failing = Recording(failing=SendFailed("server away"))
    moment = NOW
    for wait in sending.RETRY_AFTER:
        assert sending.deliver_due(failing, now=moment) == 0
        assert sending.deliver_due(failing, now=moment + wait - timedelta(seconds=1)) == 0
        moment += wait
    delivery = Delivery.objects.get()
    assert delivery.attempts == 3 and delivery.dropped_at is None
    sending.deliver_due(failing, now=moment)
    delivery.refresh_from_db()
    assert delivery.attempts == sending.MAX_ATTEMPTS and delivery.dropped_at == moment
    assert sending.deliver_due(Recording(), now=moment + timedelta(days=1)) == 0


def test_nothing_is_sent_to_someone_who_opted_out_since(
    opted, alice, django_capture_on_commit_callbacks
):
    told(alice, capture=django_capture_on_commit_callbacks)
    sending.set_preferences(alice, email=False, push=False)
    sender = Recording()
    assert sending.deliver_due(sender) == 0
    assert sender.emails == sender.pushes == []


def test_an_expired_push_subscription_is_forgotten(
    opted, alice, django_capture_on_commit_callbacks
):
    Preferences.objects.filter(user=alice).update(email=False)
    told(alice, capture=django_capture_on_commit_callbacks)
    sending.deliver_due(Recording(failing=SendFailed("push refused: 410", gone=True)))
    assert not PushSubscription.objects.exists()


def test_a_failing_queue_never_fails_the_code_that_told(alice, monkeypatch):
    sending.set_preferences(alice, email=True, push=False)
    queue.queue_notification(None, user_id=alice.pk, notification_id=10**9)  # no such row
    assert not Delivery.objects.exists()


def test_a_browser_subscribes_and_unsubscribes(alice):
    client = Client()
    client.force_login(alice)
    subscription = {"endpoint": "https://push.example/x", "keys": {"p256dh": "p", "auth": "a"}}
    body = json.dumps(subscription)
    url = reverse("outbox:subscribe")
    assert client.post(url, body, content_type="application/json").status_code == 200
    assert PushSubscription.objects.get().user == alice
    bad = {"endpoint": "http://plain.example/x", "keys": {"p256dh": "p", "auth": "a"}}
    assert client.post(url, json.dumps(bad), content_type="application/json").status_code == 400
    client.post(reverse("outbox:unsubscribe_browser"), body, content_type="application/json")
    assert not PushSubscription.objects.exists()


def test_the_account_page_saves_the_choices(alice):
    client = Client()
    client.force_login(alice)
    page = client.get(reverse("games:account")).content.decode()
    assert reverse("outbox:preferences") in page
    client.post(reverse("outbox:preferences"), {"push": "on"})
    preferences = Preferences.objects.get(user=alice)
    assert (preferences.email, preferences.push) == (False, True)


def test_the_service_worker_is_served_from_the_root(client):
    response = client.get("/push-worker.js")
    assert response["Content-Type"] == "text/javascript"
    assert b"showNotification" in response.content


def test_the_clock_starts_the_outbox_pass_on_a_thread_of_its_own():
    ran = threading.Event()
    this = clock.Clock(deliver=ran.set)
    assert this.send_outbox()
    assert ran.wait(5)
    assert not this.send_outbox()  # at most every OUTBOX_SWEEP seconds
    assert not clock.Clock().send_outbox()  # a clock given no outbox sends none


def test_a_clock_that_stops_ends_the_outbox_pass_it_began():
    begun, release, sent = threading.Event(), threading.Event(), []

    def deliver() -> None:
        begun.set()
        release.wait(5)
        sent.append("sent")

    this = clock.Clock(deliver=deliver)
    assert this.send_outbox() and begun.wait(5)
    threading.Timer(0.05, release.set).start()
    this.finish_outbox()
    assert sent == ["sent"]
    clock.Clock().finish_outbox()  # a clock that began none has none to wait for
