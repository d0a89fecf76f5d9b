"""The one form of the games app: opening a table (R3, R22, R23), and its bots' level."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.models import BOT_LEVELS, DEFAULT_BOT_LEVEL, MAX_SEATS, MIN_SEATS
from lib.unicode import refuse_invisible_characters

# R23: the time limits a host may choose; "" is no limit, for games among friends.
TURN_TIME_CHOICES = (
    ("15", _("15 seconds")),
    ("30", _("30 seconds")),
    ("60", _("60 seconds")),
    ("", _("No limit")),
)
MODE_CHOICES = (
    ("standard", _("Standard: first to empty their hand wins")),
    ("tournament", _("Tournament: eight stages (R22)")),
)
# A request that names no level (a page from before the levels) keeps the greedy bot it had.
UNNAMED_BOT = "greedy"

RATED_CHOICES = (
    ("rated", _("Rated: the result changes the players' ratings")),
    ("casual", _("Casual: for fun, no rating changes")),
)
VISIBILITY_CHOICES = (
    ("public", _("Public: listed in the lobby")),
    ("private", _("Private: joined by its link only")),
)


class TableForm(forms.Form):
    # Shown to everyone in the lobby: no bidi overrides or zero-width look-alikes.
    name = forms.CharField(
        label=_("Table name"), max_length=60, validators=[refuse_invisible_characters]
    )
    seat_count = forms.TypedChoiceField(
        label=_("Seats"),
        choices=[(n, str(n)) for n in range(MIN_SEATS, MAX_SEATS + 1)],
        coerce=int,
        initial=4,
    )
    mode = forms.ChoiceField(
        label=_("Game"), choices=MODE_CHOICES, initial="standard", widget=forms.RadioSelect
    )
    turn_seconds = forms.TypedChoiceField(
        label=_("Time per turn"),
        choices=TURN_TIME_CHOICES,
        coerce=int,
        empty_value=None,
        initial="30",
        required=False,
    )
    bot_seats = forms.TypedChoiceField(
        label=_("Seats for bots"),
        help_text=_("Bots take the last seats; you always take the first."),
        choices=[(n, str(n)) for n in range(MAX_SEATS)],
        coerce=int,
        initial=0,
    )
    bot_kind = forms.ChoiceField(
        label=_("Bots' level"),
        choices=BOT_LEVELS,
        initial=DEFAULT_BOT_LEVEL,
        required=False,
    )
    visibility = forms.ChoiceField(
        label=_("Who may join"),
        choices=VISIBILITY_CHOICES,
        initial="public",
        widget=forms.RadioSelect,
    )
    rated = forms.ChoiceField(
        label=_("Rated or casual"),
        help_text=_("A table with bots is always casual."),
        choices=RATED_CHOICES,
        initial="rated",
        required=False,  # left out: rated when public (services.tables.create_table)
        widget=forms.RadioSelect,
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        seats, bots = cleaned.get("seat_count"), cleaned.get("bot_seats")
        if seats is not None and bots is not None and bots >= seats:
            self.add_error(
                "bot_seats",
                ngettext(
                    "Leave at least one seat for you: at most %(n)d bot.",
                    "Leave at least one seat for you: at most %(n)d bots.",
                    seats - 1,
                )
                % {"n": seats - 1},
            )
        return cleaned

    def service_kwargs(self) -> dict[str, Any]:
        """The keyword arguments of ``services.tables.create_table`` for this (valid) form."""
        data = self.cleaned_data
        return {
            "name": data["name"],
            "seat_count": data["seat_count"],
            "tournament": data["mode"] == "tournament",
            "turn_seconds": data["turn_seconds"],
            "public": data["visibility"] == "public",
            "bot_seats": data["bot_seats"],
            "bot_kind": data["bot_kind"] or UNNAMED_BOT,
            "rated": {"rated": True, "casual": False}.get(data["rated"]),
        }
