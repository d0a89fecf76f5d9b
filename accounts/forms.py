"""Sign-up, log-in and the admin's player forms: Django's own, with our username rules and
log-in throttling."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import forms as auth_forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import (
    AdminUserCreationForm,
    AuthenticationForm,
    UserChangeForm,
    UserCreationForm,
)
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator
from django.utils.translation import gettext_lazy as _
from django.views.decorators.debug import sensitive_variables

from accounts import throttle
from accounts.backends import MAX_PASSWORD_LENGTH
from accounts.signals import password_changed
from accounts.usernames import STORED_MAX_LENGTH, find_user, username_taken, validate_username


def validate_new_name(username: str, *, renaming: int | None = None) -> None:
    """A name a new or renamed account may take: within the rules, and no one else's.

    :raises ValidationError: against the rules, or taken (capital letters do not count).
    """
    validate_username(username)
    if username_taken(username, by_other_than=renaming):
        raise ValidationError(
            _("The username “%(username)s” is taken (capital letters do not count)."),
            code="taken",
            params={"username": username},
        )


class SignUpForm(UserCreationForm):
    """Username, password twice, and an optional e-mail address."""

    # A plain CharField, not Django's UsernameField: that one applies NFKC normalisation, which
    # would quietly turn a full-width "ａｄｍｉｎ" into "admin". We refuse such names instead.
    # No max_length either: validate_username says "at most 20" in words of its own.
    username = forms.CharField(
        label=_("Username"),
        help_text=_("3–20 characters: letters A–Z, digits, “_” or “-”."),
        widget=forms.TextInput(attrs={"autocapitalize": "none", "autocomplete": "username"}),
    )
    email = forms.EmailField(
        label=_("E-mail (optional)"),
        required=False,
        help_text=_("Only used if you forget your password."),
    )

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    def clean_username(self) -> str:
        username = self.cleaned_data["username"]
        validate_new_name(username)
        return username

    def save(self, commit: bool = True) -> AbstractBaseUser:
        """The account, without the address typed: that one is sent a link to verify it
        (``address_to_verify``, ``accounts.emails``) and becomes the account's once opened."""
        self.address_to_verify = self.instance.email or ""
        self.instance.email = ""
        return super().save(commit=commit)


class AnnouncesNewPassword:
    """For a form that changes a person's password: once it is saved, the site is told
    (``accounts.signals.password_changed``), and what was opened under the old log-ins closes."""

    def save(self, commit: bool = True) -> AbstractBaseUser:
        user = super().save(commit=commit)
        if commit:
            password_changed.send(sender=type(user), user=user)
        return user


class ClaimForm(AnnouncesNewPassword, SignUpForm):
    """A guest's account made their own: a username and password of their choice (the games
    and statistics stay, since it is the same account)."""


class PasswordChangeForm(AnnouncesNewPassword, auth_forms.PasswordChangeForm):
    """A player's own password change: the old password, then the new one twice."""


class AdminPasswordChangeForm(AnnouncesNewPassword, auth_forms.AdminPasswordChangeForm):
    """The admin's form that sets a player's password."""


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
        validate_new_name(username, renaming=self.instance.pk)
        return username


class ThrottledLoginMixin:
    """For Django's log-in forms: say when the throttle refused an attempt (accounts.throttle,
    applied by the authentication backend), and refuse absurdly long input with a field error
    before anything is looked up.

    AuthenticationForm sets the username's ``max_length`` after the field is built, too late for
    its validator, so the limits are added here.
    """

    error_messages = {
        "throttled": _(
            "Too many failed log-ins for this username or from your network. "
            "Please wait %(minutes)d minutes and try again."
        ),
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["username"].validators.append(MaxLengthValidator(STORED_MAX_LENGTH))
        self.fields["password"].validators.append(MaxLengthValidator(MAX_PASSWORD_LENGTH))

    def throttled_error(self) -> ValidationError:
        return ValidationError(
            self.error_messages["throttled"],
            code="throttled",
            params={"minutes": throttle.WINDOW_SECONDS // 60},
        )

    @sensitive_variables()
    def clean(self) -> dict[str, Any]:
        try:
            return super().clean()
        except ValidationError:
            if throttle.was_refused(self.request):
                raise self.throttled_error() from None
            self.explain_refusal()
            raise

    def explain_refusal(self) -> None:
        """A refused log-in the throttle let through: a form may say more than "no" here by
        raising its own ValidationError."""


class LoginForm(ThrottledLoginMixin, AuthenticationForm):
    """Django's log-in form, ignoring the username's case, refusing banned players with a clear
    word, and refusing everyone after too many failures (see accounts.throttle)."""

    error_messages = {
        **ThrottledLoginMixin.error_messages,
        "invalid_login": _("That username and password do not match. Please try again."),
        "banned": _("This account has been banned. You cannot log in."),
        "inactive": _("This account has been banned. You cannot log in."),
    }

    @sensitive_variables()
    def explain_refusal(self) -> None:
        # The backend refuses banned players like any wrong password. Say why, but only to
        # someone who knows the password: a stranger learns nothing about the account. Only
        # reached for an attempt the throttle let through, so this is no extra guess.
        username, password = self.cleaned_data["username"], self.cleaned_data["password"]
        user = find_user(username)
        if user is not None and not user.is_active and user.check_password(password):
            raise ValidationError(self.error_messages["banned"], code="banned")


class AdminLoginForm(ThrottledLoginMixin, AdminAuthenticationForm):
    """The admin's log-in form, which says when the shared throttle refused an attempt."""

    error_messages = {
        **AdminAuthenticationForm.error_messages,
        **ThrottledLoginMixin.error_messages,
    }


class EmailForm(forms.Form):
    """An e-mail address to verify (``accounts.emails``)."""

    email = forms.EmailField(label=_("E-mail address"), max_length=254)


class SetPasswordForm(AnnouncesNewPassword, auth_forms.SetPasswordForm):
    """A new password from a reset link: the new one twice."""
