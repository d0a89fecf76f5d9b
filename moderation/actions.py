"""What moderators do, one function per action. Each runs in one transaction that changes the
state and writes exactly one row of the moderation log (as zulip's actions write their audit
row): the log can never miss an action, nor record one that was rolled back.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Model
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Sanction
from accounts.usernames import username_taken, validate_username
from games.models import ChatMessage, Game, GameVerification, Table
from games.services import broadcast, history, ratings, tables
from games.services.errors import ServiceError
from moderation.models import ModerationLog, Report
from moderation.permissions import refuse_unless_may_act_on
from social import notifications
from social.models import Notification

User = AbstractBaseUser
Action = ModerationLog.Action
# Chat messages attached to a report: the last ones of the table's players' room.
REPORT_CHAT_LINES = 20


def log(
    actor: User | None,
    action: str,
    *,
    target: User | None = None,
    obj: Model | None = None,
    reason: str = "",
    object_repr: str = "",
) -> ModerationLog:
    """Write one row of the moderation log (call it inside the action's transaction)."""
    url = ""
    if obj is not None:
        meta = obj._meta
        url = reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[obj.pk])
    return ModerationLog.objects.create(
        actor=actor,
        action=action,
        target=target,
        object_repr=(object_repr or str(obj or target or ""))[:200],
        object_url=url,
        reason=reason,
    )


def _require_reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError("bad_request", _("Give a reason."))
    return reason


# ------------------------------------------------------------------ sanctions


def impose_sanction(
    actor: User, user: User, kind: str, reason: str, ends_at: datetime | None
) -> Sanction:
    """Sanction ``user`` until ``ends_at`` (None: permanent). An account ban also deactivates
    the account, hands their running seats to bots, closes their open tables and sockets and
    hides their chat messages.

    :raises ServiceError: ``bad_request`` without a reason or for an unknown kind,
        ``forbidden`` for anyone but an ordinary player (``permissions.may_act_on``).
    """
    reason = _require_reason(reason)
    if kind not in Sanction.Kind.values:
        raise ServiceError("bad_request", _("Choose a chat mute, a play ban or an account ban."))
    refuse_unless_may_act_on(actor, user)
    with transaction.atomic():
        sanction = Sanction.objects.create(
            user=user, kind=kind, reason=reason, created_by=actor, ends_at=ends_at
        )
        action = Action.SANCTION
        if kind == Sanction.Kind.ACCOUNT_BAN:
            action = Action.BAN
            _shut_out(user, actor, reason)
        log(actor, action, target=user, obj=sanction, reason=reason)
    return sanction


def _shut_out(user: User, actor: User, reason: str) -> None:
    get_user_model().objects.filter(pk=user.pk).update(is_active=False)
    tables.withdraw_player(user)
    broadcast.sessions_ended(user.pk)
    lines = ChatMessage.objects.filter(author=user, hidden_at__isnull=True)
    shown = list(lines.values_list("table_id", "pk"))
    lines.update(hidden_at=timezone.now(), hidden_by=actor, hidden_reason=reason[:200])
    # The lines go from the pages already open too, as the admin's Hide action takes them.
    for table_id, message_id in shown:
        broadcast.chat_hidden(table_id, message_id)


def lift_sanction(actor: User, sanction: Sanction, reason: str) -> None:
    """End a sanction early; lifting an account ban reactivates the account.

    :raises ServiceError: ``bad_request`` without a reason or if it is no longer active;
        ``forbidden`` for one's own sanction, or one on anyone but an ordinary player.
    """
    reason = _require_reason(reason)
    refuse_unless_may_act_on(actor, sanction.user)
    with transaction.atomic():
        sanction = Sanction.objects.select_for_update().get(pk=sanction.pk)
        if not sanction.is_active:
            raise ServiceError("bad_request", _("This sanction is no longer active."))
        sanction.lifted_at = timezone.now()
        sanction.lifted_by = actor
        sanction.lift_reason = reason
        sanction.save(update_fields=["lifted_at", "lifted_by", "lift_reason"])
        action = Action.LIFT
        if sanction.kind == Sanction.Kind.ACCOUNT_BAN:
            action = Action.UNBAN
            if not Sanction.objects.active().filter(user=sanction.user, kind=sanction.kind):
                get_user_model().objects.filter(pk=sanction.user_id).update(is_active=True)
        log(actor, action, target=sanction.user, obj=sanction, reason=reason)


def ban(actor: User, user: User, reason: str) -> Sanction:
    """A permanent account ban (see :func:`impose_sanction`)."""
    return impose_sanction(actor, user, Sanction.Kind.ACCOUNT_BAN, reason, None)


def unban(actor: User, user: User, reason: str) -> int:
    """Lift every active account ban of ``user`` and reactivate the account, in one log row.

    :raises ServiceError: ``bad_request`` without a reason; ``forbidden`` for anyone but an
        ordinary player.
    """
    reason = _require_reason(reason)
    refuse_unless_may_act_on(actor, user)
    with transaction.atomic():
        bans = Sanction.objects.active().filter(user=user, kind=Sanction.Kind.ACCOUNT_BAN)
        count = bans.update(lifted_at=timezone.now(), lifted_by=actor, lift_reason=reason)
        get_user_model().objects.filter(pk=user.pk).update(is_active=True)
        log(actor, Action.UNBAN, target=user, reason=reason)
    return count


# ------------------------------------------------------------------ names, chat, reports


def rename(actor: User, user: User, new_name: str, reason: str) -> None:
    """Force a new username (an offensive one); the old one is kept in the log.

    :raises ServiceError: ``bad_request`` without a reason, for a name against the rules or one
        that is taken; ``forbidden`` for anyone but an ordinary player.
    """
    reason = _require_reason(reason)
    refuse_unless_may_act_on(actor, user)
    try:
        validate_username(new_name)
    except ValidationError as error:
        raise ServiceError("bad_request", " ".join(error.messages)) from None
    if username_taken(new_name, by_other_than=user.pk):
        raise ServiceError("bad_request", _("That username is taken."))
    users = get_user_model()._default_manager
    old_name = user.get_username()
    try:
        with transaction.atomic():
            users.filter(pk=user.pk).update(username=new_name)
            log(
                actor,
                Action.RENAME,
                target=user,
                object_repr=f"{old_name} → {new_name}",
                reason=reason,
            )
    except IntegrityError:
        raise ServiceError("bad_request", _("That username is taken.")) from None
    user.username = new_name


def hide_message(actor: User, message: ChatMessage, reason: str) -> bool:
    """Hide a chat message from everyone; False if it was hidden already.

    :raises ServiceError: ``bad_request`` without a reason; ``forbidden`` for a line of one's
        own, or of anyone but an ordinary player.
    """
    reason = _require_reason(reason)
    refuse_unless_may_act_on(actor, message.author)
    with transaction.atomic():
        hidden = ChatMessage.objects.filter(pk=message.pk, hidden_at__isnull=True).update(
            hidden_at=timezone.now(), hidden_by=actor, hidden_reason=reason[:200]
        )
        if not hidden:
            return False
        log(actor, Action.HIDE_MESSAGE, target=message.author, obj=message, reason=reason)
        broadcast.chat_hidden(message.table_id, message.pk)
    return True


def handle_report(actor: User, report: Report, status: str, notes: str) -> None:
    """Resolve or dismiss a report, with the moderator's notes; whoever filed it is told it was
    handled (a notification, which says nothing of the notes or the outcome).

    :raises ServiceError: ``bad_request`` for a status other than resolved or dismissed;
        ``forbidden`` for a report about oneself, or about anyone but an ordinary player.
    """
    if status not in (Report.Status.RESOLVED, Report.Status.DISMISSED):
        raise ServiceError("bad_request", _("A report is resolved or dismissed."))
    refuse_unless_may_act_on(actor, report.target)
    with transaction.atomic():
        report.status = status
        report.notes = notes
        report.handled_by = actor
        report.handled_at = timezone.now()
        report.save(update_fields=["status", "notes", "handled_by", "handled_at"])
        log(
            actor,
            Action.HANDLE_REPORT,
            target=report.target,
            obj=report,
            reason=f"{report.get_status_display()}: {notes}".strip(": "),
        )
        # The person who filed it is told it was looked at, not what was decided.
        notifications.notify(
            report.filer_id,
            Notification.Kind.REPORT_HANDLED,
            about=report.target.get_username(),
        )


def sanction_from_report(
    actor: User,
    report: Report,
    kind: str,
    reason: str,
    ends_at: datetime | None,
    notes: str = "",
) -> Sanction:
    """Sanction the person reported and resolve the report, linked to the sanction, in one
    transaction: the sanction's log row and the report's are written together or not at all.

    :raises ServiceError: as :func:`impose_sanction`; ``bad_request`` for a report handled
        already.
    """
    with transaction.atomic():
        report = Report.objects.select_for_update().select_related("target").get(pk=report.pk)
        if report.status != Report.Status.OPEN:
            raise ServiceError("bad_request", _("This report has been handled already."))
        sanction = impose_sanction(actor, report.target, kind, reason, ends_at)
        report.sanction = sanction
        report.save(update_fields=["sanction"])
        handle_report(actor, report, Report.Status.RESOLVED, notes or sanction.reason)
    return sanction


def file_report(
    filer: User, target: User, category: str, comment: str, table: Table | None = None
) -> Report:
    """A player reports another; the table's recent players' chat is attached.

    :raises ServiceError: ``bad_request`` (oneself, an unknown category, a long comment);
        ``forbidden`` when the same report is already open.
    """
    if target.pk == filer.pk:
        raise ServiceError("bad_request", _("You cannot report yourself."))
    if category not in Report.Category.values:
        raise ServiceError("bad_request", _("Choose a category."))
    comment = (comment or "").strip()
    if len(comment) > 1000:
        raise ServiceError("bad_request", _("The comment is too long."))
    snapshot = []
    if table is not None:
        lines = ChatMessage.objects.filter(table=table, room=ChatMessage.Room.PLAYERS)
        lines = lines.select_related("author").order_by("-created_at", "-pk")[:REPORT_CHAT_LINES]
        snapshot = [
            {
                "author": line.author.get_username(),
                "text": line.text,
                "at": line.created_at.isoformat(),
            }
            for line in reversed(lines)
        ]
    try:
        with transaction.atomic():
            return Report.objects.create(
                filer=filer,
                target=target,
                category=category,
                comment=comment,
                table=table,
                chat_snapshot=snapshot,
            )
    except IntegrityError:
        raise ServiceError(
            "forbidden", _("You have already reported this player for this; it is being looked at.")
        ) from None


# ------------------------------------------------------------------ tables and games


def abort(actor: User, table: Table, reason: str) -> bool:
    """Stop a table for good; its move log stays as it is. False if it had already ended.

    :raises ServiceError: ``bad_request`` without a reason.
    """
    reason = _require_reason(reason)
    with transaction.atomic():
        if not tables.abort_table(table.pk):
            return False
        log(actor, Action.ABORT, target=table.host, obj=table, reason=reason)
    return True


def void_rating(actor: User, game: Game, reason: str) -> bool:
    """Take a rated game out of its players' ratings (a cheat, a collusion found later): every
    rating is computed again without it. False if it changed no rating (casual, not won, or
    voided already); nothing is logged then.

    :raises ServiceError: ``bad_request`` without a reason.
    """
    reason = _require_reason(reason)
    with transaction.atomic():
        if not ratings.void(game):
            return False
        log(actor, Action.VOID_RATING, obj=game, reason=reason)
    return True


def verify(actor: User, game: Game) -> GameVerification:
    """Replay a game's move log and record the outcome: who, when, how many moves, whether it
    held."""
    with transaction.atomic():
        ok = history.verify_game(game)
        result = GameVerification.objects.create(
            game=game, verified_by=actor, moves=game.version, ok=ok
        )
        log(
            actor,
            Action.VERIFY,
            obj=game,
            reason=_("the log holds") if ok else _("the log does not match the game"),
        )
    return result
