"""Sign-up and profiles. Log-in, log-out and password change are Django's views (see urls.py)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.db import IntegrityError, transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_post_parameters

from accounts import throttle
from accounts.forms import SignUpForm
from accounts.usernames import find_user
from games.services import stats


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


def profile(request: HttpRequest, username: str) -> HttpResponse:
    player = find_user(username)
    if player is None:
        raise Http404("no such player")
    if player.get_username() != username:
        # One address per player: /players/DANA/ leads to /players/dana/.
        return redirect("accounts:profile", username=player.get_username(), permanent=True)
    return render(
        request,
        "accounts/profile.html",
        {"player": player, "stats": stats.player_stats(player, viewer=request.user)},
    )
