"""The moderation log, to read."""

from __future__ import annotations

from django.contrib import admin
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from moderation.admin.shared import ReadOnlyAdmin
from moderation.models import ModerationLog


@admin.register(ModerationLog)
class ModerationLogAdmin(ReadOnlyAdmin):
    """Every moderator action, to read: nobody adds, changes or deletes a row here, not even a
    superuser."""

    list_display = ("created_at", "actor", "action", "target", "object_link", "reason")
    list_filter = ("action", "created_at", ("actor", admin.RelatedOnlyFieldListFilter))
    list_select_related = ("actor", "target")
    search_fields = ("target__username", "actor__username", "object_repr", "reason")
    readonly_fields = ("created_at", "actor", "action", "target", "object_link", "reason")
    fields = readonly_fields

    @admin.display(description=_("object"))
    def object_link(self, entry: ModerationLog) -> str:
        if entry.object_url:
            return format_html('<a href="{}">{}</a>', entry.object_url, entry.object_repr)
        return entry.object_repr
