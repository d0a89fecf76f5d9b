"""The outbox's pass: the sends that are due, each tried through a :class:`Sender`, retried a
few times with a growing wait, then dropped. Run by the games' clock on a thread of its own
(``deliver_due``), never by the move path.

Nothing is sent to a person who opted out since the send was queued, or who has no verified
address any more. Every e-mail and push says how to stop them: a signed one-click link
(``unsubscribe_token``), and for e-mail the ``List-Unsubscribe`` headers of RFC 8058.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.mail import EmailMessage, mailers
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from outbox.models import Delivery, Preferences, PushSubscription
from social import notifications
from social.models import Notification

logger = logging.getLogger(__name__)

# The waits before the second, third and fourth try; after the fourth failure, dropped.
RETRY_AFTER = (timedelta(minutes=1), timedelta(minutes=10), timedelta(hours=1))
MAX_ATTEMPTS = len(RETRY_AFTER) + 1
LEASE = timedelta(minutes=5)  # a pass that took a send and died: another tries it then
BATCH = 50  # sends one pass takes at most
UNSUBSCRIBE_SALT = "outbox.unsubscribe"


class SendFailed(Exception):
    """A send that did not go; ``gone`` when it never can (the push subscription expired)."""

    def __init__(self, reason: str, *, gone: bool = False) -> None:
        super().__init__(reason)
        self.gone = gone


@dataclass(frozen=True, slots=True)
class Message:
    """What one send says, in the person's language."""

    subject: str
    body: str
    link: str  # where it leads, absolute
    unsubscribe: str  # the one-click link, absolute


class Sender(Protocol):
    """How the outbox sends: the site's (:class:`SiteSender`), or a test's double."""

    def email(self, address: str, message: Message) -> None: ...

    def push(self, subscription: PushSubscription, message: Message) -> None: ...


class SiteSender:
    """E-mail through Django's default mailer; Web Push through pywebpush with the VAPID key of
    the environment (``WEBPUSH_VAPID_PRIVATE_KEY``, ``WEBPUSH_VAPID_SUBJECT``)."""

    def email(self, address: str, message: Message) -> None:
        mail = EmailMessage(
            message.subject,
            f"{message.body}\n\n{message.link}\n\n{message.unsubscribe}\n",
            settings.DEFAULT_FROM_EMAIL,
            [address],
            headers={
                "List-Unsubscribe": f"<{message.unsubscribe}>",
                "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            },
        )
        try:
            mailers.default.send_messages([mail])
        except Exception as error:
            raise SendFailed(f"{type(error).__name__}: {error}"[:200]) from error

    def push(self, subscription: PushSubscription, message: Message) -> None:
        from pywebpush import WebPushException, webpush

        key = settings.WEBPUSH_VAPID_PRIVATE_KEY
        if not key:
            raise SendFailed("no VAPID key configured")
        payload = {"title": message.subject, "body": message.body, "url": message.link}
        try:
            webpush(
                {
                    "endpoint": subscription.endpoint,
                    "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
                },
                json.dumps(payload),
                vapid_private_key=key,
                vapid_claims={"sub": settings.WEBPUSH_VAPID_SUBJECT},
                timeout=10,
                ttl=24 * 3600,
            )
        except WebPushException as error:
            status = getattr(error.response, "status_code", None)
            raise SendFailed(f"push refused: {status}", gone=status in (404, 410)) from error
        except Exception as error:
            raise SendFailed(f"{type(error).__name__}: {error}"[:200]) from error


def unsubscribe_token(user_id: int, channel: str) -> str:
    return signing.dumps({"user": user_id, "channel": channel}, salt=UNSUBSCRIBE_SALT)


def read_unsubscribe(token: str) -> tuple[int, str] | None:
    """The person and channel a one-click link stops, or None for a link that does not hold
    (it never expires: an old e-mail's link still works)."""
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    channel = data.get("channel")
    if channel not in Delivery.Channel.values or not isinstance(data.get("user"), int):
        return None
    return data["user"], channel


def absolute(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def message_for(delivery: Delivery, language: str) -> Message:
    """The words of ``delivery``, in ``language``."""
    with translation.override(language or settings.LANGUAGE_CODE):
        shown = Notification(kind=delivery.kind, data=delivery.data)
        words = notifications.words(shown)
        context = {"words": words}
        subject = render_to_string("outbox/subject.txt", context).strip()
        link = notifications.link(shown) or reverse("games:notifications")
        token = unsubscribe_token(delivery.user_id, delivery.channel)
        return Message(
            subject=subject,
            body=words,
            link=absolute(link),
            unsubscribe=absolute(reverse("outbox:unsubscribe", args=[token])),
        )


def deliver_due(
    sender: Sender | None = None, now: datetime | None = None, batch: int = BATCH
) -> int:
    """Try the sends that are due by ``now`` (at most ``batch``); how many went."""
    sender = sender or SiteSender()
    now = now or timezone.now()
    sent = 0
    for delivery in _take(now, batch):
        if _try(delivery, sender, now):
            sent += 1
    return sent


def _take(now: datetime, batch: int) -> list[Delivery]:
    """The due sends, each taken by moving its ``due_at`` on by the lease (a row another pass
    took first is left to it)."""
    owed = Delivery.objects.filter(sent_at__isnull=True, dropped_at__isnull=True, due_at__lte=now)
    taken = []
    for delivery in owed.order_by("due_at")[:batch]:
        moved = Delivery.objects.filter(pk=delivery.pk, due_at=delivery.due_at).update(
            due_at=now + LEASE
        )
        if moved:
            taken.append(delivery)
    return taken


def _try(delivery: Delivery, sender: Sender, now: datetime) -> bool:
    preferences = Preferences.objects.filter(user_id=delivery.user_id).first()
    wanted = preferences is not None and getattr(preferences, delivery.channel, False)
    address = ""
    if delivery.channel == Delivery.Channel.EMAIL:
        user = get_user_model().objects.filter(pk=delivery.user_id, is_active=True).first()
        address = user.email if user is not None else ""
        wanted = wanted and bool(address)
    subscription = None
    if delivery.channel == Delivery.Channel.PUSH:
        subscription = PushSubscription.objects.filter(pk=delivery.subscription_id).first()
        wanted = wanted and subscription is not None
    if not wanted:
        _end(delivery, dropped_at=now, error="opted out")
        return False
    message = message_for(delivery, preferences.language)
    try:
        if subscription is not None:
            sender.push(subscription, message)
        else:
            sender.email(address, message)
    except SendFailed as failure:
        _failed(delivery, failure, subscription, now)
        return False
    _end(delivery, sent_at=now, attempts=delivery.attempts + 1)
    return True


def _failed(
    delivery: Delivery, failure: SendFailed, subscription: PushSubscription | None, now: datetime
) -> None:
    attempts = delivery.attempts + 1
    logger.warning("a %s send failed (try %d): %s", delivery.channel, attempts, failure)
    if failure.gone and subscription is not None:
        subscription.delete()  # the browser unsubscribed: its sends go with it
        return
    if attempts >= MAX_ATTEMPTS:
        _end(delivery, dropped_at=now, attempts=attempts, error=str(failure)[:200])
        return
    _end(
        delivery,
        attempts=attempts,
        error=str(failure)[:200],
        due_at=now + RETRY_AFTER[attempts - 1],
    )


def _end(delivery: Delivery, **fields) -> None:
    with transaction.atomic():
        Delivery.objects.filter(pk=delivery.pk).update(**fields)


def set_preferences(user, *, email: bool, push: bool, language: str = "") -> Preferences:
    """``user``'s opt-ins; the sends owed on a channel they left are dropped at once."""
    preferences, _created = Preferences.objects.update_or_create(
        user=user, defaults={"email": email, "push": push, "language": language}
    )
    stopped = [channel for channel, on in (("email", email), ("push", push)) if not on]
    if stopped:
        Delivery.objects.filter(
            user=user, channel__in=stopped, sent_at__isnull=True, dropped_at__isnull=True
        ).update(dropped_at=timezone.now(), error="opted out")
    return preferences


def unsubscribe(user_id: int, channel: str) -> bool:
    """A one-click link's stop: ``channel`` off for the person; whether they had it on."""
    preferences = Preferences.objects.filter(user_id=user_id).first()
    if preferences is None or not getattr(preferences, channel):
        return False
    user = get_user_model().objects.get(pk=user_id)
    set_preferences(
        user,
        email=preferences.email and channel != "email",
        push=preferences.push and channel != "push",
        language=preferences.language,
    )
    return True


def account_context(user) -> dict:
    """The account page's section: the person's opt-ins, and the key a browser subscribes
    with (empty when the site has no VAPID key: push is then not offered)."""
    preferences = Preferences.objects.filter(user=user).first()
    return {
        "outbox_email": bool(preferences and preferences.email),
        "outbox_push": bool(preferences and preferences.push),
        "outbox_has_email": bool(user.email),
        "vapid_public_key": settings.WEBPUSH_VAPID_PUBLIC_KEY,
    }
