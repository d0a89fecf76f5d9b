"""BOT accounts: which accounts are bots, and making one.

A BOT account is a person's program playing through the API (``api``): it shows a BOT badge
wherever its name is shown, is kept off the leaderboards, and never sits at a table or enters
quick match through the browser. An account becomes one only while it has played no game (the
API checks that, as it knows the games), and never goes back.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction

from accounts.models import BotAccount


def is_bot(user: AbstractBaseUser | None) -> bool:
    """Whether ``user`` is a BOT account."""
    if user is None or not user.is_authenticated:
        return False
    try:
        user.bot_account  # noqa: B018 - the reverse one-to-one raises when there is none
    except BotAccount.DoesNotExist:
        return False
    return True


def bots_among(user_ids: Iterable[int | None]) -> set[int]:
    """Which of ``user_ids`` are BOT accounts' (one query)."""
    ids = [user_id for user_id in user_ids if user_id is not None]
    if not ids:
        return set()
    return set(BotAccount.objects.filter(user_id__in=ids).values_list("user_id", flat=True))


def make_bot(user: AbstractBaseUser) -> BotAccount:
    """Make ``user`` a BOT account (once: a second call returns the same row)."""
    try:
        with transaction.atomic():
            return BotAccount.objects.create(user=user)
    except IntegrityError:
        return BotAccount.objects.get(user=user)
