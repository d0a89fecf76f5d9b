"""Sign-up and profiles. Log-in, log-out and password change are Django's views (see urls.py)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login, update_session_auth_hash
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_POST

from accounts import guests, throttle
from accounts.forms import ClaimForm, ReportForm, SignUpForm
from accounts.usernames import find_user
from games.models import Table
from games.moderation import actions as moderation
from games.services import stats, tables
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


@require_POST
def try_as_guest(request: HttpRequest) -> HttpResponse:
    """A visitor plays against bots at once, as a guest (``accounts.guests``), counted against
    the sign-up throttle of their address like any new account."""
    if request.user.is_authenticated:
        return redirect("games:home")
    if not throttle.reserve_signup(request):
        messages.error(
            request, _("Too many new accounts from your network. Please try again in an hour.")
        )
        return redirect("games:home")
    user = guests.create_guest()
    login(request, user, backend="accounts.backends.CaseInsensitiveModelBackend")
    try:
        table = tables.play_against_bots(user, opponents=3)
    except ServiceError as error:  # pragma: no cover - a new account may always play bots
        messages.error(request, error.message)
        return redirect("games:home")
    messages.info(
        request,
        _(
            "You are playing as %(username)s, a guest. Keep your games: claim the account "
            "with a name and password of your own."
        )
        % {"username": user.get_username()},
    )
    return redirect(reverse("games:table", args=[table.pk]))


@login_required
@sensitive_post_parameters("password1", "password2")
def claim(request: HttpRequest) -> HttpResponse:
    """A guest chooses a username and password; the account, its games and statistics stay."""
    if not guests.is_guest(request.user):
        return redirect("accounts:profile", username=request.user.get_username())
    form = ClaimForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                user = form.save()
                guests.claim(user)
        except IntegrityError:
            form.add_error("username", _("That username was just taken. Please choose another."))
            return render(request, "accounts/claim.html", {"form": form})
        update_session_auth_hash(request, user)
        messages.success(request, _("Welcome, %(username)s!") % {"username": user.get_username()})
        return redirect("accounts:profile", username=user.get_username())
    return render(request, "accounts/claim.html", {"form": form})


def profile(request: HttpRequest, username: str) -> HttpResponse:
    player = find_user(username)
    if player is None:
        raise Http404("no such player")
    if player.get_username() != username:
        # One address per player: /players/DANA/ leads to /players/dana/.
        return redirect("accounts:profile", username=player.get_username(), permanent=True)
    return render(
        request,
        "games/profile.html",
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
    return render(request, "games/report.html", context)
