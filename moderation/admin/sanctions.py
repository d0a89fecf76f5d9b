"""The sanctions' screen: chat mutes, play bans and account bans, imposed and lifted."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from accounts.models import Sanction
from moderation import actions as moderation
from moderation.admin.forms import LiftForm, SanctionForm
from moderation.admin.shared import RefusalShownAdmin
from moderation.permissions import may_act_on


@admin.register(Sanction)
class SanctionAdmin(RefusalShownAdmin):
    """Chat mutes, play bans and account bans: imposed here (the add form, the player chosen by
    name) and lifted here (an active sanction's page asks for the reason); never edited
    otherwise nor deleted. A sanction on someone the moderator may not act on (themselves,
    staff) is shown read-only."""

    list_display = ("user", "kind", "reason", "created_by", "created_at", "ends_at", "active")
    list_filter = ("kind", "created_at")
    list_select_related = ("user", "created_by")
    search_fields = ("user__username", "reason")
    autocomplete_fields = ("user",)
    shown = (
        "user",
        "kind",
        "reason",
        "created_by",
        "created_at",
        "ends_at",
        "lifted_at",
        "lifted_by",
    )

    @admin.display(description=_("active"), boolean=True)
    def active(self, sanction: Sanction) -> bool:
        return sanction.is_active

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        if obj is not None and not may_act_on(request.user, obj.user):
            return False
        return super().has_change_permission(request, obj)

    def get_form(self, request: HttpRequest, obj=None, change=False, **kwargs):
        kwargs["form"] = LiftForm if obj is not None else SanctionForm
        return super().get_form(request, obj, change, **kwargs)

    def get_fields(self, request: HttpRequest, obj=None):
        if obj is None:
            return ("user", "kind", "reason", "duration")
        return (*self.shown, "lift_reason")

    def get_readonly_fields(self, request: HttpRequest, obj=None):
        if obj is None:
            return ()
        return self.shown if obj.is_active else (*self.shown, "lift_reason")

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: Sanction, form, change: bool) -> None:
        # The admin's change view runs this in its transaction: the sanction and its log row
        # are one.
        if change:
            moderation.lift_sanction(request.user, obj, form.cleaned_data["lift_reason"])
            return
        sanction = moderation.impose_sanction(
            request.user, obj.user, obj.kind, obj.reason, form.ends_at()
        )
        obj.pk = sanction.pk
        obj._state.adding = False
