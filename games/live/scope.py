"""Who is at the other end of a socket, and in which language: read from its ASGI scope, as
every consumer (the lobby's, a table's, a pool page's) reads them."""

from __future__ import annotations

from typing import Any

from channels.auth import get_user
from channels.middleware import BaseMiddleware
from channels.sessions import SessionMiddlewareStack
from django.conf import settings
from django.utils import translation


class VisitorMiddleware(BaseMiddleware):
    """Channels' ``AuthMiddleware``, with the visitor put in the scope as they are: the user, or
    AnonymousUser, of the socket's session, read once as it opens by ``channels.auth.get_user``,
    as Channels reads them, but not held in a lazy object. Each attribute read through that
    object goes round an AttributeError raised and caught inside it, and a table socket reads
    its user for every push it is sent."""

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        scope = dict(scope, user=await get_user(scope))
        return await super().__call__(scope, receive, send)


def visitor_stack(inner: Any) -> Any:
    """Channels' ``AuthMiddlewareStack`` (the cookies, the session, the visitor) with
    :class:`VisitorMiddleware` for the visitor."""
    return SessionMiddlewareStack(VisitorMiddleware(inner))


def user_of(scope: dict[str, Any]) -> Any:
    """The visitor: the user or AnonymousUser that :class:`VisitorMiddleware` put in the
    scope."""
    return scope.get("user")


def language_of(scope: dict[str, Any]) -> str:
    """The visitor's language: the language cookie, else the Accept-Language header."""
    cookie = scope.get("cookies", {}).get(settings.LANGUAGE_COOKIE_NAME)
    candidates = [cookie] if cookie else []
    headers = dict(scope.get("headers", []))
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    candidates += [part.split(";")[0].strip() for part in accept.split(",") if part.strip()]
    for code in candidates:
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE
