"""The arenas' pages: the list, one arena (live standings), joining, withdrawing, pausing and
coming back, a private arena's form, and an arena's games as taki-record/1 lines."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from arenas import presenters
from arenas.forms import PrivateArenaForm
from arenas.models import Arena
from arenas.services import players
from games.models import Game
from games.services import history
from games.services.errors import ServiceError

LISTED = 30


def _arena(request: HttpRequest, arena_id: int) -> Arena:
    arena = Arena.objects.filter(pk=arena_id).first()
    invite = request.GET.get("invite") or request.POST.get("invite")
    if arena is None or not players.may_see(arena, request.user, invite):
        raise Http404
    return arena


def _back(arena: Arena, invite: str | None = None) -> HttpResponse:
    url = reverse("arenas:arena", args=[arena.pk])
    return redirect(f"{url}?invite={invite}" if invite else url)


@require_GET
def arena_list(request: HttpRequest) -> HttpResponse:
    """The site's arenas: those to come and running, then the latest finished."""
    public = Arena.objects.filter(private=False)
    coming = public.filter(status__in=(Arena.Status.SCHEDULED, Arena.Status.RUNNING)).order_by(
        "starts_at"
    )[:LISTED]
    finished = public.filter(status=Arena.Status.FINISHED).order_by("-ends_at")[:LISTED]
    return render(request, "arenas/list.html", {"coming": list(coming), "finished": list(finished)})


@require_GET
def arena(request: HttpRequest, arena_id: int) -> HttpResponse:
    """One arena: its options, the viewer's buttons, and the standings kept live."""
    found = _arena(request, arena_id)
    invite = request.GET.get("invite", "")
    socket = f"/ws/arenas/{found.pk}/"
    if found.private and invite:
        socket += f"?invite={invite}"
    return render(
        request,
        "arenas/arena.html",
        {
            "arena": found,
            "view": presenters.standings(found, request.user),
            "place": players.place_of(found, request.user),
            "invite": invite if found.private else "",
            "share_url": request.build_absolute_uri(found.page_url()) if found.private else "",
            "arena_socket": socket,
        },
    )


def _act(request: HttpRequest, arena_id: int, act) -> HttpResponse:
    found = _arena(request, arena_id)
    invite = request.POST.get("invite") or None
    try:
        act(found, invite)
    except ServiceError as error:
        messages.error(request, error.message)
    return _back(found, invite)


@require_POST
@login_required
def join(request: HttpRequest, arena_id: int) -> HttpResponse:
    return _act(request, arena_id, lambda a, i: players.join(a.pk, request.user, invite=i))


@require_POST
@login_required
def withdraw(request: HttpRequest, arena_id: int) -> HttpResponse:
    return _act(request, arena_id, lambda a, i: players.withdraw(a.pk, request.user))


@require_POST
@login_required
def pause(request: HttpRequest, arena_id: int) -> HttpResponse:
    return _act(request, arena_id, lambda a, i: players.pause(a.pk, request.user))


@require_POST
@login_required
def resume(request: HttpRequest, arena_id: int) -> HttpResponse:
    return _act(request, arena_id, lambda a, i: players.resume(a.pk, request.user))


@login_required
def new_arena(request: HttpRequest) -> HttpResponse:
    """A private arena's form, for a person with enough finished games."""
    form = PrivateArenaForm(request.POST or None, initial={"starts_at": timezone.localtime()})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            made = players.create_private(
                request.user,
                name=data["name"],
                starts_at=data["starts_at"],
                minutes=data["minutes"],
                seats=data["seats"],
                turn_seconds=form.turn(),
                tournament=data["tournament"],
                rated=data["rated"],
                bots_allowed=data["bots_allowed"],
            )
        except ServiceError as error:
            messages.error(request, error.message)
        else:
            return redirect(made.page_url())
    return render(
        request,
        "arenas/new.html",
        {"form": form, "games_needed": players.GAMES_TO_CREATE},
    )


@require_GET
def arena_games(request: HttpRequest, arena_id: int) -> HttpResponse:
    """The arena's finished games, each as its taki-record/1 record, one JSON line each."""
    found = _arena(request, arena_id)
    won = Game.objects.filter(
        arena_table__arena=found, finished_at__isnull=False, winner__isnull=False
    ).order_by("pk")
    lines = [json.dumps(history.export_record(game), ensure_ascii=False) for game in won]
    response = HttpResponse(
        "".join(f"{line}\n" for line in lines), content_type="application/x-ndjson"
    )
    response["Content-Disposition"] = f'attachment; filename="arena-{found.pk}.jsonl"'
    return response
