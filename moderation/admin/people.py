"""Who follows and blocks whom, and the challenges people send, to read. They change only
through the players' own pages (``social.relations``, ``games.services.challenges``)."""

from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from games.models import Challenge, ChallengeInvitation
from moderation.admin.shared import ReadOnlyAdmin
from social.models import Block, Follow


@admin.register(Follow)
class FollowAdmin(ReadOnlyAdmin):
    list_display = ("follower", "followed", "created_at")
    list_select_related = ("follower", "followed")
    search_fields = ("follower__username", "followed__username")
    readonly_fields = ("follower", "followed", "created_at")
    fields = readonly_fields


@admin.register(Block)
class BlockAdmin(ReadOnlyAdmin):
    list_display = ("blocker", "blocked", "created_at")
    list_select_related = ("blocker", "blocked")
    search_fields = ("blocker__username", "blocked__username")
    readonly_fields = ("blocker", "blocked", "created_at")
    fields = readonly_fields


class InvitationInline(admin.TabularInline):
    model = ChallengeInvitation
    fields = ("user", "answer", "answered_at")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Challenge)
class ChallengeAdmin(ReadOnlyAdmin):
    list_display = ("name", "challenger", "invited", "status", "created_at", "expires_at", "table")
    list_filter = ("status",)
    list_select_related = ("challenger", "table")
    search_fields = ("challenger__username", "invitations__user__username", "name")
    readonly_fields = (
        "challenger",
        "name",
        "seat_count",
        "tournament",
        "turn_seconds",
        "rated",
        "bot_kind",
        "status",
        "created_at",
        "expires_at",
        "table",
    )
    fields = readonly_fields
    inlines = [InvitationInline]

    @admin.display(description=_("invited"))
    def invited(self, challenge: Challenge) -> str:
        return ", ".join(
            f"{row.user.get_username()} ({row.get_answer_display()})"
            for row in challenge.invitations.select_related("user")
        )
