"""A player's page (their statistics, ratings and recent games; following, blocking and
challenging them), the leaderboards, and trying the site as a guest."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts import bots, guests, throttle
from accounts.usernames import find_user
from games.models import RatingMode
from games.presenters.ratings import (
    LEADERBOARD_ACTIVE,
    LEADERBOARD_SIZE,
    leaderboard,
    player_ratings,
)
from games.services import online, stats, tables
from games.services.errors import ServiceError
from social import relations


def profile(request: HttpRequest, username: str) -> HttpResponse:
    player = find_user(username)
    if player is None:
        raise Http404("no such player")
    if player.get_username() != username:
        # One address per player: /players/DANA/ leads to /players/dana/.
        return redirect("games:profile", username=player.get_username(), permanent=True)
    viewer = request.user
    return render(
        request,
        "games/profile.html",
        {
            "player": player,
            "is_bot_account": bots.is_bot(player),
            "stats": stats.player_stats(player, viewer=viewer),
            "games_left": stats.games_left(player),
            "ratings": player_ratings(player),
            "relation": relations.relation(viewer, player),
            "may_challenge": viewer.is_authenticated and relations.may_challenge(viewer, player),
            "online": relations.may_see_online(viewer, player) and online.is_online(player),
        },
    )


def leaderboards(request: HttpRequest) -> HttpResponse:
    """The best players of each mode among those who played rated lately."""
    boards = [(mode, str(name), leaderboard(mode)) for mode, name in RatingMode.choices]
    return render(
        request,
        "games/leaderboards.html",
        {"boards": boards, "size": LEADERBOARD_SIZE, "days": LEADERBOARD_ACTIVE.days},
    )


@require_POST
def try_as_guest(request: HttpRequest) -> HttpResponse:
    """A visitor plays against bots at once, as a guest (``accounts.guests`` makes the account),
    counted against the guests' allowance of their address (``accounts.throttle``), not the
    sign-ups'. Over it, the page says what they can do instead: watch, log in or sign up."""
    if request.user.is_authenticated:
        return redirect("games:home")
    if not throttle.reserve_guest(request):
        return render(request, "games/guest_refused.html", status=429)
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
        extra_tags="claim",
    )
    return redirect(reverse("games:table", args=[table.pk]))
