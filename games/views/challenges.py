"""Challenges' pages: the form, one challenge (its answers, live), and the answers, the cancel
and the start, each a POST through ``games.services.challenges``."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from accounts import guests
from games.forms import ChallengeForm
from games.models import Challenge, Seat
from games.services import challenges
from games.services.errors import ServiceError


def _go(request: HttpRequest, url: str) -> HttpResponse:
    """To ``url``: a whole page for htmx's requests too."""
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


def _guest_told(request: HttpRequest) -> HttpResponse | None:
    if not guests.is_guest(request.user):
        return None
    messages.info(
        request, _("Guests cannot challenge players. Keep your account to play with people.")
    )
    return _go(request, reverse("accounts:claim"))


@login_required
def new_challenge(request: HttpRequest) -> HttpResponse:
    """The challenge form; ``?to=<name>`` fills in whom."""
    if refused := _guest_told(request):
        return refused
    initial = {"players": request.GET.get("to", "")[:150]}
    form = ChallengeForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            challenge = challenges.create_challenge(request.user, **form.service_kwargs())
        except ServiceError as error:
            form.add_error(None, error.message)
        else:
            return redirect("games:challenge", challenge_id=challenge.pk)
    return render(request, "games/challenge_new.html", {"form": form})


@require_GET
@login_required
def challenge(request: HttpRequest, challenge_id: int) -> HttpResponse:
    """One challenge, as its challenger or one it asked sees it, kept live by the page's site
    socket (``?challenge=<id>``)."""
    try:
        view = challenges.read_challenge(challenge_id, request.user)
    except ServiceError:
        raise Http404("no such challenge of yours") from None
    context = {"view": view, "site_socket_query": f"challenge={challenge_id}"}
    return render(request, "games/challenge.html", context)


def _after(request: HttpRequest, challenge_id: int, change) -> HttpResponse:
    """Make one change through the services; then to the table it started, else back to the
    challenge, with the refusal if there was one."""
    try:
        change()
    except ServiceError as error:
        messages.error(request, error.message)
    started = Challenge.objects.filter(pk=challenge_id).values_list("table_id", flat=True).first()
    if started and Seat.objects.filter(table_id=started, user=request.user).exists():
        return _go(request, reverse("games:table", args=[started]))
    return _go(request, reverse("games:challenge", args=[challenge_id]))


@require_POST
@login_required
def answer(request: HttpRequest, challenge_id: int) -> HttpResponse:
    """Accept (``answer=accept``) or decline the challenge."""
    if request.POST.get("answer") == "accept":
        return _after(
            request,
            challenge_id,
            lambda: challenges.accept_challenge(challenge_id, request.user),
        )
    return _after(
        request, challenge_id, lambda: challenges.decline_challenge(challenge_id, request.user)
    )


@require_POST
@login_required
def cancel(request: HttpRequest, challenge_id: int) -> HttpResponse:
    return _after(
        request, challenge_id, lambda: challenges.cancel_challenge(challenge_id, request.user)
    )


@require_POST
@login_required
def start(request: HttpRequest, challenge_id: int) -> HttpResponse:
    return _after(
        request, challenge_id, lambda: challenges.start_challenge(challenge_id, request.user)
    )


@require_GET
@login_required
def go(request: HttpRequest, table_id: int) -> HttpResponse:
    """Where a page goes when a challenge of its person started (asked by the element the site
    socket pushes): the table, if they sit at it."""
    if not Seat.objects.filter(table_id=table_id, user=request.user).exists():
        raise Http404("not seated there")
    return _go(request, reverse("games:table", args=[table_id]))
