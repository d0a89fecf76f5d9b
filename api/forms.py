"""The tokens page's form: a name and the scopes."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from api.scopes import SCOPES


class TokenForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=60)
    scopes = forms.MultipleChoiceField(
        label=_("What it may do"),
        choices=list(SCOPES.items()),
        widget=forms.CheckboxSelectMultiple,
    )
