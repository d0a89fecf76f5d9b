"""The moderators' screen of the personal access tokens: who holds which, when each was last
used, and revoking them (the bearer is nowhere to be seen: only its hash is kept)."""

from __future__ import annotations

from django.contrib import admin, messages
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from api import receivers
from api.models import AccessToken


@admin.register(AccessToken)
class AccessTokenAdmin(admin.ModelAdmin):
    list_display = ["name", "user", "created_at", "last_used_at", "revoked_at"]
    list_filter = ["revoked_at"]
    search_fields = ["user__username", "name"]
    readonly_fields = ["user", "name", "scopes", "created_at", "last_used_at", "revoked_at"]
    fields = readonly_fields
    actions = ["revoke"]

    def has_add_permission(self, request) -> bool:
        return False  # a token is made by its person, who alone sees its bearer

    @admin.action(description=_("Revoke the selected tokens"), permissions=["change"])
    def revoke(self, request, queryset) -> None:
        ids = list(queryset.filter(revoked_at__isnull=True).values_list("pk", flat=True))
        AccessToken.objects.filter(pk__in=ids).update(revoked_at=timezone.now())
        for token_id in ids:
            receivers.token_revoked(token_id)
        count = len(ids)
        self.message_user(
            request,
            ngettext("%(count)d token revoked.", "%(count)d tokens revoked.", count)
            % {"count": count},
            messages.SUCCESS,
        )
