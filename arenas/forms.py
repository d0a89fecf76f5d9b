"""The private arena's form."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from arenas.models import MAX_SEATS, MIN_SEATS
from arenas.services.players import PRIVATE_MINUTES

TURN_CHOICES = [
    ("", _("No limit")),
    ("15", _("15 seconds")),
    ("30", _("30 seconds")),
    ("60", _("60 seconds")),
]


class PrivateArenaForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=60)
    starts_at = forms.DateTimeField(
        label=_("Starts at"), widget=forms.DateTimeInput(attrs={"type": "datetime-local"})
    )
    minutes = forms.IntegerField(
        label=_("Duration in minutes"),
        min_value=PRIVATE_MINUTES[0],
        max_value=PRIVATE_MINUTES[1],
        initial=30,
    )
    seats = forms.IntegerField(
        label=_("Players per table"), min_value=MIN_SEATS, max_value=MAX_SEATS, initial=2
    )
    turn_seconds = forms.ChoiceField(
        label=_("Turn time"), choices=TURN_CHOICES, initial="30", required=False
    )
    tournament = forms.BooleanField(label=_("Tournament rules (R22)"), required=False)
    rated = forms.BooleanField(label=_("Rated"), required=False)
    bots_allowed = forms.BooleanField(
        label=_("Bots fill a table nobody else could"), required=False
    )

    def turn(self) -> int | None:
        value = self.cleaned_data.get("turn_seconds") or ""
        return int(value) if value else None
