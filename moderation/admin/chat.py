"""The chat's lines, to read and to hide, and the blocked words."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.models import BlockedWord, ChatMessage
from games.services.errors import ServiceError
from moderation import actions as moderation
from moderation.admin.forms import ReasonActionForm
from moderation.admin.shared import ReadOnlyAdmin, action_reason


@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnlyAdmin):
    """The chat, to read and to hide lines from (with a reason); never edited."""

    list_display = ("created_at", "table", "room", "author", "text", "hidden")
    list_filter = ("room", ("hidden_at", admin.EmptyFieldListFilter), "created_at")
    list_select_related = ("table", "author")
    search_fields = ("text", "author__username", "table__name")
    readonly_fields = (
        "table",
        "room",
        "author",
        "text",
        "created_at",
        "hidden_at",
        "hidden_by",
        "hidden_reason",
    )
    actions = ("hide_messages",)
    action_form = ReasonActionForm

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        # The change permission serves the hide action alone: a line is never edited.
        return obj is None and request.user.has_perm("games.change_chatmessage")

    @admin.display(description=_("hidden"), boolean=True)
    def hidden(self, message: ChatMessage) -> bool:
        return message.hidden_at is not None

    @admin.action(description=_("Hide the selected messages"), permissions=["change"])
    def hide_messages(self, request: HttpRequest, queryset: QuerySet[ChatMessage]) -> None:
        reason = action_reason(self, request)
        if reason is None:
            return
        hidden = 0
        for line in queryset.select_related("author"):
            try:
                hidden += moderation.hide_message(request.user, line, reason)
            except ServiceError as error:  # a line of a moderator's own, or of staff
                self.message_user(request, f"{line}: {error.message}", messages.WARNING)
        self.message_user(
            request,
            ngettext("%(count)d message hidden.", "%(count)d messages hidden.", hidden)
            % {"count": hidden},
            messages.SUCCESS,
        )


@admin.register(BlockedWord)
class BlockedWordAdmin(admin.ModelAdmin):
    """Words no chat line may contain."""

    list_display = ("word",)
    search_fields = ("word",)
