"""Challenges: one person asks one or more people they know to a table of their options.

A challenge waits for answers until it expires (``UNTIMED_EXPIRY`` for untimed play,
``TIMED_EXPIRY`` for a timed table, whose players are expected to be there now). Each person
asked accepts or declines; when everyone has accepted, or when the challenger starts with those
who have, a private table is opened with them, its empty seats to bots if the challenger asked
for bots, and started (``tables.open_private_table``, ``starting.start_seated``); every page of
theirs is sent to it. Each answer, a cancel and an expiry are told to the people concerned
(``social.notifications``) and pushed to their pages.

Every change takes the challenge's row lock, then the rows of everyone it involves in the order
of their ids (``SELECT … FOR UPDATE`` on PostgreSQL; the write lock of SQLite's ``IMMEDIATE``
transaction, run again while SQLite says the database is locked), so that a double click, two
tabs, an accept as the challenger cancels, or one person accepting two challenges at once each
get one clear answer, and nobody sits at two running tables through challenges. Whoever plays
at a running table cannot accept one; an accepted person who sat down to play elsewhere before
the start is left out of it.

Challenges are counted per challenger, as lichess counts them: ``PER_MINUTE`` a minute and
``PER_DAY`` a day, read from the challenges' own rows under the challenger's lock (the same
count in every process). Guests, the play-banned, blocks and the privacy settings refuse a
challenge (``social.relations.check_may_challenge``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import NoReturn

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.models import MAX_SEATS, MIN_SEATS, TURN_DAYS, Challenge, ChallengeInvitation, Table
from games.services import access, broadcast, starting, tables, turns
from games.services.errors import ServiceError, refused_by_social
from lib.sqlite.retry import retried_while_locked
from social import notifications, relations
from social.errors import Refused
from social.models import Notification

User = AbstractBaseUser
Status = Challenge.Status
Answer = ChallengeInvitation.Answer
Kind = Notification.Kind

PER_MINUTE = 25
PER_DAY = 200
UNTIMED_EXPIRY = timedelta(hours=24)
TIMED_EXPIRY = timedelta(minutes=5)
SWEEP_SECONDS = 5.0  # between two looks for expired challenges, per clock


def challenge_url(challenge_id: int) -> str:
    return reverse("games:challenge", args=[challenge_id])


def create_challenge(
    challenger: User,
    invited: list[User],
    *,
    seat_count: int,
    name: str = "",
    tournament: bool = False,
    turn_seconds: int | None = None,
    turn_days: int | None = None,
    rated: bool = False,
    bot_kind: str = "",
    now: datetime | None = None,
) -> Challenge:
    """``challenger`` challenges the people ``invited`` to a table of ``seat_count`` seats;
    ``bot_kind`` names the bots for the seats nobody fills at the start ("" for none);
    ``turn_days`` makes its table turn-based (days per move, ``TURN_DAYS``).

    :raises ServiceError: ``bad_request`` (nobody or more people than seats, themselves, a seat
        count outside 2–10, a turn time that is not positive, days not offered, an unknown bot);
        ``guest``; ``forbidden`` (a play ban, a block or a privacy setting, a challenge of theirs
        to the same person still open, ``turns.MAX_TURN_BASED`` turn-based games played
        already); ``not_found`` (a closed account); ``too_many_challenges``.
    """
    now = now or timezone.now()
    people = list({person.pk: person for person in invited}.values())
    if not people:
        raise ServiceError("bad_request", _("Choose whom to challenge."))
    if not MIN_SEATS <= seat_count <= MAX_SEATS:
        raise ServiceError("bad_request", _("A table has 2 to 10 seats."))
    if len(people) + 1 > seat_count:
        raise ServiceError(
            "bad_request",
            ngettext(
                "A table of %(seats)d seats has room for %(count)d person besides you.",
                "A table of %(seats)d seats has room for %(count)d people besides you.",
                seat_count - 1,
            )
            % {"seats": seat_count, "count": seat_count - 1},
        )
    if turn_seconds is not None and turn_seconds <= 0:
        raise ServiceError("bad_request", _("The turn time must be positive, or none."))
    if bot_kind and bot_kind not in tables.SEAT_BOTS:
        raise ServiceError("bad_request", _("There is no such bot."))
    if turn_days is not None and turn_days not in TURN_DAYS:
        raise ServiceError(
            "bad_request", _("A turn-based table gives 1, 2, 3, 5 or 7 days a move.")
        )
    if turn_days is not None:
        turn_seconds = None
        turns.check_cap(challenger)
    try:
        for person in people:
            relations.check_may_challenge(challenger, person)
    except Refused as refusal:
        raise refused_by_social(refusal) from None
    tables.check_may_play(challenger)
    return retried_while_locked(
        lambda: _create(
            challenger,
            people,
            now,
            name=(name or "").strip()[:60] or _default_name(challenger, people),
            seat_count=seat_count,
            tournament=tournament,
            turn_seconds=turn_seconds,
            turn_days=turn_days,
            rated=rated and not bot_kind,
            bot_kind=bot_kind,
        )
    )


def _default_name(challenger: User, people: list[User]) -> str:
    """The players' names, in no language: "alice, bob, carol"."""
    return ", ".join(person.get_username() for person in [challenger, *people])[:60]


def _create(challenger: User, people: list[User], now: datetime, **options) -> Challenge:
    with transaction.atomic():
        # One challenger's challenges one after the other: two at once cannot both pass the
        # count.
        get_user_model().objects.select_for_update().filter(pk=challenger.pk).first()
        _check_rate(challenger, now)
        already = (
            ChallengeInvitation.objects.filter(
                challenge__challenger=challenger,
                challenge__status=Status.OPEN,
                challenge__expires_at__gt=now,
                user__in=people,
            )
            .select_related("user")
            .first()
        )
        if already is not None:
            raise ServiceError(
                "forbidden",
                _("You already challenged %(username)s: wait for an answer, or cancel it.")
                % {"username": already.user.get_username()},
            )
        timed = options["turn_seconds"] is not None and options["turn_days"] is None
        challenge = Challenge.objects.create(
            challenger=challenger,
            expires_at=now + (TIMED_EXPIRY if timed else UNTIMED_EXPIRY),
            **options,
        )
        ChallengeInvitation.objects.bulk_create(
            ChallengeInvitation(challenge=challenge, user=person) for person in people
        )
        for person in people:
            notifications.notify(
                person,
                Kind.CHALLENGE_RECEIVED,
                by=challenger.get_username(),
                challenge=challenge.pk,
                url=challenge_url(challenge.pk),
            )
        broadcast.challenge_changed(challenge.pk, _involved(challenge))
    return challenge


def _check_rate(challenger: User, now: datetime) -> None:
    made = Challenge.objects.filter(challenger=challenger)
    if made.filter(created_at__gt=now - timedelta(minutes=1)).count() >= PER_MINUTE:
        raise ServiceError(
            "too_many_challenges",
            _("You have sent %(count)d challenges in a minute: wait a moment.")
            % {"count": PER_MINUTE},
        )
    if made.filter(created_at__gt=now - timedelta(days=1)).count() >= PER_DAY:
        raise ServiceError(
            "too_many_challenges",
            _("You have sent %(count)d challenges today: try again tomorrow.") % {"count": PER_DAY},
        )


# ------------------------------------------------------------------ answers


def accept_challenge(challenge_id: int, user: User, now: datetime | None = None) -> Challenge:
    """``user`` accepts the challenge; when everyone it asked has, it starts.

    :raises ServiceError: ``not_found`` (no such challenge, or not asked); ``forbidden`` (it
        was cancelled, declined, has expired or started; they accepted already; a play ban);
        ``playing`` (they play at a running table).
    """
    now = now or timezone.now()
    tables.check_may_play(user)
    return retried_while_locked(lambda: _accept(challenge_id, user, now)) or _refuse_expired()


def _accept(challenge_id: int, user: User, now: datetime) -> Challenge | None:
    with transaction.atomic():
        challenge, invitation = _lock_for_answer(challenge_id, user)
        if _expired_now(challenge, now):
            return None
        _check_open(challenge)
        if invitation.answer == Answer.ACCEPTED:
            raise ServiceError("forbidden", _("You have already accepted this challenge."))
        if relations.blocked_either_way(challenge.challenger_id, user.pk):
            raise ServiceError("forbidden", _("This challenge is no longer open."))
        if challenge.turn_days:
            turns.check_cap(user)
        else:
            _check_free(user)
        _answer(invitation, Answer.ACCEPTED, now)
        _tell_challenger(challenge, user, Kind.CHALLENGE_ACCEPTED)
        pending = challenge.invitations.exclude(answer=Answer.ACCEPTED).exists()
        if not pending:
            try:
                with transaction.atomic():
                    _start(challenge, now)
            except ServiceError:
                # The challenger plays elsewhere, or nobody else is free: the acceptance stands,
                # and the challenger starts the table once they can.
                pass
        broadcast.challenge_changed(challenge.pk, _involved(challenge))
    return challenge


def decline_challenge(challenge_id: int, user: User, now: datetime | None = None) -> Challenge:
    """``user`` declines the challenge (having accepted it, too, while it waits). Once everyone
    it asked has declined, it is closed.

    :raises ServiceError: ``not_found``; ``forbidden`` (no longer open; declined already).
    """
    now = now or timezone.now()
    return retried_while_locked(lambda: _decline(challenge_id, user, now)) or _refuse_expired()


def _decline(challenge_id: int, user: User, now: datetime) -> Challenge | None:
    with transaction.atomic():
        challenge, invitation = _lock_for_answer(challenge_id, user)
        if _expired_now(challenge, now):
            return None
        _check_open(challenge)
        if invitation.answer == Answer.DECLINED:
            raise ServiceError("forbidden", _("You have already declined this challenge."))
        _answer(invitation, Answer.DECLINED, now)
        _tell_challenger(challenge, user, Kind.CHALLENGE_DECLINED)
        if not challenge.invitations.exclude(answer=Answer.DECLINED).exists():
            challenge.status = Status.DECLINED
            challenge.save(update_fields=["status"])
        broadcast.challenge_changed(challenge.pk, _involved(challenge))
    return challenge


def cancel_challenge(challenge_id: int, user: User, now: datetime | None = None) -> Challenge:
    """The challenger takes the challenge back; everyone it asked who had not declined is told.

    :raises ServiceError: ``not_found`` (no such challenge of theirs); ``forbidden`` (no
        longer open).
    """
    now = now or timezone.now()
    return retried_while_locked(lambda: _cancel(challenge_id, user, now)) or _refuse_expired()


def _cancel(challenge_id: int, user: User, now: datetime) -> Challenge | None:
    with transaction.atomic():
        challenge = _lock(challenge_id)
        if challenge is None or challenge.challenger_id != user.pk:
            raise ServiceError("not_found", _("There is no such challenge."))
        _lock_people(challenge)
        if _expired_now(challenge, now):
            return None
        _check_open(challenge)
        challenge.status = Status.CANCELLED
        challenge.save(update_fields=["status"])
        for invitation in challenge.invitations.exclude(answer=Answer.DECLINED):
            notifications.notify(
                invitation.user_id,
                Kind.CHALLENGE_CANCELLED,
                by=user.get_username(),
                challenge=challenge.pk,
                url=challenge_url(challenge.pk),
            )
        broadcast.challenge_changed(challenge.pk, _involved(challenge))
    return challenge


def start_challenge(challenge_id: int, user: User, now: datetime | None = None) -> Table:
    """The challenger starts the table with those who accepted (the others' seats to bots if
    they asked for bots, else dropped).

    :raises ServiceError: ``not_found``; ``forbidden`` (no longer open, nobody accepted and
        no bots, a play ban); ``playing`` (the challenger plays at a running table).
    """
    now = now or timezone.now()
    tables.check_may_play(user)
    table = retried_while_locked(lambda: _start_by_challenger(challenge_id, user, now))
    return table or _refuse_expired()


def _start_by_challenger(challenge_id: int, user: User, now: datetime) -> Table | None:
    with transaction.atomic():
        challenge = _lock(challenge_id)
        if challenge is None or challenge.challenger_id != user.pk:
            raise ServiceError("not_found", _("There is no such challenge."))
        _lock_people(challenge)
        if _expired_now(challenge, now):
            return None
        _check_open(challenge)
        if not challenge.invitations.filter(answer=Answer.ACCEPTED).exists():
            raise ServiceError("forbidden", _("Nobody has accepted yet."))
        table = _start(challenge, now)
        broadcast.challenge_changed(challenge.pk, _involved(challenge))
    return table


def _start(challenge: Challenge, now: datetime) -> Table:
    """Open the challenge's table with the challenger and those who accepted and are free, and
    start it; send their pages to it. Call it holding the locks of :func:`_lock_people`.

    :raises ServiceError: ``playing`` (the challenger plays elsewhere); ``forbidden`` (fewer
        than two players).
    """
    challenger = challenge.challenger
    if challenge.turn_days:
        turns.check_cap(challenger)
    else:
        _check_free(challenger, words=_("You are playing at another table: finish it first."))
    accepted = [
        invitation.user
        for invitation in challenge.invitations.filter(answer=Answer.ACCEPTED)
        .select_related("user")
        .order_by("pk")
    ]
    if challenge.turn_days:
        playing = {
            person.pk
            for person in accepted
            if turns.unfinished_count(person) >= turns.MAX_TURN_BASED
        }
    else:
        playing = set(_playing_among([person.pk for person in accepted]))
    people = [person for person in accepted if person.pk not in playing]
    if not people:
        raise ServiceError("forbidden", _("Nobody who accepted is free to play now."))
    table = tables.open_private_table(
        challenger,
        people,
        name=challenge.name,
        seat_count=challenge.seat_count,
        tournament=challenge.tournament,
        turn_seconds=challenge.turn_seconds,
        turn_days=challenge.turn_days,
        rated=challenge.rated,
        bot_kind=challenge.bot_kind,
    )
    starting.start_seated(table, now)
    challenge.status = Status.ACCEPTED
    challenge.table = table
    challenge.save(update_fields=["status", "table"])
    broadcast.go_to_table([challenger.pk, *(person.pk for person in people)], table.pk)
    return table


# ------------------------------------------------------------------ expiry


def expire_due(now: datetime | None = None) -> list[int]:
    """Close every open challenge whose time is up; tell its people; return their ids."""
    now = now or timezone.now()
    due = retried_while_locked(
        lambda: list(
            Challenge.objects.filter(status=Status.OPEN, expires_at__lte=now).values_list(
                "pk", flat=True
            )
        )
    )
    return [pk for pk in due if retried_while_locked(lambda pk=pk: _expire_one(pk, now))]


def _expire_one(challenge_id: int, now: datetime) -> bool:
    with transaction.atomic():
        challenge = _lock(challenge_id)
        if challenge is None or challenge.status != Status.OPEN or challenge.expires_at > now:
            return False  # answered, cancelled or expired by another clock meanwhile
        _expire(challenge)
    return True


def _expire(challenge: Challenge) -> None:
    """Mark the (locked, open) challenge expired and tell its people."""
    challenge.status = Status.EXPIRED
    challenge.save(update_fields=["status"])
    by = challenge.challenger.get_username()
    url = challenge_url(challenge.pk)
    notifications.notify(
        challenge.challenger_id,
        Kind.CHALLENGE_EXPIRED,
        by=by,
        yours=True,
        challenge=challenge.pk,
        url=url,
    )
    for invitation in challenge.invitations.exclude(answer=Answer.DECLINED):
        notifications.notify(
            invitation.user_id, Kind.CHALLENGE_EXPIRED, by=by, challenge=challenge.pk, url=url
        )
    broadcast.challenge_changed(challenge.pk, _involved(challenge))


# ------------------------------------------------------------------ reading


@dataclass(frozen=True)
class InvitationView:
    username: str
    answer: str
    answer_label: str


@dataclass(frozen=True)
class ChallengeView:
    """One challenge as its page and the home page show it to one of its people."""

    challenge: Challenge
    challenger: str
    invitations: list[InvitationView]
    mine: bool  # the viewer is the challenger
    my_answer: str  # the viewer's answer, if asked ("" for the challenger)
    is_open: bool
    may_start: bool  # the challenger may start it now with those who accepted
    may_see_table: bool  # it started at a table the viewer may see (``access.may_watch``)

    @property
    def status_label(self) -> str:
        return self.challenge.get_status_display()


def read_challenge(challenge_id: int, viewer: User, now: datetime | None = None) -> ChallengeView:
    """The challenge as ``viewer``, its challenger or one it asked, sees it.

    :raises ServiceError: ``not_found`` (no such challenge, or not theirs to see).
    """
    now = now or timezone.now()
    challenge = Challenge.objects.select_related("challenger", "table").filter(pk=challenge_id)
    challenge = challenge.first()
    if challenge is None or not viewer.is_authenticated:
        raise ServiceError("not_found", _("There is no such challenge."))
    invitations = list(challenge.invitations.select_related("user").order_by("pk"))
    mine = challenge.challenger_id == viewer.pk
    own = next((row for row in invitations if row.user_id == viewer.pk), None)
    if not mine and own is None:
        raise ServiceError("not_found", _("There is no such challenge."))
    return _view(challenge, invitations, viewer, now)


def _view(challenge: Challenge, invitations, viewer: User, now: datetime) -> ChallengeView:
    mine = challenge.challenger_id == viewer.pk
    own = next((row for row in invitations if row.user_id == viewer.pk), None)
    is_open = challenge.status == Status.OPEN and challenge.expires_at > now
    return ChallengeView(
        challenge=challenge,
        challenger=challenge.challenger.get_username(),
        invitations=[
            InvitationView(row.user.get_username(), row.answer, row.get_answer_display())
            for row in invitations
        ],
        mine=mine,
        my_answer="" if own is None else own.answer,
        is_open=is_open,
        may_start=mine and is_open and any(row.answer == Answer.ACCEPTED for row in invitations),
        may_see_table=challenge.table is not None and access.may_watch(challenge.table, viewer),
    )


def open_challenges(user: User, now: datetime | None = None) -> list[ChallengeView]:
    """The open challenges ``user`` made or was asked to and has not declined, newest first."""
    if not user.is_authenticated:
        return []
    now = now or timezone.now()
    asked = ChallengeInvitation.objects.filter(user=user).exclude(answer=Answer.DECLINED)
    rows = (
        Challenge.objects.filter(status=Status.OPEN, expires_at__gt=now)
        .filter(Q(challenger=user) | Q(pk__in=asked.values("challenge_id")))
        .select_related("challenger")
        .prefetch_related("invitations__user")
        .order_by("-created_at", "-pk")[:20]
    )
    return [_view(row, list(row.invitations.all()), user, now) for row in rows]


# ------------------------------------------------------------------ helpers


def _lock(challenge_id: int) -> Challenge | None:
    try:
        return (
            Challenge.objects.select_for_update()
            .select_related("challenger")
            .filter(pk=challenge_id)
            .first()
        )
    except (ValueError, TypeError):
        return None


def _lock_people(challenge: Challenge) -> None:
    """Lock the rows of everyone the challenge involves, in the order of their ids: one
    person's answers to several challenges are taken one after the other, and two changes that
    lock the same people lock them in the same order."""
    ids = sorted(_involved(challenge))
    list(get_user_model().objects.select_for_update().filter(pk__in=ids).order_by("pk"))


def _lock_for_answer(challenge_id: int, user: User) -> tuple[Challenge, ChallengeInvitation]:
    challenge = _lock(challenge_id)
    invitation = (
        ChallengeInvitation.objects.select_for_update()
        .filter(challenge=challenge, user=user)
        .first()
        if challenge is not None
        else None
    )
    if invitation is None:
        raise ServiceError("not_found", _("You have not been challenged here."))
    _lock_people(challenge)
    return challenge, invitation


def _expired_now(challenge: Challenge, now: datetime) -> bool:
    """Whether the (locked) challenge was open past its time: then it is marked expired here,
    and its people told. The caller commits that, then refuses (:func:`_refuse_expired`)."""
    if challenge.status == Status.OPEN and challenge.expires_at <= now:
        _expire(challenge)
        return True
    return False


def _refuse_expired() -> NoReturn:
    """Refuse an answer to a challenge found past its time (its expiry committed)."""
    raise ServiceError("forbidden", _("This challenge has expired."))


def _check_open(challenge: Challenge) -> None:
    """:raises ServiceError: ``forbidden``, saying why the challenge is no longer open."""
    words = {
        Status.ACCEPTED: _("This challenge has already started."),
        Status.DECLINED: _("This challenge was declined."),
        Status.CANCELLED: _("This challenge was cancelled."),
        Status.EXPIRED: _("This challenge has expired."),
    }
    if challenge.status in words:
        raise ServiceError("forbidden", words[challenge.status])


def _check_free(user: User, words: str | None = None) -> None:
    """:raises ServiceError: ``playing`` while ``user`` sits at a running table."""
    if _playing_among([user.pk]):
        raise ServiceError(
            "playing", words or _("You are playing at another table: finish or leave it first.")
        )


def _playing_among(user_ids: list[int]) -> list[int]:
    """Which of ``user_ids`` sit at a running table played live (turn-based ones are played
    beside them)."""
    return list(
        Table.objects.filter(status=Table.Status.PLAYING, seats__user_id__in=user_ids)
        .filter(turn_days__isnull=True)
        .values_list("seats__user_id", flat=True)
        .distinct()
    )


def _answer(invitation: ChallengeInvitation, answer: str, now: datetime) -> None:
    invitation.answer = answer
    invitation.answered_at = now
    invitation.save(update_fields=["answer", "answered_at"])
    # Answered, the challenge they were told of is no longer news.
    notifications.mark_read_about(
        invitation.user_id, Kind.CHALLENGE_RECEIVED, challenge=invitation.challenge_id
    )


def _tell_challenger(challenge: Challenge, user: User, kind: str) -> None:
    notifications.notify(
        challenge.challenger_id,
        kind,
        by=user.get_username(),
        challenge=challenge.pk,
        url=challenge_url(challenge.pk),
    )


def _involved(challenge: Challenge) -> list[int]:
    """The ids of the challenger and everyone the challenge asked."""
    asked = ChallengeInvitation.objects.filter(challenge=challenge).values_list(
        "user_id", flat=True
    )
    return [challenge.challenger_id, *asked]
