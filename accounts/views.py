"""Sign-up and profiles. Log-in, log-out and password change are Django's views (see urls.py)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_post_parameters

from accounts import moderation, throttle
from accounts.forms import ReportForm, SignUpForm
from accounts.usernames import find_user
from games.models import Table
from games.services import stats
from games.services.errors import ServiceError


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
        {
            "player": player,
            "stats": stats.player_stats(player, viewer=request.user),
            "games_left": stats.games_left(player),
        },
    )


@login_required
def report_player(request: HttpRequest, username: str) -> HttpResponse:
    """Report a player from their profile."""
    player = find_user(username)
    if player is None:
        raise Http404("no such player")
    back = reverse("accounts:profile", args=[player.get_username()])
    return report(request, [player], back)


def report(
    request: HttpRequest, people: list, back: str, table: Table | None = None
) -> HttpResponse:
    """The report form, for one of ``people``; the filer goes ``back`` with "report received"."""
    form = ReportForm(request.POST or None, people=people)
    if request.method == "POST" and form.is_valid():
        target = next(person for person in people if person.pk == form.cleaned_data["target"])
        try:
            moderation.file_report(
                request.user,
                target,
                form.cleaned_data["category"],
                form.cleaned_data["comment"],
                table=table,
            )
        except ServiceError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("Report received: thank you. A moderator will look at it."))
            return redirect(back)
    context = {"form": form, "people": people, "back": back, "table": table}
    return render(request, "accounts/report.html", context)
