"""Quick match's pages: "Play now" (entering a pool), the pool page, and leaving the pool."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from games.presenters.pools import pools_context, read_pool
from games.services import quickmatch
from games.services.errors import ServiceError


def _go(request: HttpRequest, url: str) -> HttpResponse:
    """To ``url``: a whole page for htmx's request too (the pool page's push asks with htmx)."""
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


def _to_current_table(request: HttpRequest, words: str) -> HttpResponse | None:
    """To the unfinished table where the person sits, saying ``words``; None if there is none."""
    table = quickmatch.current_table(request.user)
    if table is None:
        return None
    if words:
        messages.info(request, words)
    return _go(request, reverse("games:table", args=[table.pk]))


@require_POST
@login_required
def play_now(request: HttpRequest) -> HttpResponse:
    """Enter the pool the pressed button names, and wait on the pool page."""
    try:
        quickmatch.enter(
            request.user,
            request.POST.get("pool", ""),
            bots_wanted=request.POST.get("bots") == "on",
        )
    except ServiceError as error:
        if error.code == "seated":
            return _to_current_table(request, error.message) or redirect("games:home")
        messages.error(request, error.message)
        return _go(request, reverse("games:home"))
    return _go(request, reverse("games:pool"))


@require_GET
@login_required
def pool(request: HttpRequest) -> HttpResponse:
    """The pool page: searching, how many wait, how long, and a cancel button. Someone no longer
    in a pool is sent on: to their table once seated, else to the lobby."""
    entry = quickmatch.entry_of(request.user)
    if entry is None:
        seated = _to_current_table(request, "")
        if seated is not None:
            return seated
        if not request.htmx:  # the push already told the page why
            messages.info(request, _("You are not searching for a game."))
        return _go(request, reverse("games:home"))
    if request.htmx:  # the page's push: the person moved to another pool meanwhile
        return HttpResponseClientRedirect(reverse("games:pool"))
    waited = max(0, int((timezone.now() - entry.joined_at).total_seconds()))
    context = {
        "entry": entry,
        "quick_pool": quickmatch.POOLS.get(entry.pool),
        "pool_view": read_pool(entry.pool),
        "waited": waited,
        "waited_text": f"{waited // 60}:{waited % 60:02d}",
        "bots_after": pools_context()["bots_after"],
        "pool_socket": "/ws/pool/",
    }
    return render(request, "games/pool.html", context)


@require_POST
@login_required
def cancel(request: HttpRequest) -> HttpResponse:
    """Leave the pool, back to the lobby."""
    if quickmatch.leave(request.user):
        messages.info(request, _("You left the pool."))
    return _go(request, reverse("games:home"))
