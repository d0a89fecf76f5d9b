"""The outbox's admin screens: read-only, the browsers' keys never shown."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from outbox.models import Delivery, PushSubscription

pytestmark = pytest.mark.django_db


def test_a_moderator_reads_the_deliveries_and_cannot_add_one(moderator, alice) -> None:
    Delivery.objects.create(user=alice, channel="email", kind="your_move", due_at=timezone.now())
    client = Client()
    client.force_login(moderator)
    page = client.get(reverse("admin:outbox_delivery_changelist")).content.decode()
    assert "alice" in page and "your_move" in page
    assert client.get(reverse("admin:outbox_delivery_add")).status_code == 403


def test_a_push_subscription_shows_without_its_keys(moderator, alice) -> None:
    subscription = PushSubscription.objects.create(
        user=alice, endpoint="https://push.example/z", p256dh="SECRET-P256", auth="SECRET-AUTH"
    )
    client = Client()
    client.force_login(moderator)
    page = client.get(reverse("admin:outbox_pushsubscription_change", args=[subscription.pk]))
    assert "SECRET-P256" not in page.content.decode()
