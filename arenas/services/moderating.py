"""What moderators do to arenas, each in one transaction with its row of the moderation log
(``moderation.actions.log``): remove a player (their points kept or voided), cancel an
arena."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from arenas.models import Arena, ArenaPlayer, ArenaResult
from arenas.services import broadcast, events
from games.services.errors import ServiceError
from moderation.actions import log
from moderation.models import ModerationLog

User = AbstractBaseUser


def _reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError("bad_request", _("Give a reason."))
    return reason


def _check_moderator(actor: User) -> None:
    if not (actor.is_staff and actor.is_active):
        raise ServiceError("forbidden", _("Only moderators may do this."))


def remove_player(actor: User, player: ArenaPlayer, reason: str, *, void: bool) -> None:
    """Take ``player`` out of their arena for good: out of its pool and its standings;
    ``void``: their points are taken away too (their results voided), else kept on record.

    :raises ServiceError: ``bad_request`` without a reason, ``forbidden`` for a non-moderator.
    """
    reason = _reason(reason)
    _check_moderator(actor)
    with transaction.atomic():
        locked = (
            ArenaPlayer.objects.select_for_update()
            .select_related("arena", "user")
            .get(pk=player.pk)
        )
        locked.state = ArenaPlayer.State.REMOVED
        locked.waiting_since = None
        locked.rank = None
        if void:
            ArenaResult.objects.filter(player=locked).update(voided=True)
            locked.points = 0
            locked.streak = 0
        locked.save()
        words = _("points voided") if void else _("points kept")
        log(
            actor,
            ModerationLog.Action.ARENA_REMOVE,
            target=locked.user,
            obj=locked.arena,
            reason=f"{reason} ({words})",
        )
        broadcast.standings_changed(locked.arena_id)


def cancel(actor: User, arena: Arena, reason: str) -> bool:
    """Cancel an arena that has not ended: nobody is paired any more, no podium. False if it
    was over already."""
    reason = _reason(reason)
    _check_moderator(actor)
    with transaction.atomic():
        done = events.finish_arena(arena.pk, timezone.now(), status=Arena.Status.CANCELLED)
        if done:
            log(actor, ModerationLog.Action.ARENA_CANCEL, obj=arena, reason=reason)
    return done
