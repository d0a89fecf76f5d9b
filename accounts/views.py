"""Sign-up and claiming a guest account. Log-in, log-out and password change are Django's views
(see urls.py)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login, update_session_auth_hash
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_post_parameters

from accounts import guests, throttle
from accounts.forms import ClaimForm, SignUpForm


@sensitive_post_parameters("password1", "password2")
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("games:home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        if not throttle.reserve_signup(request):
            form.add_error(
                None, _("Too many new accounts from your network. Please try again in an hour.")
            )
            return render(request, "accounts/signup.html", {"form": form})
        try:
            with transaction.atomic():
                user = form.save()
        except IntegrityError:
            # Someone took the name (in another case) between the form's check and the save;
            # the database's unique index (migration 0001) caught it.
            throttle.release_signup(request)
            form.add_error("username", _("That username was just taken. Please choose another."))
            return render(request, "accounts/signup.html", {"form": form})
        login(request, user)
        messages.success(request, _("Welcome, %(username)s!") % {"username": user.get_username()})
        return redirect("games:home")
    return render(request, "accounts/signup.html", {"form": form})


@login_required
@sensitive_post_parameters("password1", "password2")
def claim(request: HttpRequest) -> HttpResponse:
    """A guest chooses a username and password; the account, its games and statistics stay.
    Counted against the sign-up limit of the address (``accounts.throttle``)."""
    if not guests.is_guest(request.user):
        return redirect("games:profile", username=request.user.get_username())
    form = ClaimForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        # Keeping the account is signing up: counted as one, so that guests are no way round
        # the sign-up limit.
        if not throttle.reserve_signup(request):
            form.add_error(
                None, _("Too many new accounts from your network. Please try again in an hour.")
            )
            return render(request, "accounts/claim.html", {"form": form})
        try:
            with transaction.atomic():
                user = form.save()
                guests.claim(user)
        except IntegrityError:
            throttle.release_signup(request)
            form.add_error("username", _("That username was just taken. Please choose another."))
            return render(request, "accounts/claim.html", {"form": form})
        update_session_auth_hash(request, user)
        messages.success(request, _("Welcome, %(username)s!") % {"username": user.get_username()})
        return redirect("games:profile", username=user.get_username())
    return render(request, "accounts/claim.html", {"form": form})
