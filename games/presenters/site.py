"""What every signed-in page shows of the people a person knows and what they are told: the
header's bell, the newest notification, the friends panel and the open challenges of the home
page, one challenge; drawn by a page and pushed by its site socket (``games.live.site``) alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.template.loader import render_to_string
from django.urls import reverse

from games.models import Challenge, ChallengeInvitation, Seat, Table
from games.services import access, challenges, online
from games.services.errors import ServiceError
from social import notifications, relations
from social.models import Notification

# Friends a panel shows, those online first.
FRIENDS_SHOWN = 50


@dataclass(frozen=True)
class NotificationView:
    """One notification as its reader sees it."""

    id: int
    words: str
    link: str
    created_at: datetime
    unread: bool
    # A challenge received that still waits for this reader's answer: its id, for Accept and
    # Decline beside it.
    answerable: int | None


def notification_views(user: AbstractBaseUser, rows: list[Notification]) -> list[NotificationView]:
    """``rows`` of ``user``'s, in the active language, with Accept and Decline where a
    challenge still waits for their answer."""
    asked = [
        row.data.get("challenge")
        for row in rows
        if row.kind == Notification.Kind.CHALLENGE_RECEIVED and isinstance(row.data, dict)
    ]
    waiting = set(
        ChallengeInvitation.objects.filter(
            user=user,
            challenge_id__in=[pk for pk in asked if isinstance(pk, int)],
            challenge__status=Challenge.Status.OPEN,
        )
        .exclude(answer=ChallengeInvitation.Answer.ACCEPTED)
        .values_list("challenge_id", flat=True)
    )
    views = []
    for row in rows:
        challenge = row.data.get("challenge") if isinstance(row.data, dict) else None
        answerable = (
            challenge
            if row.kind == Notification.Kind.CHALLENGE_RECEIVED and challenge in waiting
            else None
        )
        views.append(
            NotificationView(
                id=row.pk,
                words=notifications.words(row),
                link=notifications.link(row),
                created_at=row.created_at,
                unread=row.read_at is None,
                answerable=answerable,
            )
        )
    return views


def bell_fragment(count: int) -> str:
    """``#bell``: the header's link to the notifications, with the unread count."""
    return render_to_string("games/partials/bell.html", {"bell_count": count})


def your_move_fragment(count: int) -> str:
    """``#your-move``: the header's "Your move in N games", beside the bell."""
    return render_to_string("games/partials/your_move.html", {"your_move_count": count})


def alert_fragment(view: NotificationView | None) -> str:
    """``#site-alert``: the newest notification, said where the page's person will see it."""
    return render_to_string("games/partials/site_alert.html", {"alert": view})


def read_alert(user: AbstractBaseUser, notification_id: int) -> NotificationView | None:
    row = Notification.objects.filter(pk=notification_id, recipient=user).first()
    return notification_views(user, [row])[0] if row is not None else None


def go_fragment(table_id: int) -> str:
    """``#site-go``: once swapped in, it asks where to go (htmx follows the answer's
    ``HX-Redirect`` to the table), with a link for a page that cannot."""
    return render_to_string("games/partials/site_go.html", {"table_id": table_id})


# ------------------------------------------------------------------ friends


@dataclass(frozen=True)
class FriendView:
    username: str
    online: bool
    playing: bool
    watch_url: str  # "" when the viewer may not watch the friend's table
    may_challenge: bool


def friends(user: AbstractBaseUser) -> list[FriendView]:
    """``user``'s friends, those online first, each with where they play (and a way to watch
    it, if the table lets ``user``) and whether ``user`` may challenge them; in a few queries
    however many friends."""
    people = list(relations.friends_of(user)[: FRIENDS_SHOWN * 2])
    ids = [person.pk for person in people]
    here = online.online_among(ids)
    playing: dict[int, Table] = {}
    seats = Seat.objects.filter(user_id__in=ids, table__status=Table.Status.PLAYING)
    for seat in seats.select_related("table").order_by("-table__created_at"):
        playing.setdefault(seat.user_id, seat.table)
    watchable = access.watchable_among(set(playing.values()), user)
    challengeable = relations.friends_who_take_challenges(user, people)
    views = []
    for person in people:
        table = playing.get(person.pk)
        views.append(
            FriendView(
                username=person.get_username(),
                online=person.pk in here,
                playing=table is not None,
                watch_url=table.page_url() if table is not None and table.pk in watchable else "",
                may_challenge=person.pk in challengeable,
            )
        )
    views.sort(key=lambda view: (not view.online, view.username.casefold()))
    return views[:FRIENDS_SHOWN]


def friends_panel_fragment(user: AbstractBaseUser) -> str:
    """``#friends-panel``, as the home page shows it."""
    return render_to_string(
        "games/partials/friends_panel.html",
        {"friends": friends(user), "new_challenge_url": reverse("games:new_challenge")},
    )


def open_challenges_fragment(user: AbstractBaseUser) -> str:
    """``#open-challenges``, as the home page shows it."""
    return render_to_string(
        "games/partials/open_challenges.html", {"open_challenges": challenges.open_challenges(user)}
    )


def challenge_fragment(challenge_id: int, user: AbstractBaseUser) -> str:
    """``#challenge-<id>``, as the challenge's page shows it to ``user`` ("" if they may not
    see it)."""
    try:
        view = challenges.read_challenge(challenge_id, user)
    except ServiceError:
        return ""
    return render_to_string("games/partials/challenge.html", {"view": view})


def home_context(user: AbstractBaseUser) -> dict[str, Any]:
    """What the home page draws of a signed-in person's friends and challenges."""
    if not user.is_authenticated:
        return {}
    return {
        "home_people": True,
        "friends": friends(user),
        "open_challenges": challenges.open_challenges(user),
        "new_challenge_url": reverse("games:new_challenge"),
    }
