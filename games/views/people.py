"""The pages of the people a person knows and what they are told: the notifications (more in
time: following, blocking, the account's lists and privacy settings)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.presenters.site import notification_views
from social import notifications


@require_GET
@login_required
def notifications_page(request: HttpRequest) -> HttpResponse:
    """The person's newest notifications, those unread marked new; shown, they are read (and
    the bells of their other pages say so)."""
    rows = notifications.newest(request.user)
    views = notification_views(request.user, rows)
    response = render(
        request,
        "games/notifications.html",
        {"notifications": views, "kept_days": notifications.KEPT_FOR.days},
    )
    notifications.mark_read(request.user, [view.id for view in views if view.unread])
    return response
