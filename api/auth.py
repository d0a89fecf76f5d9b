"""Who calls the API: a personal access token in ``Authorization: Bearer`` only (a session
cookie is not read, so no page of another site can act through a visitor's browser), the
scopes each endpoint accepts, and each call counted against its token's or address's limit."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest
from ninja.security import HttpBearer

from accounts.throttle import client_address
from api import limits, tokens
from api.models import AccessToken


@dataclass
class MissingScope(Exception):
    """The token holds none of the scopes the endpoint accepts."""

    accepted: tuple[str, ...]


@dataclass
class BodyTooLarge(Exception):
    """A request body longer than the API reads."""

    limit: int


# The longest body a request may carry, in bytes: an action or a chat line is far shorter.
MAX_BODY = 4096


def _refuse_long_bodies(request: HttpRequest) -> None:
    """Refuse a body longer than ``MAX_BODY`` before it is read.

    :raises BodyTooLarge:
    """
    try:
        length = int(request.headers.get("Content-Length") or 0)
    except ValueError:
        length = MAX_BODY + 1
    if length > MAX_BODY:
        raise BodyTooLarge(MAX_BODY)


@dataclass(frozen=True)
class Caller:
    """Who made a request: a token and its account, or nobody (``token`` None)."""

    token: AccessToken | None
    address: str | None

    @property
    def user(self) -> AbstractBaseUser | None:
        return None if self.token is None else self.token.user

    def __bool__(self) -> bool:  # ninja keeps looking for a caller while it is falsy
        return True


class Token(HttpBearer):
    """A working token holding one of ``accepts`` (any token when none is named)."""

    def __init__(self, *accepts: str) -> None:
        super().__init__()
        self.accepts = accepts

    def authenticate(self, request: HttpRequest, token: str) -> Caller | None:
        _refuse_long_bodies(request)
        found = tokens.authenticate(token.strip())
        if found is None:
            return None
        limits.count_request("token", found.pk, limits.per_minute("token"))
        if self.accepts and not set(self.accepts) & set(found.scopes):
            raise MissingScope(self.accepts)
        return Caller(found, client_address(request))


def anonymous(request: HttpRequest) -> Caller | None:
    """A caller with no token at all (one that sends a bad token is refused, not anonymous),
    counted against its address's limit."""
    if request.headers.get("Authorization"):
        return None
    _refuse_long_bodies(request)
    address = client_address(request)
    limits.count_request("address", address or "", limits.per_minute("address"))
    return Caller(None, address)


def token_or_anonymous(*accepts: str) -> list:
    """A token holding one of ``accepts``, or no token at all."""
    return [Token(*accepts), anonymous]
