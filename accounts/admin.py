"""The moderators' screen for players: search, filter, ban and unban."""

from __future__ import annotations

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts.forms import AdminLoginForm, SignUpForm
from accounts.usernames import validate_username
from games.services import broadcast, tables

User = get_user_model()


class PlayerCreationForm(AdminUserCreationForm):
    """The admin's "add user" form, with the username rules of the sign-up form."""

    username = SignUpForm.base_fields["username"]
    clean_username = SignUpForm.clean_username


class PlayerChangeForm(UserChangeForm):
    """The admin's "change user" form: a renamed player must follow the sign-up rules too."""

    def clean_username(self) -> str:
        username = self.cleaned_data["username"]
        if "username" not in self.changed_data:
            return username  # names from before the rules stay as they are
        validate_username(username)
        others = User._default_manager.exclude(pk=self.instance.pk)
        if others.filter(username__iexact=username).exists():
            raise ValidationError(
                _("The username “%(username)s” is taken (capital letters do not count)."),
                code="taken",
                params={"username": username},
            )
        return username


admin.site.unregister(User)
# The admin's log-in page says when the throttle shared with the players' page refuses a name.
admin.site.login_form = AdminLoginForm


@admin.register(User)
class PlayerAdmin(UserAdmin):
    add_form = PlayerCreationForm
    form = PlayerChangeForm
    list_display = ("username", "email", "is_active", "is_staff", "date_joined", "last_login")
    list_filter = ("is_active", "is_staff", "is_superuser", "date_joined", "last_login")
    search_fields = ("username", "email")
    ordering = ("-date_joined",)
    actions = ("ban", "unban")

    @admin.action(description=_("Ban the selected players"), permissions=["change"])
    def ban(self, request: HttpRequest, queryset: QuerySet) -> None:
        # A moderator cannot lock themselves out, nor ban a superuser (who could unban anyway).
        spared = queryset.filter(pk=request.user.pk) | queryset.filter(is_superuser=True)
        if spared.exists():
            self.message_user(
                request,
                _("You cannot ban yourself or a superuser: they were left alone."),
                messages.WARNING,
            )
        banned = list(queryset.exclude(pk__in=spared).filter(is_active=True))
        with transaction.atomic():
            count = queryset.filter(pk__in=[user.pk for user in banned]).update(is_active=False)
            for user in banned:
                # A bot takes their running seats and their open tables close; their sockets,
                # opened before the ban, close too.
                tables.withdraw_player(user)
                broadcast.sessions_ended(user.pk)
        self.message_user(
            request,
            ngettext("%(count)d player banned.", "%(count)d players banned.", count)
            % {"count": count},
            messages.SUCCESS,
        )

    @admin.action(description=_("Unban the selected players"), permissions=["change"])
    def unban(self, request: HttpRequest, queryset: QuerySet) -> None:
        count = queryset.update(is_active=True)
        self.message_user(
            request,
            ngettext("%(count)d player unbanned.", "%(count)d players unbanned.", count)
            % {"count": count},
            messages.SUCCESS,
        )
