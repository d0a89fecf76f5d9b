"""The games' pages: the lobby, the tables, the rules and the chat's mutes.

Views only check who may see what, call ``games.services`` and render; every rule is decided
there or in the engine. State changes are POST only; a refusal from the services becomes a
message on the page it came from.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect, reswap, retarget

from accounts import guests
from games.forms import UNNAMED_BOT, TableForm
from games.models import BOT_LEVELS, DEFAULT_BOT_LEVEL, Table
from games.presenters import (
    lobby_context,
    read_table,
    table_page_context,
)
from games.presenters.chat import chat_context
from games.presenters.front import front_context
from games.presenters.pools import pools_context
from games.presenters.rules_page import rules_context
from games.presenters.site import home_context
from games.services import access, chat, rematch, starting, tables
from games.services.errors import ServiceError

# ------------------------------------------------------------------ helpers


def invite_of(request: HttpRequest) -> str | None:
    """The private table's token the visitor came with: the link's ``?invite=`` or a form's."""
    return request.GET.get("invite") or request.POST.get("invite")


def _invite_ok(request: HttpRequest, table: Table) -> bool:
    return access.invite_matches(table, invite_of(request))


def check_may_watch(request: HttpRequest, table: Table) -> None:
    """:raises PermissionDenied: the visitor may not see ``table`` (``access.may_watch``)."""
    if not access.may_watch(table, request.user, invite_of(request)):
        raise PermissionDenied


def _get_table_for_user(request: HttpRequest, table_id: int) -> Table:
    """The table, if this visitor may see it (``access.may_watch``).

    :raises Http404: no such table.
    :raises PermissionDenied: a private table without its invite.
    """
    table = get_object_or_404(Table.objects.select_related("host"), pk=table_id)
    check_may_watch(request, table)
    return table


def _table_url(table: Table, request: HttpRequest | None = None) -> str:
    """The table's page; with the invite for a private table the visitor came with its invite."""
    return access.page_for(table, invite_of(request) if request is not None else None)


def _invite_url(table: Table) -> str:
    """The table's page with its invite: the link that lets anyone into a private table."""
    return table.page_url(table.invite_token)


def _refuse(request: HttpRequest, error: ServiceError, next_url: str) -> HttpResponse:
    """A refusal from the services: for htmx, the message swapped into the page's ``#flash``
    (status 200, since htmx does not swap error responses); else a message and back."""
    message = _refusal_words(request, error)
    if request.htmx:
        response = render(request, "games/live/flash.html", {"flash": message}, using="jinja2")
        return reswap(retarget(response, "#flash"), "outerHTML")
    messages.error(request, message)
    return redirect(next_url)


def _refusal_words(request: HttpRequest, error: ServiceError) -> str:
    """The refusal's message; one for too many games against bots links to those games."""
    if error.code != "too_many_games":
        return error.message
    links = format_html_join(
        " · ",
        '<a href="{}">{}</a>',
        (
            (reverse("games:table", args=[table.pk]), table.shown_name)
            for table in starting.unfinished_bot_games(request.user)
        ),
    )
    return format_html("{} {} {}", error.message, _("Your games:"), links)


def _done(request: HttpRequest, next_url: str) -> HttpResponse:
    """After a change: go to ``next_url`` (htmx forms pushed over the socket post with htmx)."""
    if request.htmx:
        return HttpResponseClientRedirect(next_url)
    return redirect(next_url)


def _change_table(
    request: HttpRequest,
    table_id: int,
    change: Callable[[Table], object],
    next_url: str | None = None,
) -> HttpResponse:
    """Make one change to a table the user may see, through the services; then go to
    ``next_url`` (the table by default), or back to the table with the refusal."""
    table = _get_table_for_user(request, table_id)
    try:
        change(table)
    except ServiceError as error:
        return _refuse(request, error, _table_url(table, request))
    return _done(request, next_url or _table_url(table))


def _guests_play_bots_only(request: HttpRequest) -> HttpResponse | None:
    """A guest (``accounts.guests``) plays bot tables only: opening or joining a table with
    people first needs the account claimed."""
    if not guests.is_guest(request.user):
        return None
    messages.info(request, _("Guests play against bots. Keep your account to play with people."))
    if request.htmx:
        return HttpResponseClientRedirect(reverse("accounts:claim"))
    return redirect("accounts:claim")


# ------------------------------------------------------------------ lobby


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """The home page: Play now, the friends panel and the open challenges of a signed-in
    person, or for a visitor TAKI in one look and the way to try it; for everyone the signs
    that people play (``front.front_context``) and the lobby: the newest open tables, live,
    older ones on further pages, as they were."""
    try:
        page = max(1, int(request.GET.get("page", 1)))
    except ValueError:
        page = 1
    context = lobby_context(page)
    context.update(bot_levels=BOT_LEVELS, default_bot_level=DEFAULT_BOT_LEVEL, **pools_context())
    context.update(front_context(request.user))
    if page == 1:
        context["lobby_socket"] = "/ws/lobby/"
    if request.user.is_authenticated and not guests.is_guest(request.user):
        # The friends panel and the open challenges, kept live by the page's site socket.
        context.update(home_context(request.user), site_socket_query="friends=1&challenges=1")
    return render(request, "games/lobby.html", context)


@login_required
def create_table(request: HttpRequest) -> HttpResponse:
    if refused := _guests_play_bots_only(request):
        return refused
    form = TableForm(request.POST or None)
    if request.method != "POST" or not form.is_valid():
        return render(request, "games/create_table.html", {"form": form})
    try:
        table = tables.create_table(request.user, **form.service_kwargs())
    except ServiceError as error:
        return _refuse(request, error, reverse("games:create_table"))
    return _done(request, _table_url(table))


@require_POST
@login_required
def play_bots(request: HttpRequest) -> HttpResponse:
    try:
        opponents = int(request.POST.get("opponents", 3))
    except ValueError:
        opponents = 3
    opponents = min(max(opponents, 1), 9)  # R3: 2 to 10 players
    try:
        table = tables.play_against_bots(
            request.user, opponents=opponents, bot_kind=request.POST.get("level") or UNNAMED_BOT
        )
    except ServiceError as error:
        return _refuse(request, error, reverse("games:home"))
    return _done(request, _table_url(table))


# ------------------------------------------------------------------ one table


@require_GET
def table(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _get_table_for_user(request, table_id)
    invite = request.GET.get("invite", "") if _invite_ok(request, table) else ""
    context = table_page_context(read_table(table.pk), request.user, invite=invite)
    context["table_socket"] = f"/ws/tables/{table.pk}/" + (f"?invite={invite}" if invite else "")
    context["invite_url"] = request.build_absolute_uri(_invite_url(table))
    context.update(_chat_panel(table, request.user))
    access.note_watch(request.user, table, invite, access.ON_THE_PAGE)
    return render(request, "games/table.html", context)


@require_POST
@login_required
def join(request: HttpRequest, table_id: int) -> HttpResponse:
    if refused := _guests_play_bots_only(request):
        return refused
    return _change_table(
        request,
        table_id,
        lambda table: tables.join_table(table.pk, request.user, invite=request.POST.get("invite")),
    )


@require_POST
@login_required
def leave(request: HttpRequest, table_id: int) -> HttpResponse:
    """Leave the table, and say on the lobby what became of the seat."""

    def leave_and_say(table: Table) -> None:
        playing = table.status == Table.Status.PLAYING
        tables.leave_table(table.pk, request.user)
        if playing:
            words = _("You left the game at %(table)s: a bot plays your seat until it ends.")
        else:
            words = _("You left the table %(table)s.")
        messages.info(request, words % {"table": table.shown_name})

    return _change_table(request, table_id, leave_and_say, reverse("games:home"))


@require_POST
@login_required
def start(request: HttpRequest, table_id: int) -> HttpResponse:
    return _change_table(request, table_id, lambda table: tables.start_game(table.pk, request.user))


@require_POST
@login_required
def remove_seat(request: HttpRequest, table_id: int, position: int) -> HttpResponse:
    return _change_table(
        request, table_id, lambda table: tables.remove_seat(table.pk, request.user, position)
    )


@require_POST
@login_required
def add_bot(request: HttpRequest, table_id: int, position: int) -> HttpResponse:
    return _change_table(
        request,
        table_id,
        lambda table: tables.add_bot(
            table.pk, request.user, position, request.POST.get("level") or UNNAMED_BOT
        ),
    )


@require_POST
@login_required
def play_again(request: HttpRequest, table_id: int) -> HttpResponse:
    """A player of the finished table opens its rematch, or accepts the one already opened."""
    table = _get_table_for_user(request, table_id)
    try:
        new = rematch.offer_rematch(table.pk, request.user)
    except ServiceError as error:
        return _refuse(request, error, _table_url(table, request))
    return _done(request, _invite_url(new))


@require_POST
@login_required
def answer_rematch(request: HttpRequest, table_id: int) -> HttpResponse:
    """An invited player accepts (``answer=accept``) or declines the rematch ``table_id``."""
    accept = request.POST.get("answer") == "accept"
    try:
        table = rematch.answer_rematch(table_id, request.user, accept=accept)
    except ServiceError as error:
        messages.error(request, error.message)
        return _done(request, reverse("games:home"))
    if accept:
        return _done(request, reverse("games:table", args=[table.pk]))
    return _done(request, reverse("games:table", args=[table.rematch_of_id or table.pk]))


@require_safe
def rules(request: HttpRequest) -> HttpResponse:
    """The rules of TAKI as this site plays them (docs/rules.md), with every card face."""
    return render(request, "games/rules.html", rules_context())


def favicon(request: HttpRequest) -> HttpResponse:
    # Not permanent: the icon's name changes with its contents (STORAGES).
    return redirect(static("favicon.ico"))


# ------------------------------------------------------------------ chat


def _chat_panel(table: Table, user) -> dict:
    """The chat panel's context: its rooms, whom the user may mute, whom they muted."""
    context = chat_context(table.pk, user)
    if user.is_authenticated:
        muted = chat.muted_authors(user)
        people = tables.people_at(table, user)
        context["chat_people"] = [person for person in people if person.pk not in muted]
        context["chat_muted"] = [person for person in people if person.pk in muted]
    return context


@require_POST
@login_required
def chat_mute(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _get_table_for_user(request, table_id)
    other = _person_at(request, table)
    try:
        chat.mute(request.user, other)
    except ServiceError as error:
        messages.error(request, error.message)
    return redirect(_table_url(table, request))


@require_POST
@login_required
def chat_unmute(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _get_table_for_user(request, table_id)
    chat.unmute(request.user, _person_at(request, table))
    return redirect(_table_url(table, request))


def _person_at(request: HttpRequest, table: Table):
    """The person of the POST's ``user`` field, if they sit or sat at the table.

    :raises Http404: anyone else.
    """
    people = {person.pk: person for person in tables.people_at(table, request.user)}
    try:
        return people[int(request.POST.get("user", ""))]
    except (KeyError, ValueError):
        raise Http404("nobody of that id at this table") from None
