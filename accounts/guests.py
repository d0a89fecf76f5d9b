"""Guest accounts: try a game against bots before signing up, and keep it after.

A guest is a real account with no usable password and a readable name in the visitor's
language ("Guest-4821", "Invitado-4821"), a kind of name nobody else may take
(``accounts.usernames.looks_like_a_guest``). Like
lichess's anonymous players against the computer, a guest plays bot tables only: people at a
table with others expect a name that stays, and sign-up's checks (the throttle, the name
rules) are what stand between them and a flood of throwaway accounts. A guest may watch any
public game. Claiming the account (a username and password of one's own) keeps its games and
statistics; unclaimed guests are deleted after ``STALE_AFTER`` (``manage.py
delete_stale_guests``), together with their private bot tables. A guest that a report, the
moderation log or a sanction names is kept instead, inactive: moderators' records outlive the
accounts they name, and the name is never given to someone else.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import Guest, Sanction
from accounts.signals import accounts_named
from accounts.usernames import guest_word, username_taken

STALE_AFTER = timedelta(days=7)
NAME_ATTEMPTS = 20


def is_guest(user: AbstractBaseUser | None) -> bool:
    if user is None or not user.is_authenticated:
        return False
    try:
        user.guest  # noqa: B018 - the reverse one-to-one raises when there is none
    except Guest.DoesNotExist:
        return False
    return True


def guests_among(user_ids: Iterable[int]) -> set[int]:
    """Which of ``user_ids`` are guests' (one query)."""
    return set(Guest.objects.filter(user_id__in=list(user_ids)).values_list("user_id", flat=True))


def _guest_name(digits: int) -> str:
    """The guest word in the active language and ``digits`` random digits."""
    return f"{guest_word()}-{secrets.randbelow(9 * 10 ** (digits - 1)) + 10 ** (digits - 1)}"


def create_guest() -> AbstractBaseUser:
    """A new guest account with a free name in the active language: four digits while they
    last, then more."""
    users = get_user_model()._default_manager
    for attempt in range(NAME_ATTEMPTS):
        name = _guest_name(4 if attempt < NAME_ATTEMPTS // 2 else 8)
        if username_taken(name):
            continue
        try:
            with transaction.atomic():
                user = users.create_user(username=name)  # no password: unusable
                Guest.objects.create(user=user)
        except IntegrityError:  # taken in the meantime (the unique index ignores case)
            continue
        return user
    raise RuntimeError("no free guest name")  # pragma: no cover - 10^8 names


def claim(user: AbstractBaseUser) -> None:
    """The account is the player's own now (the caller saved its new name and password)."""
    Guest.objects.filter(user=user).delete()


def delete_stale_guests(now=None, older_than: timedelta = STALE_AFTER) -> int:
    """Delete the guest accounts made before ``older_than`` ago that neither logged in nor opened
    a table since; how many. Those that moderation records name are deactivated instead
    (:func:`named_by_records`)."""
    now = now or timezone.now()
    cutoff = now - older_than
    stale = (
        Guest.objects.filter(created_at__lt=cutoff, user__is_active=True)
        .exclude(user__last_login__gte=cutoff)
        .exclude(user__hosted_tables__created_at__gte=cutoff)  # played lately
    )
    user_ids = set(stale.values_list("user_id", flat=True))
    named = named_by_records(user_ids)
    users = get_user_model()._default_manager
    users.filter(pk__in=named).update(is_active=False)
    users.filter(pk__in=user_ids - named).delete()
    return len(user_ids - named)


def named_by_records(user_ids: set[int]) -> set[int]:
    """Which of ``user_ids`` a sanction, or a record of another app (``accounts_named``:
    moderation's reports and log), names."""
    named = set(Sanction.objects.filter(user_id__in=user_ids).values_list("user_id", flat=True))
    for _receiver, answer in accounts_named.send(sender=Guest, user_ids=user_ids):
        named |= set(answer or ()) & user_ids
    return named
