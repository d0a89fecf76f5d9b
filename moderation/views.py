"""Filing a report: from a player's page, or from a table."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from accounts.usernames import find_user
from games.models import Table
from games.services import access, tables
from games.services.errors import ServiceError
from moderation import actions as moderation
from moderation.forms import ReportForm


@login_required
def report_player(request: HttpRequest, username: str) -> HttpResponse:
    """Report a player from their profile."""
    player = find_user(username)
    if player is None:
        raise Http404("no such player")
    back = reverse("games:profile", args=[player.get_username()])
    return _report(request, [player], back)


@login_required
def report_at_table(request: HttpRequest, table_id: int) -> HttpResponse:
    """Report someone who sits or sat at the table; the table and its recent chat go with it.

    :raises Http404: no such table.
    :raises PermissionDenied: a private table the filer may not see (``access.may_watch``).
    """
    invite = request.GET.get("invite") or request.POST.get("invite")
    table = get_object_or_404(Table.objects.select_related("host"), pk=table_id)
    if not access.may_watch(table, request.user, invite):
        raise PermissionDenied
    people = tables.people_at(table, request.user)
    return _report(request, people, access.page_for(table, invite), table=table)


def _report(
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
    return render(request, "moderation/report.html", context)
