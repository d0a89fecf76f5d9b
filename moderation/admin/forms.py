"""The forms of the moderators' screens: the players' action bar, the reason beside the other
screens' actions, imposing and lifting a sanction, and handling a report (resolving it, or acting
on the person reported from it)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django import forms
from django.contrib.admin.helpers import ActionForm
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import COMMENT_MAX_LENGTH, Sanction
from moderation.models import Report
from moderation.permissions import may_act_on, refusal

DURATIONS = (
    ("1h", _("1 hour"), timedelta(hours=1)),
    ("1d", _("1 day"), timedelta(days=1)),
    ("7d", _("1 week"), timedelta(days=7)),
    ("30d", _("30 days"), timedelta(days=30)),
    ("permanent", _("Permanent"), None),
)
DURATION_CHOICES = [(code, label) for code, label, _length in DURATIONS]


def ends_at(duration: str) -> datetime | None:
    """When a sanction of ``duration`` (a code of ``DURATIONS``) imposed now ends; None: never."""
    length = {code: length for code, _label, length in DURATIONS}[duration]
    return None if length is None else timezone.now() + length


class PlayerActionForm(ActionForm):
    """The players' action bar: a reason for every action, and the new name for a rename."""

    reason = forms.CharField(label=_("Reason"), required=False, max_length=500)
    new_name = forms.CharField(label=_("New name"), required=False, max_length=20)


class ReasonActionForm(ActionForm):
    """The action bar with a reason beside the action: every moderator action says why."""

    reason = forms.CharField(label=_("Reason"), required=False, max_length=500)


class SanctionForm(forms.ModelForm):
    """A new sanction: whom, which, why and for how long."""

    duration = forms.ChoiceField(label=_("Duration"), choices=DURATION_CHOICES)

    class Meta:
        model = Sanction
        fields = ("user", "kind", "reason")

    def ends_at(self) -> datetime | None:
        return ends_at(self.cleaned_data["duration"])


class LiftForm(forms.ModelForm):
    """Lifting a sanction early, with a reason."""

    class Meta:
        model = Sanction
        fields = ("lift_reason",)

    def clean_lift_reason(self) -> str:
        reason = self.cleaned_data["lift_reason"].strip()
        if not reason:
            raise ValidationError(_("Give a reason for lifting the sanction."))
        return reason


class ReportForm(forms.ModelForm):
    """Handling a report: resolved or dismissed, with notes; or acting on the person reported
    (a chat mute, a play ban or an account ban, for a time and with a reason), which resolves
    the report and links it to the sanction."""

    sanction_kind = forms.ChoiceField(
        label=_("Sanction the reported player"),
        choices=[("", _("No sanction")), *Sanction.Kind.choices],
        required=False,
    )
    duration = forms.ChoiceField(
        label=_("Duration"), choices=DURATION_CHOICES, initial="1d", required=False
    )
    sanction_reason = forms.CharField(
        label=_("Reason for the sanction"),
        required=False,
        max_length=COMMENT_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    # Who is handling the report (set by the admin for each request).
    actor: AbstractBaseUser | None = None

    class Meta:
        model = Report
        fields = ("status", "notes")

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        status = cleaned.get("status")
        if not cleaned.get("sanction_kind"):
            if status == Report.Status.OPEN:
                self.add_error("status", _("Resolve or dismiss the report."))
            return cleaned
        if status == Report.Status.DISMISSED:
            self.add_error("status", _("A report acted on is resolved, not dismissed."))
        cleaned["status"] = Report.Status.RESOLVED
        if not cleaned.get("duration"):
            self.add_error("duration", _("Choose how long the sanction lasts."))
        if not (cleaned.get("sanction_reason") or "").strip():
            self.add_error("sanction_reason", _("Give a reason for the sanction."))
        if self.actor is not None and not may_act_on(self.actor, self.instance.target):
            self.add_error("sanction_kind", refusal(self.actor, self.instance.target))
        return cleaned

    def ends_at(self) -> datetime | None:
        return ends_at(self.cleaned_data["duration"])
