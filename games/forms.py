"""The games app's forms: opening a table (R3, R22, R23) and its bots' level; a challenge; the
privacy settings."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts.usernames import find_user
from games.models import BOT_LEVELS, DEFAULT_BOT_LEVEL, MAX_SEATS, MIN_SEATS, TURN_DAYS
from lib.unicode import refuse_invisible_characters
from social.models import Privacy

# R23: the time limits a host may choose; "" is no limit, for games among friends.
TURN_TIME_CHOICES = (
    ("15", _("15 seconds")),
    ("30", _("30 seconds")),
    ("60", _("60 seconds")),
    ("", _("No limit")),
)
# Turn-based: the days per move a host may give (TURN_DAYS); "" plays live, the turn time above.
TURN_DAYS_CHOICES = (
    ("", _("No: played live")),
    *(
        (str(days), ngettext("%(days)d day a move", "%(days)d days a move", days) % {"days": days})
        for days in TURN_DAYS
    ),
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
    turn_days = forms.TypedChoiceField(
        label=_("Turn-based"),
        help_text=_(
            "Days for each move, the page closed between moves; the time per turn is then ignored."
        ),
        choices=TURN_DAYS_CHOICES,
        coerce=int,
        empty_value=None,
        initial="",
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
            "turn_seconds": None if data["turn_days"] else data["turn_seconds"],
            "turn_days": data["turn_days"],
            "public": data["visibility"] == "public",
            "bot_seats": data["bot_seats"],
            "bot_kind": data["bot_kind"] or UNNAMED_BOT,
            "rated": {"rated": True, "casual": False}.get(data["rated"]),
        }


# What a challenge does with the seats nobody takes: dropped at the start, or given to bots.
EMPTY_SEATS_CHOICES = (("", _("Dropped at the start")), *BOT_LEVELS)


class ChallengeForm(forms.Form):
    """A challenge: whom (one person or several, by name), and the table's options."""

    players = forms.CharField(
        label=_("Whom to challenge"),
        help_text=_("Their usernames, separated by commas."),
        max_length=400,
    )
    seat_count = TableForm.base_fields["seat_count"]
    mode = TableForm.base_fields["mode"]
    turn_seconds = forms.TypedChoiceField(
        label=_("Time per turn"),
        choices=TURN_TIME_CHOICES,
        coerce=int,
        empty_value=None,
        initial="",
        required=False,
    )
    turn_days = forms.TypedChoiceField(
        label=_("Turn-based"),
        help_text=_(
            "Days for each move, the page closed between moves; the time per turn is then ignored."
        ),
        choices=TURN_DAYS_CHOICES,
        coerce=int,
        empty_value=None,
        initial="",
        required=False,
    )
    rated = forms.ChoiceField(
        label=_("Rated or casual"),
        help_text=_("A table with bots is always casual."),
        choices=RATED_CHOICES,
        initial="casual",
        widget=forms.RadioSelect,
    )
    empty_seats = forms.ChoiceField(
        label=_("Seats nobody takes"),
        choices=EMPTY_SEATS_CHOICES,
        initial="",
        required=False,
    )
    name = forms.CharField(
        label=_("Table name"),
        help_text=_("Left blank: the players' names."),
        max_length=60,
        required=False,
        validators=[refuse_invisible_characters],
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["seat_count"].initial = 2

    def clean_players(self) -> list[Any]:
        names = [name.strip() for name in self.cleaned_data["players"].split(",")]
        names = list(dict.fromkeys(name for name in names if name))
        if not names:
            raise forms.ValidationError(_("Name at least one player."))
        if len(names) > MAX_SEATS - 1:
            raise forms.ValidationError(_("A table has room for 9 people besides you."))
        people = []
        for name in names:
            person = find_user(name)
            if person is None or not person.is_active:
                raise forms.ValidationError(
                    _("There is no player named %(name)s.") % {"name": name}
                )
            people.append(person)
        return people

    def service_kwargs(self) -> dict[str, Any]:
        """The keyword arguments of ``services.challenges.create_challenge`` for this (valid)
        form, the people asked among them (``invited``)."""
        data = self.cleaned_data
        return {
            "invited": data["players"],
            "name": data["name"],
            "seat_count": data["seat_count"],
            "tournament": data["mode"] == "tournament",
            "turn_seconds": None if data["turn_days"] else data["turn_seconds"],
            "turn_days": data["turn_days"],
            "rated": data["rated"] == "rated",
            "bot_kind": data["empty_seats"] or "",
        }


class PrivacyForm(forms.Form):
    """A person's privacy settings (``social.relations.set_privacy``)."""

    challenges = forms.ChoiceField(
        label=_("Who may challenge me"),
        choices=Privacy.Challenges.choices,
        widget=forms.RadioSelect,
    )
    online = forms.ChoiceField(
        label=_("Who sees that I am online"),
        choices=Privacy.Online.choices,
        widget=forms.RadioSelect,
    )
