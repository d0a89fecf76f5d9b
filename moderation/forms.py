"""Filing a report: whom, why, and a comment."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import COMMENT_MAX_LENGTH
from lib.unicode import refuse_invisible_characters
from moderation.models import Report


class ReportForm(forms.Form):
    """A player reports another: whom (from a table), why, and a comment."""

    target = forms.TypedChoiceField(label=_("Player"), coerce=int)
    category = forms.ChoiceField(label=_("What happened"), choices=Report.Category.choices)
    comment = forms.CharField(
        label=_("Comment"),
        required=False,
        max_length=COMMENT_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 4}),
        validators=[refuse_invisible_characters],
    )

    def __init__(self, *args: Any, people: list, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["target"].choices = [(person.pk, person.get_username()) for person in people]
        if len(people) == 1:
            self.fields["target"].widget = forms.HiddenInput()
            self.fields["target"].initial = people[0].pk
