"""A stored notification becomes the outbox's sends: one e-mail if the person opted in and has
a verified address, one push per browser if they opted in. Run after the notification's
transaction commits (``social.signals.notified``), never inside it."""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone

from outbox.models import Delivery, Preferences, PushSubscription
from social.models import Notification

logger = logging.getLogger(__name__)

Kind = Notification.Kind
# The kinds told away from the site: the rest waits for the person's next visit.
DELIVERED = frozenset({Kind.YOUR_MOVE, Kind.MOVE_REMINDER, Kind.CHALLENGE_RECEIVED})


def queue_notification(sender: Any, user_id: int, notification_id: int, **kwargs: Any) -> None:
    """``social.signals.notified``: queue the sends it owes; a failure is logged, never raised
    into the code that stored the notification."""
    try:
        queue(user_id, notification_id)
    except Exception:
        logger.exception("could not queue the sends of notification %s", notification_id)


def queue(user_id: int, notification_id: int) -> list[Delivery]:
    """The sends owed for the notification, queued; none for a kind not ``DELIVERED`` or a
    person who opted into nothing."""
    preferences = Preferences.objects.filter(user_id=user_id).first()
    if preferences is None or not (preferences.email or preferences.push):
        return []
    notification = Notification.objects.filter(pk=notification_id).first()
    if notification is None or notification.kind not in DELIVERED:
        return []
    now = timezone.now()
    owed = []
    common = {"user_id": user_id, "kind": notification.kind, "data": notification.data}
    if preferences.email:
        address = get_user_model().objects.filter(pk=user_id).values_list("email", flat=True)
        if address.first():
            owed.append(Delivery(channel=Delivery.Channel.EMAIL, due_at=now, **common))
    if preferences.push:
        for subscription in PushSubscription.objects.filter(user_id=user_id):
            owed.append(
                Delivery(
                    channel=Delivery.Channel.PUSH, subscription=subscription, due_at=now, **common
                )
            )
    return Delivery.objects.bulk_create(owed)
