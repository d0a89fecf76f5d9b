"""Accounts in the admin: the players' screen, with what accounts knows of a person, and the
admin's log-in page.

``PlayerAdmin`` takes the place of Django's own screen of users: new players and new names go
through accounts' forms (unique ignoring case, no look-alike letters), a new password through
the form that announces it, and only a superuser edits a player's page. The apps above accounts
may extend it and register their subclass in its place.
"""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from accounts.forms import (
    AdminLoginForm,
    AdminPasswordChangeForm,
    PlayerChangeForm,
    PlayerCreationForm,
)

User = get_user_model()

# The admin's log-in page says when the throttle shared with the players' page refuses a name.
admin.site.login_form = AdminLoginForm

admin.site.unregister(User)


@admin.register(User)
class PlayerAdmin(UserAdmin):
    """The players: found by name or email, filtered by activity and role, newest first."""

    add_form = PlayerCreationForm
    form = PlayerChangeForm
    change_password_form = AdminPasswordChangeForm
    list_display = ("username", "email", "is_active", "is_staff", "date_joined", "last_login")
    list_filter = ("is_active", "is_staff", "is_superuser", "date_joined", "last_login")
    search_fields = ("username", "email")
    ordering = ("-date_joined",)

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        # Only a superuser edits a player's page (or their password); other staff with the
        # change permission use it through the admin's actions, whose permission is checked
        # without a player.
        if obj is not None and not request.user.is_superuser:
            return False
        return super().has_change_permission(request, obj)

    def get_fieldsets(self, request: HttpRequest, obj=None):
        if obj is not None and not request.user.is_superuser:
            # Staff who only read a player's page see who the player is, not their password,
            # groups or permissions.
            return [
                (None, {"fields": ("username", "email", "is_active", "is_staff")}),
                (_("Important dates"), {"fields": ("last_login", "date_joined")}),
            ]
        return super().get_fieldsets(request, obj)
