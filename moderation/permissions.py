"""Whom a moderator may act on: the one check every moderation action asks.

A moderator acts on ordinary players only. Nobody acts on themselves (a moderator cannot lift
their own mute, nor rename themselves), and a moderator, any other staff account or a
superuser is acted on by a superuser alone (so that a report about one can still be handled).
The check stands for every action about a person: a sanction and its lifting, a ban and an
unban, a rename, hiding a chat line (its author), handling a report (the person reported).
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext as _

from games.services.errors import ServiceError


def may_act_on(actor: AbstractBaseUser, target: AbstractBaseUser | None) -> bool:
    """True if ``actor`` may act as a moderator on ``target`` (None: no one in particular)."""
    if target is None:
        return True
    if target.pk == actor.pk:
        return False
    if target.is_staff or target.is_superuser:
        return actor.is_superuser
    return True


def refusal(actor: AbstractBaseUser, target: AbstractBaseUser | None) -> str:
    """Why ``actor`` may not act on ``target``, in the moderator's words."""
    if target is not None and target.pk == actor.pk:
        return _("You cannot act on yourself.")
    return _(
        "Moderators act on ordinary players only; on staff and superusers, only a superuser acts."
    )


def refuse_unless_may_act_on(actor: AbstractBaseUser, target: AbstractBaseUser | None) -> None:
    """:raises ServiceError: ``forbidden``, with the :func:`refusal`, unless
    :func:`may_act_on`."""
    if not may_act_on(actor, target):
        raise ServiceError("forbidden", refusal(actor, target))
