"""Throttling of log-ins and sign-ups, counted in Django's cache.

Sign-ups are counted per client address: at most SIGNUPS_PER_ADDRESS_PER_HOUR new accounts an
hour, so that one machine cannot fill the site with throw-away players. Keeping a guest account
(a name and password of one's own) is a sign-up too. Guests ("Try a game against bots") are
counted apart, against GUESTS_PER_ADDRESS_PER_HOUR, much higher: a class or a café behind one
address tries the game together, and a guest can only play bots until the account is kept.

Attempts are counted per username (ignoring case) and per client address, each in a fixed
window that starts with the first attempt. Once a count reaches its limit, every log-in for that
username, or from that address, is refused until the window ends, even with the right password.
The address limit is higher than the username limit because many players can share one address
(a school, a café, a mobile network).

An attempt is reserved (counted) *before* its password is checked, with the cache's atomic
``incr``: guesses sent all at once cannot slip past the limit between a check and a count. A
good log-in gives its reservation back; a failed one keeps it as the failure.

The authentication backend (accounts/backends.py) does this, so the players' log-in page, the
admin's and anything else calling ``authenticate`` share one count. With the default in-memory
cache each server process counts on its own; set REDIS_URL so that all processes share it.
"""

from __future__ import annotations

import contextlib
import hashlib

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

from lib import metrics

WINDOW_SECONDS = 15 * 60
SIGNUP_WINDOW_SECONDS = 60 * 60
MAX_FAILURES_PER_USERNAME = 5
MAX_FAILURES_PER_ADDRESS = 20

# Set on the request whose attempt was refused: the forms then say why (the backend can only
# answer "no user"; Django's authenticate() swallows any exception it raises).
_REFUSED_FLAG = "_login_throttled"


def _key(kind: str, value: str) -> str:
    # Hashed: usernames typed at the log-in form can hold anything, and some cache backends
    # refuse spaces or control characters in keys.
    digest = hashlib.sha256(value.encode()).hexdigest()
    return f"accounts:login-failures:{kind}:{digest}"


def _username_key(username: str) -> str:
    return _key("username", username.casefold())


def _keys(username: str, address: str | None) -> list[tuple[str, int]]:
    keys = [(_username_key(username), MAX_FAILURES_PER_USERNAME)]
    if address:
        keys.append((_key("address", address), MAX_FAILURES_PER_ADDRESS))
    return keys


def client_address(request: HttpRequest | None) -> str | None:
    # REMOTE_ADDR only: X-Forwarded-For is written by the client unless a trusted proxy
    # replaces it, so trusting it would let anyone dodge the address limit.
    if request is None:
        return None
    return request.META.get("REMOTE_ADDR") or None


def _increment(key: str, window: int = WINDOW_SECONDS) -> int:
    # add() starts the window only if none is running; incr() is atomic and keeps its expiry.
    cache.add(key, 0, timeout=window)
    try:
        return cache.incr(key)
    except ValueError:  # expired between add() and incr()
        cache.add(key, 0, timeout=window)
        return cache.incr(key)


def _decrement(key: str) -> None:
    # ValueError: the window ended meanwhile, and there is nothing left to give back.
    with contextlib.suppress(ValueError):
        cache.decr(key)


def reserve_attempt(request: HttpRequest | None, username: str) -> bool:
    """Count one attempt to log in as ``username``; whether its password may be checked.

    A refused attempt is not counted (its count is given back at once) and is marked on the
    request, for :func:`was_refused`.
    """
    counted: list[str] = []
    allowed = True
    for key, limit in _keys(username, client_address(request)):
        counted.append(key)
        if _increment(key) > limit:
            allowed = False
            break
    if not allowed:
        metrics.LOGINS_REFUSED.inc()
        for key in counted:
            _decrement(key)
        if request is not None:
            setattr(request, _REFUSED_FLAG, True)
    return allowed


def release_attempt(request: HttpRequest | None, username: str) -> None:
    """The attempt was good: forget the username's failures, give the address its attempt back.

    The address keeps its earlier failures, so one good account cannot be used to keep guessing
    others.
    """
    cache.delete(_username_key(username))
    address = client_address(request)
    if address:
        _decrement(_key("address", address))


def was_refused(request: HttpRequest | None) -> bool:
    """Whether an attempt made during ``request`` was refused by the throttle."""
    return getattr(request, _REFUSED_FLAG, False)


def _reserve_new_account(request: HttpRequest, kind: str, limit: int) -> bool:
    address = client_address(request)
    if not address:
        return True
    key = _key(kind, address)
    if _increment(key, SIGNUP_WINDOW_SECONDS) > limit:
        _decrement(key)
        return False
    return True


def _release_new_account(request: HttpRequest, kind: str) -> None:
    address = client_address(request)
    if address:
        _decrement(_key(kind, address))


def reserve_signup(request: HttpRequest) -> bool:
    """Count one new account made from the request's address; whether it may be made.

    Counted before the account is saved, so that sign-ups sent all at once cannot pass the
    limit together; a refused one is not counted. Give it back with :func:`release_signup` if
    the account is not made after all.
    """
    return _reserve_new_account(request, "signups", settings.SIGNUPS_PER_ADDRESS_PER_HOUR)


def release_signup(request: HttpRequest) -> None:
    _release_new_account(request, "signups")


def reserve_guest(request: HttpRequest) -> bool:
    """Count one guest account made from the request's address; whether it may be made
    (``settings.GUESTS_PER_ADDRESS_PER_HOUR``, apart from the sign-ups)."""
    return _reserve_new_account(request, "guests", settings.GUESTS_PER_ADDRESS_PER_HOUR)


# E-mails the site sends when asked (a password reset, an address to verify): counted per
# client address and per e-mail address, known or not, in an hour's window.
MAILS_PER_ADDRESS_PER_HOUR = 10
MAILS_PER_EMAIL_PER_HOUR = 3


def reserve_mail(request: HttpRequest, email: str) -> bool:
    """Count one e-mail asked for from the request's address to ``email``; whether it may be
    sent. Counted whether or not an account has that address, so the answer says nothing of
    it."""
    keys = [(_key("mail-email", email.strip().casefold()), MAILS_PER_EMAIL_PER_HOUR)]
    address = client_address(request)
    if address:
        keys.append((_key("mail-address", address), MAILS_PER_ADDRESS_PER_HOUR))
    counted = []
    for key, limit in keys:
        counted.append(key)
        if _increment(key, SIGNUP_WINDOW_SECONDS) > limit:
            for done in counted:
                _decrement(done)
            return False
    return True
