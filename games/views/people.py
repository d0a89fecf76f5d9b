"""The pages of the people a person knows and what they are told: following and blocking from
a player's page, the account page (whom they follow, who follows them, whom they blocked, their
privacy settings), and the notifications. Every change is a POST through ``social.relations``;
a refusal is said on the page it came from."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts import guests
from accounts.usernames import find_user
from games.forms import PrivacyForm
from games.presenters.site import notification_views
from outbox import sending
from social import notifications, relations
from social.errors import Refused


def _person(username: str):
    person = find_user(username)
    if person is None:
        raise Http404("no such player")
    return person


def _change(request: HttpRequest, username: str, change: Callable, words: str) -> HttpResponse:
    """Make one change towards the player ``username`` through ``social.relations``; back to
    their page, saying ``words`` or the refusal."""
    person = _person(username)
    try:
        change(request.user, person)
    except Refused as refusal:
        extra = "claim" if refusal.code == "guest" else ""
        messages.error(request, refusal.message, extra_tags=extra)
    else:
        messages.success(request, words % {"username": person.get_username()})
    back = request.POST.get("next", "")
    if back == "account":
        return redirect("games:account")
    return redirect("games:profile", username=person.get_username())


@require_POST
@login_required
def follow(request: HttpRequest, username: str) -> HttpResponse:
    return _change(request, username, relations.follow, _("You follow %(username)s."))


@require_POST
@login_required
def unfollow(request: HttpRequest, username: str) -> HttpResponse:
    return _change(request, username, relations.unfollow, _("You no longer follow %(username)s."))


@require_POST
@login_required
def block(request: HttpRequest, username: str) -> HttpResponse:
    return _change(
        request,
        username,
        relations.block,
        _(
            "You blocked %(username)s: they cannot challenge you or sit at your tables, and you "
            "no longer see their chat."
        ),
    )


@require_POST
@login_required
def unblock(request: HttpRequest, username: str) -> HttpResponse:
    return _change(request, username, relations.unblock, _("You unblocked %(username)s."))


@login_required
def account(request: HttpRequest) -> HttpResponse:
    """The person's account: whom they follow, who follows them, their friends, whom they
    blocked, and their privacy settings (saved by a POST of the form)."""
    user = request.user
    privacy = relations.privacy_of(user)
    form = PrivacyForm(
        request.POST or None,
        initial={"challenges": privacy.challenges, "online": privacy.online},
    )
    if request.method == "POST" and form.is_valid():
        try:
            relations.set_privacy(user, **form.cleaned_data)
        except Refused as refusal:
            form.add_error(None, refusal.message)
        else:
            messages.success(request, _("Your privacy settings are saved."))
            return redirect("games:account")
    context = {
        "privacy_form": form,
        "is_guest": guests.is_guest(user),
        "following": list(relations.following(user)),
        "followers": list(relations.followers(user)),
        "friend_ids": set(relations.friends_of(user).values_list("pk", flat=True)),
        "blocking": list(relations.blocking(user)),
    }
    context.update(sending.account_context(user))  # being told away from the site (outbox)
    return render(request, "games/account.html", context)


@require_GET
@login_required
def notifications_page(request: HttpRequest) -> HttpResponse:
    """The person's newest notifications, those unread marked new; shown, they are read (and
    the bells of their other pages say so)."""
    rows = notifications.newest(request.user)
    views = notification_views(request.user, rows)  # those unread still marked so
    notifications.mark_read(request.user, [view.id for view in views if view.unread])
    context = {
        "notifications": views,
        "kept_days": notifications.KEPT_FOR.days,
        "bell_count": notifications.unread_count(request.user),  # read now, the bell says so
    }
    return render(request, "games/notifications.html", context)
