"""The outbox in the admin, read-only: what was owed to whom, tried how often, sent or dropped
and why; the push subscriptions. Nothing is sent or changed from here."""

from __future__ import annotations

from django.contrib import admin

from outbox.models import Delivery, PushSubscription


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Delivery)
class DeliveryAdmin(ReadOnly):
    list_display = ["created_at", "user", "channel", "kind", "attempts", "sent_at", "dropped_at"]
    list_filter = ["channel", "kind"]
    search_fields = ["user__username"]
    list_select_related = ["user"]


@admin.register(PushSubscription)
class PushSubscriptionAdmin(ReadOnly):
    list_display = ["created_at", "user"]
    search_fields = ["user__username"]
    list_select_related = ["user"]
    exclude = ["p256dh", "auth"]  # the browser's keys: nobody needs to read them
