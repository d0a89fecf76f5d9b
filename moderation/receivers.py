"""What moderation tells accounts: which accounts its reports and log name, so that deleting a
stale guest keeps it, inactive, rather than taking those records with it. Connected in
``ModerationConfig.ready``."""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from moderation.models import ModerationLog, Report


def accounts_named_by_moderation(sender: Any, user_ids: set[int], **kwargs: Any) -> set[int]:
    """``accounts.signals.accounts_named``: the ids among ``user_ids`` that a report (filed by
    or against them) or a moderation log entry names."""
    reported = Report.objects.filter(Q(filer_id__in=user_ids) | Q(target_id__in=user_ids))
    named = set()
    for filer, target in reported.values_list("filer_id", "target_id"):
        named |= {filer, target}
    logged = ModerationLog.objects.filter(Q(target_id__in=user_ids) | Q(actor_id__in=user_ids))
    for actor, target in logged.values_list("actor_id", "target_id"):
        named |= {actor, target}
    return named & set(user_ids)
