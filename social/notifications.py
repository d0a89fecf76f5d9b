"""Telling a person something: a row in the database, pushed after commit to the pages they have
open (``social.signals.notified``, which the games' live side connects), read back from the
database by any page that opens later, so a closed page sees what it missed.

A notification keeps plain data (names, ids, a link); its words are drawn in the reader's
language when it is shown (:func:`words`). Read ones and unread ones alike are kept for
``KEPT_FOR``, then forgotten (:func:`forget_old`, which the games' clock runs).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from social.models import Notification
from social.signals import notifications_read, notified

Kind = Notification.Kind

KEPT_FOR = timedelta(days=30)
# The newest notifications a list shows.
LIST_LENGTH = 50

# What each kind says, from its data (``by``: a person's name; ``about``: the person a report
# was about). Drawn in the reader's language.
WORDS = {
    Kind.CHALLENGE_RECEIVED: _("%(by)s challenges you to a game."),
    Kind.CHALLENGE_ACCEPTED: _("%(by)s accepted your challenge."),
    Kind.CHALLENGE_DECLINED: _("%(by)s declined your challenge."),
    Kind.CHALLENGE_CANCELLED: _("%(by)s cancelled their challenge."),
    Kind.CHALLENGE_EXPIRED: _("The challenge from %(by)s expired."),
    Kind.REMATCH_OFFERED: _("%(by)s offers to play again."),
    Kind.NEW_FOLLOWER: _("%(by)s follows you."),
    Kind.REPORT_HANDLED: _("A moderator handled your report about %(about)s."),
    Kind.ARENA_STARTING: _("The arena %(arena)s starts in %(minutes)s minutes."),
    Kind.ARENA_TABLE: _("The arena %(arena)s has begun: your table is ready."),
    Kind.YOUR_MOVE: _("Your move at %(table)s."),
    Kind.MOVE_REMINDER: _("Less than a day left for your move at %(table)s."),
}
# The challenger's own words when their challenge expired.
YOURS_EXPIRED = _("Your challenge expired.")
FRIENDS_NOW = _("You are friends now.")


class _Named(dict):
    """Data for a sentence: a name missing from it reads as a dash rather than failing."""

    def __missing__(self, key: str) -> str:
        return "–"


def notify(recipient: AbstractBaseUser | int, kind: str, **data: Any) -> Notification:
    """Store a notification of ``kind`` for ``recipient`` (a person or their id) with plain
    ``data`` (JSON: names, ids, ``url`` for where it leads), and once the transaction commits
    tell the live side (``notified``)."""
    recipient_id = recipient if isinstance(recipient, int) else recipient.pk
    notification = Notification.objects.create(recipient_id=recipient_id, kind=kind, data=data)
    transaction.on_commit(
        lambda: notified.send(
            sender=Notification, user_id=recipient_id, notification_id=notification.pk
        ),
        robust=True,
    )
    return notification


def unread_count(user: AbstractBaseUser) -> int:
    """How many of ``user``'s notifications are unread (the bell's number)."""
    if not user.is_authenticated:
        return 0
    return Notification.objects.filter(recipient=user, read_at__isnull=True).count()


def newest(user: AbstractBaseUser, limit: int = LIST_LENGTH) -> list[Notification]:
    """``user``'s newest notifications, read or not, newest first."""
    return list(Notification.objects.filter(recipient=user)[:limit])


def unread(user: AbstractBaseUser, limit: int = LIST_LENGTH) -> list[Notification]:
    """``user``'s newest unread notifications, newest first."""
    return list(Notification.objects.filter(recipient=user, read_at__isnull=True)[:limit])


def mark_read(
    user: AbstractBaseUser, ids: Iterable[int] | None = None, now: datetime | None = None
) -> int:
    """Mark ``user``'s notifications read (only those of ``ids``, if given); how many were
    unread. Their other pages' bells are told after commit (``notifications_read``)."""
    rows = Notification.objects.filter(recipient=user, read_at__isnull=True)
    if ids is not None:
        rows = rows.filter(pk__in=list(ids))
    marked = rows.update(read_at=now or timezone.now())
    if marked:
        user_id = user.pk
        transaction.on_commit(
            lambda: notifications_read.send(sender=Notification, user_id=user_id), robust=True
        )
    return marked


def mark_read_about(user: AbstractBaseUser | int, kind: str, **data: Any) -> int:
    """Mark read ``user``'s unread notifications of ``kind`` whose data hold ``data`` (a
    challenge's, once they answered it); how many. Their pages' bells are told after commit."""
    user_id = user if isinstance(user, int) else user.pk
    rows = Notification.objects.filter(recipient_id=user_id, kind=kind, read_at__isnull=True)
    for key, value in data.items():
        rows = rows.filter(**{f"data__{key}": value})
    marked = rows.update(read_at=timezone.now())
    if marked:
        transaction.on_commit(
            lambda: notifications_read.send(sender=Notification, user_id=user_id), robust=True
        )
    return marked


def forget_old(now: datetime | None = None) -> int:
    """Delete the notifications older than ``KEPT_FOR``; how many."""
    cutoff = (now or timezone.now()) - KEPT_FOR
    deleted, _by_model = Notification.objects.filter(created_at__lt=cutoff).delete()
    return deleted


def words(notification: Notification) -> str:
    """What ``notification`` says, in the active language."""
    data = notification.data if isinstance(notification.data, dict) else {}
    if notification.kind == Kind.CHALLENGE_EXPIRED and data.get("yours"):
        return str(YOURS_EXPIRED)
    sentence = WORDS.get(notification.kind)
    if sentence is None:
        return notification.get_kind_display()
    said = str(sentence) % _Named({key: str(value) for key, value in data.items()})
    if notification.kind == Kind.NEW_FOLLOWER and data.get("friends"):
        said = f"{said} {FRIENDS_NOW}"
    return said


def link(notification: Notification) -> str:
    """Where ``notification`` leads (a path of the site), or "" for nowhere."""
    data = notification.data if isinstance(notification.data, dict) else {}
    url = data.get("url")
    return url if isinstance(url, str) and url.startswith("/") and not url.startswith("//") else ""
