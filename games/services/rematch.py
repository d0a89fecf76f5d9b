""" "Play again": the players of a finished table are asked to a new one.

The first player to ask opens the rematch: a private table with the same options, its host the
asker, the bots on their seats again and every other person invited. Each invited person is
told (``social.notifications``) and accepts (and sits down) or declines; the host starts it as
any table, once enough have sat (empty seats are dropped at the start). A rematch of a game
against bots alone starts at once.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import RematchInvitation, Seat, Table
from games.services import broadcast, starting, tables
from games.services.errors import ServiceError
from social import notifications
from social.models import Notification

User = get_user_model()
Answer = RematchInvitation.Answer


def offer_rematch(table_id: int, user: AbstractBaseUser) -> Table:
    """``user``, a player of the finished table, asks to play again: open the rematch, or, if
    another player already did, accept its invitation. Returns the new table.

    :raises ServiceError: ``not_found``; ``forbidden`` (the game is not finished, ``user`` did
        not play it to its end, they host too many open tables, or a play ban holds on them).
    """
    tables.check_may_play(user)
    with transaction.atomic():
        old = Table.objects.select_for_update().filter(pk=table_id).first()
        if old is None:
            raise ServiceError("not_found", _("There is no such table."))
        if old.status != Table.Status.FINISHED:
            raise ServiceError("forbidden", _("You can play again once the game is over."))
        seats = list(old.seats.order_by("position"))
        if not any(seat.user_id == user.pk for seat in seats):
            raise ServiceError("forbidden", _("Only the players of this game can play it again."))
        existing = Table.objects.filter(rematch_of=old).first()
        if existing is not None:
            invitation = existing.invitations.filter(user=user).first()
            if invitation is not None and invitation.answer != Answer.ACCEPTED:
                answer_rematch(existing.pk, user, accept=True)
            return existing
        tables.check_open_tables(user)
        new = Table.objects.create(
            name=old.name,
            host=user,
            seat_count=len(seats),
            tournament=old.tournament,
            turn_seconds=old.turn_seconds,
            public=False,
            rated=old.rated,
            rematch_of=old,
        )
        Seat.objects.bulk_create(
            Seat(
                table=new,
                position=seat.position,
                user=user if seat.user_id == user.pk else None,
                bot=seat.bot,
            )
            for seat in seats
        )
        invited = [seat.user_id for seat in seats if seat.user_id not in (None, user.pk)]
        RematchInvitation.objects.bulk_create(
            RematchInvitation(table=new, user_id=user_id) for user_id in invited
        )
        for user_id in invited:
            notifications.notify(
                user_id,
                Notification.Kind.REMATCH_OFFERED,
                by=user.get_username(),
                table=new.pk,
                url=new.page_url(new.invite_token),
            )
        broadcast.table_changed(old.pk)
        if not invited:  # against bots alone: nobody to wait for
            starting.start_seated(new, timezone.now())
    return new


def answer_rematch(table_id: int, user: AbstractBaseUser, *, accept: bool) -> Table:
    """An invited player accepts (and takes a seat) or declines the rematch ``table_id``.
    Accepting after declining is allowed while the table waits.

    :raises ServiceError: ``not_found``; ``forbidden`` (not invited, or the rematch has started
        or closed); ``table_full``.
    """
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id).first()
        invitation = (
            RematchInvitation.objects.select_for_update().filter(table=table, user=user).first()
            if table is not None
            else None
        )
        if invitation is None:
            raise ServiceError("not_found", _("You have not been invited to play again here."))
        if table.status != Table.Status.OPEN:
            raise ServiceError("forbidden", _("This table is no longer taking players."))
        if accept and invitation.answer != Answer.ACCEPTED:
            tables.join_table(table.pk, user, invite=table.invite_token)
        elif not accept and invitation.answer == Answer.ACCEPTED:
            tables.leave_table(table.pk, user)
        invitation.answer = Answer.ACCEPTED if accept else Answer.DECLINED
        invitation.save(update_fields=["answer"])
        broadcast.table_changed(table.pk)
        if table.rematch_of_id is not None:
            broadcast.table_changed(table.rematch_of_id)
    return table
