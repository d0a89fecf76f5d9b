"""Personal access tokens: made, found by their bearer, revoked.

A bearer is ``taki_`` and 32 random bytes in URL-safe base64; the token's id is the SHA-256 of
the whole bearer in hex, so that a stolen table of tokens lets nobody in. A token works only
for an account that may sign in now: not a guest, not banned, not deactivated (a deleted
account's tokens are deleted with it). Its last use is written at most once a minute.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable
from datetime import timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import guests, sanctions
from accounts.models import Guest, Sanction
from api.models import AccessToken
from api.scopes import SCOPES
from games.services.errors import ServiceError

PREFIX = "taki_"
# Tokens one account may hold unrevoked.
MAX_TOKENS = 20
# A token's last use is written again only this long after the one before.
LAST_USE_STEP = timedelta(minutes=1)


def hashed(bearer: str) -> str:
    """The id of the token whose bearer is ``bearer``."""
    return hashlib.sha256(bearer.encode()).hexdigest()


def create_token(
    user: AbstractBaseUser, name: str, scopes: Iterable[str]
) -> tuple[AccessToken, str]:
    """A new token of ``user``'s and its bearer, which is shown once and kept nowhere.

    :raises ServiceError: ``guest``; ``bad_request`` (no name, no scope or an unknown one);
        ``forbidden`` (banned); ``too_many_tokens``.
    """
    if guests.is_guest(user):
        raise ServiceError("guest", _("Guests cannot make tokens: keep your account first."))
    if not may_use_tokens(user):
        raise ServiceError("forbidden", _("This account has been banned."))
    name = (name or "").strip()[:60]
    if not name:
        raise ServiceError("bad_request", _("Name the token."))
    chosen = [scope for scope in SCOPES if scope in set(scopes)]
    if not chosen or set(scopes) - set(SCOPES):
        raise ServiceError("bad_request", _("Choose what the token may do."))
    if live_tokens(user).count() >= MAX_TOKENS:
        raise ServiceError(
            "too_many_tokens",
            _("You hold %(count)d tokens: revoke one first.") % {"count": MAX_TOKENS},
        )
    bearer = PREFIX + secrets.token_urlsafe(32)
    token = AccessToken.objects.create(id=hashed(bearer), user=user, name=name, scopes=chosen)
    return token, bearer


def live_tokens(user: AbstractBaseUser):
    """The person's tokens that are not revoked, newest first."""
    return AccessToken.objects.filter(user=user, revoked_at__isnull=True)


def may_use_tokens(user: AbstractBaseUser) -> bool:
    """Whether ``user``'s tokens work now: an active account, no guest, no account ban."""
    if not user.is_active or guests.is_guest(user):
        return False
    return sanctions.active_sanction(user, Sanction.Kind.ACCOUNT_BAN) is None


def authenticate(bearer: str) -> AccessToken | None:
    """The working token of ``bearer`` (its user loaded), its last use noted; None if there is
    none, it is revoked, or its account may not use tokens now (``may_use_tokens``). The token,
    its account and whether that is a guest's or banned are read in one query."""
    if not bearer.startswith(PREFIX) or len(bearer) > 100:
        return None
    now = timezone.now()
    bans = Sanction.objects.active(now).filter(
        user=OuterRef("user"), kind=Sanction.Kind.ACCOUNT_BAN
    )
    found = list(
        AccessToken.objects.select_related("user")
        .annotate(
            held_by_guest=Exists(Guest.objects.filter(user=OuterRef("user"))),
            held_by_banned=Exists(bans),
        )
        .filter(id=hashed(bearer), revoked_at__isnull=True, user__is_active=True)
        .order_by()[:1]
    )
    if not found or found[0].held_by_guest or found[0].held_by_banned:
        return None
    token = found[0]
    if token.last_used_at is None or token.last_used_at < now - LAST_USE_STEP:
        AccessToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token


def revoke(user: AbstractBaseUser, token_id: str) -> bool:
    """``user`` revokes a token of theirs; whether one was."""
    found = AccessToken.objects.filter(pk=token_id, user=user, revoked_at__isnull=True)
    return found.update(revoked_at=timezone.now()) > 0
