"""Who is at the other end of a socket, and in which language: read from its ASGI scope, as
every consumer (the lobby's, a table's, a pool page's) reads them."""

from __future__ import annotations

from typing import Any

from channels.auth import get_user
from channels.middleware import BaseMiddleware
from channels.sessions import SessionMiddlewareStack
from django.http import HttpRequest
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
    """The visitor's language, chosen as Django's ``LocaleMiddleware`` chooses a page's: the
    language cookie, else the Accept-Language header by its weights, else the site's own.

    Django's public ``translation.get_language_from_request`` reads a request's cookies and
    headers only: it is handed the socket's, in a request of their own."""
    request = HttpRequest()
    request.COOKIES = dict(scope.get("cookies", {}))
    for name, value in scope.get("headers", []):
        if name == b"accept-language":
            request.META["HTTP_ACCEPT_LANGUAGE"] = value.decode("latin-1")
    return translation.get_language_from_request(request)
