"""A person's turn-based games, the ones where it is their move first, and their vacations."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST, require_safe

from games.services import turns
from games.services.errors import ServiceError


class VacationForm(forms.Form):
    days = forms.IntegerField(
        label=gettext_lazy("Days away"),
        min_value=1,
        max_value=turns.MAX_VACATION_DAYS,
        initial=7,
    )
    starts_on = forms.DateField(
        label=gettext_lazy("From"),
        help_text=gettext_lazy("Left blank: from now."),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
    )


@require_safe
@login_required
def turn_based(request: HttpRequest) -> HttpResponse:
    """The person's unfinished turn-based games, their move first; their vacation days."""
    now = timezone.now()
    rows = turns.my_games(request.user)
    return render(
        request,
        "games/turn_based.html",
        {
            "rows": rows,
            "my_move": sum(1 for row in rows if row.my_move),
            "most": turns.MAX_TURN_BASED,
            "vacation": turns.current_vacation(request.user, now),
            "days_left": turns.VACATION_DAYS_PER_YEAR
            - turns.vacation_days_used(request.user, now.year),
            "form": VacationForm(),
        },
    )


@require_POST
@login_required
def take_vacation(request: HttpRequest) -> HttpResponse:
    form = VacationForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give the days away as a number from 1 to 30."))
        return redirect("games:turn_based")
    starts_on = form.cleaned_data["starts_on"]
    starts_at = None
    if starts_on is not None:
        starts_at = timezone.make_aware(
            timezone.datetime.combine(starts_on, timezone.datetime.min.time())
        )
    try:
        turns.take_vacation(request.user, form.cleaned_data["days"], starts_at=starts_at)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Your vacation is set: your turn-based clocks stop then."))
    return redirect("games:turn_based")
