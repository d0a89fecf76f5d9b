"""Who is at the other end of a socket, and in which language: read from its ASGI scope, as
every consumer (the lobby's, a table's, a pool page's) reads them."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.functional import LazyObject, empty


def user_of(scope: dict[str, Any]) -> Any:
    """The visitor: the user or AnonymousUser that Channels' AuthMiddleware put in the scope,
    taken out of the lazy object that holds it. Each attribute read through that object is
    looked up again, and a table socket reads its user for every push it is sent."""
    user = scope.get("user")
    if isinstance(user, LazyObject):
        if user._wrapped is empty:
            user._setup()
        return user._wrapped
    return user


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
