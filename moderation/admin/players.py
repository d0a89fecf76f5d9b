"""The moderators' screens: players (ban, unban, rename), sanctions, reports (and acting from
one) and the log.

Every action goes through ``moderation.actions``, which writes one row of the moderation
log in the same transaction. Moderators (staff in the Moderators group, not superusers) read a
player's page but change a player only through these actions; the log is read-only for everyone.

``ReadOnlyAdmin`` is here for every screen of rows written only by code: the games' screens
(``games.admin``) import it from here, which is also what registers these screens.
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponseRedirect
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts.forms import AdminPasswordChangeForm, PlayerChangeForm, PlayerCreationForm
from accounts.models import Sanction
from games.services import broadcast, stats
from games.services.errors import ServiceError
from moderation import actions as moderation
from moderation.admin.forms import LiftForm, PlayerActionForm, ReportForm, SanctionForm
from moderation.models import ModerationLog, Report
from moderation.permissions import may_act_on

User = get_user_model()


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


admin.site.unregister(User)


@admin.register(User)
class PlayerAdmin(UserAdmin):
    add_form = PlayerCreationForm
    form = PlayerChangeForm
    change_password_form = AdminPasswordChangeForm
    list_display = ("username", "email", "is_active", "is_staff", "date_joined", "last_login")
    list_filter = ("is_active", "is_staff", "is_superuser", "date_joined", "last_login")
    search_fields = ("username", "email")
    ordering = ("-date_joined",)
    actions = ("ban", "unban", "rename")
    action_form = PlayerActionForm
    moderation_fields = ("leaver_statistics", "active_sanctions", "moderation_history")

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        # Only a superuser edits a player's page (or their password); moderators act through
        # the actions, whose permission is checked without a player.
        if obj is not None and not request.user.is_superuser:
            return False
        return super().has_change_permission(request, obj)

    def save_model(self, request: HttpRequest, obj, form, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if change and "is_active" in form.changed_data and not obj.is_active:
            # A superuser deactivated the account by hand: like a ban, it ends the person's
            # log-ins, and the sockets opened under them close.
            broadcast.sessions_ended(obj.pk)

    def get_fieldsets(self, request: HttpRequest, obj=None):
        fieldsets = list(super().get_fieldsets(request, obj))
        if obj is None:
            return fieldsets
        if not request.user.is_superuser:
            fieldsets = [
                (None, {"fields": ("username", "email", "is_active", "is_staff")}),
                (_("Important dates"), {"fields": ("last_login", "date_joined")}),
            ]
        return [*fieldsets, (_("Moderation"), {"fields": self.moderation_fields})]

    def get_readonly_fields(self, request: HttpRequest, obj=None):
        return (*super().get_readonly_fields(request, obj), *self.moderation_fields)

    @admin.display(description=_("leaver statistics"))
    def leaver_statistics(self, player) -> str:
        counts = stats.leaver_stats(player)
        return _("%(left)d games left, %(timeouts)d lost to timeouts, %(aborted)d aborted") % (
            counts
        )

    @admin.display(description=_("active sanctions"))
    def active_sanctions(self, player) -> str:
        active = Sanction.objects.active().filter(user=player)
        return ", ".join(str(sanction.get_kind_display()) for sanction in active) or "—"

    @admin.display(description=_("moderation log"))
    def moderation_history(self, player) -> str:
        entries = ModerationLog.objects.filter(target=player).select_related("actor")[:20]
        url = reverse("admin:moderation_moderationlog_changelist")
        url += f"?target__id__exact={player.pk}"
        rows = format_html_join(
            "",
            "<li>{} · {} · {} · {}</li>",
            (
                (
                    formats.date_format(
                        timezone.localtime(entry.created_at), "SHORT_DATETIME_FORMAT"
                    ),
                    entry.actor or "—",
                    entry.get_action_display(),
                    entry.reason,
                )
                for entry in entries
            ),
        )
        return format_html('<ul>{}</ul><a href="{}">{}</a>', rows, url, _("The whole log"))

    def _each(self, request: HttpRequest, queryset: QuerySet, act) -> int:
        """Run ``act(player)`` on each selected player; a refusal is shown, the rest go on."""
        done = 0
        for player in queryset:
            try:
                act(player)
            except ServiceError as error:
                self.message_user(
                    request, f"{player.get_username()}: {error.message}", messages.WARNING
                )
            else:
                done += 1
        return done

    @admin.action(description=_("Ban the selected players"), permissions=["change"])
    def ban(self, request: HttpRequest, queryset: QuerySet) -> None:
        """A permanent account ban: see ``moderation.impose_sanction``."""
        reason = request.POST.get("reason", "")
        count = self._each(
            request,
            queryset.filter(is_active=True),
            lambda player: moderation.ban(request.user, player, reason),
        )
        self._tell(
            request, count, ngettext("%(count)d player banned.", "%(count)d players banned.", count)
        )

    @admin.action(description=_("Unban the selected players"), permissions=["change"])
    def unban(self, request: HttpRequest, queryset: QuerySet) -> None:
        reason = request.POST.get("reason", "")
        count = self._each(
            request,
            queryset.filter(is_active=False),
            lambda player: moderation.unban(request.user, player, reason),
        )
        self._tell(
            request,
            count,
            ngettext("%(count)d player unbanned.", "%(count)d players unbanned.", count),
        )

    def _tell(self, request: HttpRequest, count: int, words: str) -> None:
        """How many of the selected players an action reached (a warning when none)."""
        level = messages.SUCCESS if count else messages.WARNING
        self.message_user(request, words % {"count": count}, level)

    @admin.action(
        description=_("Rename the selected player (to the new name)"), permissions=["change"]
    )
    def rename(self, request: HttpRequest, queryset: QuerySet) -> None:
        if queryset.count() != 1:
            self.message_user(request, _("Rename one player at a time."), messages.ERROR)
            return
        player = queryset.get()
        old_name = player.get_username()
        new_name = request.POST.get("new_name", "").strip()
        reason = request.POST.get("reason", "")
        if self._each(
            request, [player], lambda p: moderation.rename(request.user, p, new_name, reason)
        ):
            self.message_user(
                request,
                _("%(old)s is now called %(new)s.") % {"old": old_name, "new": new_name},
                messages.SUCCESS,
            )


# ------------------------------------------------------------------ sanctions


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


# ------------------------------------------------------------------ reports


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


# ------------------------------------------------------------------ the log


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
