"""The players' screen, the one screen two apps share. Accounts defines it and registers it
(``accounts.admin.PlayerAdmin``: its forms, columns, filters, search and order, and only
superusers edit a player's page); moderation, above accounts, adds what moderators do to a
player and read of one (the ban, unban and rename actions, leaver statistics, active
sanctions, the moderation log about them, and the sockets closed when a superuser deactivates
an account by hand) and registers its subclass in accounts' place."""

from __future__ import annotations

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts.admin import PlayerAdmin
from accounts.models import Sanction
from games.services import broadcast, stats
from games.services.errors import ServiceError
from moderation import actions as moderation
from moderation.admin.forms import PlayerActionForm
from moderation.models import ModerationLog

User = get_user_model()

# Accounts' screen of players is registered (importing it above made sure): this one, which
# extends it, takes its place.
admin.site.unregister(User)


@admin.register(User)
class ModeratedPlayerAdmin(PlayerAdmin):
    """Accounts' players' screen, with the moderators' actions and what they read of a player."""

    actions = ("ban", "unban", "rename")
    action_form = PlayerActionForm
    moderation_fields = ("leaver_statistics", "active_sanctions", "moderation_history")

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
