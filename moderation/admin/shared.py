"""What the moderators' screens share: the admin of rows written only by code, the refusals of
the moderation actions shown as messages, and the reason every action asks for."""

from __future__ import annotations

from django.contrib import admin, messages
from django.http import HttpRequest, HttpResponseRedirect
from django.utils.translation import gettext_lazy as _

from games.services.errors import ServiceError


class ReadOnlyAdmin(admin.ModelAdmin):
    """Rows written only by code (games.services, the moderation log): the admin reads them."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


class RefusalShownAdmin(admin.ModelAdmin):
    """A refusal of the moderation actions (``ServiceError``), raised while the admin saves,
    rolls the admin's transaction back and comes back to the page as a message."""

    def add_view(self, request: HttpRequest, form_url="", extra_context=None):
        try:
            return super().add_view(request, form_url, extra_context)
        except ServiceError as error:
            self.message_user(request, error.message, messages.ERROR)
            return HttpResponseRedirect(request.get_full_path())

    def change_view(self, request: HttpRequest, object_id, form_url="", extra_context=None):
        try:
            return super().change_view(request, object_id, form_url, extra_context)
        except ServiceError as error:
            self.message_user(request, error.message, messages.ERROR)
            return HttpResponseRedirect(request.get_full_path())


def action_reason(modeladmin: admin.ModelAdmin, request: HttpRequest) -> str | None:
    """The reason typed beside the action, or None (and a message) when there is none."""
    reason = request.POST.get("reason", "").strip()
    if not reason:
        modeladmin.message_user(request, _("Give a reason for this action."), messages.ERROR)
        return None
    return reason
