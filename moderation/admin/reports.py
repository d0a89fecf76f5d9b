"""The reports' queue: handling a report, or acting on the person reported from it."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from moderation import actions as moderation
from moderation.admin.forms import ReportForm
from moderation.admin.shared import RefusalShownAdmin
from moderation.models import Report
from moderation.permissions import may_act_on


@admin.register(Report)
class ReportAdmin(RefusalShownAdmin):
    """The queue: open reports first. A moderator resolves or dismisses each, with notes, or
    acts on the person reported from the report itself: a sanction for a time with a reason,
    the report resolved and linked to it, in one step. A report about someone the moderator may
    not act on (themselves, staff) is shown read-only."""

    form = ReportForm
    list_display = ("created_at", "category", "target", "filer", "status", "handled_by")
    list_filter = ("status", "category", "created_at")
    list_select_related = ("target", "filer", "handled_by", "sanction")
    search_fields = ("target__username", "filer__username", "comment")
    ordering = ("-created_at",)
    shown = (
        "filer",
        "target",
        "category",
        "comment",
        "table_link",
        "recent_chat",
        "created_at",
        "handled_by",
        "handled_at",
    )
    acting = ("sanction_kind", "duration", "sanction_reason")

    def get_fieldsets(self, request: HttpRequest, obj=None):
        if not self.has_change_permission(request, obj):
            return [(None, {"fields": (*self.shown, "status", "notes", "sanction_link")})]
        return [
            (None, {"fields": (*self.shown, "status", "notes")}),
            (_("Act on the reported player"), {"fields": self.acting}),
        ]

    def get_readonly_fields(self, request: HttpRequest, obj=None):
        if not self.has_change_permission(request, obj):
            return (*self.shown, "status", "notes", "sanction_link")
        return self.shown

    def get_form(self, request: HttpRequest, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change, **kwargs)
        form.actor = request.user
        return form

    def get_object(self, request: HttpRequest, object_id: str, from_field=None):
        report = super().get_object(request, object_id, from_field)
        if report is not None:
            # The form sets the status it is given on the report before it is saved; whether
            # the page may change it is decided by the status it has.
            report.stored_status = report.status
        return report

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        # A handled report is kept as it was handled.
        status = getattr(obj, "stored_status", getattr(obj, "status", None))
        if obj is not None and status != Report.Status.OPEN:
            return False
        if obj is not None and not may_act_on(request.user, obj.target):
            return False
        return super().has_change_permission(request, obj)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # filed by players

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    @admin.display(description=_("table"))
    def table_link(self, report: Report) -> str:
        if report.table_id is None:
            return "—"
        url = reverse("admin:games_table_change", args=[report.table_id])
        page = reverse("games:table", args=[report.table_id])
        return format_html(
            '<a href="{}">{}</a> · <a href="{}">{}</a>', url, report.table, page, _("Watch")
        )

    @admin.display(description=_("recent chat"))
    def recent_chat(self, report: Report) -> str:
        if not report.chat_snapshot:
            return "—"
        rows = format_html_join(
            "",
            "<li><strong>{}</strong>: {}</li>",
            ((line.get("author", ""), line.get("text", "")) for line in report.chat_snapshot),
        )
        return format_html("<ul>{}</ul>", rows)

    @admin.display(description=_("sanction"))
    def sanction_link(self, report: Report) -> str:
        sanction = report.sanction
        if sanction is None:
            return "—"
        url = reverse("admin:accounts_sanction_change", args=[sanction.pk])
        if sanction.ends_at is None:
            until = _("Permanent")
        else:
            until = formats.date_format(timezone.localtime(sanction.ends_at), "DATETIME_FORMAT")
        return format_html('<a href="{}">{}</a> ({})', url, sanction.get_kind_display(), until)

    def save_model(self, request: HttpRequest, obj: Report, form, change: bool) -> None:
        data = form.cleaned_data
        if data["sanction_kind"]:
            moderation.sanction_from_report(
                request.user,
                obj,
                data["sanction_kind"],
                data["sanction_reason"],
                form.ends_at(),
                data["notes"],
            )
            return
        moderation.handle_report(request.user, obj, data["status"], data["notes"])
