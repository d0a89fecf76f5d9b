"""Whom a moderator may act on: the one check every moderation action asks.

A moderator acts on ordinary players only. Nobody acts on themselves (a moderator cannot lift
their own mute, nor rename themselves), and nobody acts on a superuser through these actions; a
moderator or any other staff account is acted on by a superuser alone. The check stands for
every action about a person: a sanction and its lifting, a ban and an unban, a rename, hiding a
chat line (its author), handling a report (the person reported).
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext as _

from games.services.errors import ServiceError


def may_act_on(actor: AbstractBaseUser, target: AbstractBaseUser | None) -> bool:
    """True if ``actor`` may act as a moderator on ``target`` (None: no one in particular)."""
    if target is None:
        return True
    if target.pk == actor.pk or target.is_superuser:
        return False
    if target.is_staff:
        return actor.is_superuser
    return True


def refuse_unless_may_act_on(actor: AbstractBaseUser, target: AbstractBaseUser | None) -> None:
    """:raises ServiceError: ``forbidden``, saying whom a moderator may act on, unless
    :func:`may_act_on`."""
    if may_act_on(actor, target):
        return
    if target is not None and target.pk == actor.pk:
        raise ServiceError("forbidden", _("You cannot act on yourself."))
    raise ServiceError(
        "forbidden",
        _("Moderators act on ordinary players only; staff only a superuser acts on."),
    )
