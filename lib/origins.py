"""Which pages may open the site's websockets: only the site's own.

A websocket is not bound by the same-origin policy, and the browser sends the site's cookies
with it whatever page opens it. Channels' AllowedHostsOriginValidator compares the Origin's host
name with ALLOWED_HOSTS but not its port, so with the default hosts any page served from
``localhost:<any port>`` (another program's dev server, say) could open a player's socket and act
in their name. Here the Origin must name the very host and port the socket is opened on, and that
host must be allowed; ALLOWED_HOSTS is read for each connection.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

DEFAULT_PORTS = {"http": 80, "https": 443}
# What Django itself allows with DEBUG on and ALLOWED_HOSTS empty.
DEBUG_HOSTS = [".localhost", "127.0.0.1", "[::1]"]


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return value.decode("latin-1")
    return None


def is_same_origin(origin: str | None, host: str | None) -> bool:
    """Whether a page at ``origin`` is the site answering at ``host`` (the Host header)."""
    if not origin or not host:
        return False
    try:
        page = urlsplit(origin)
        page_port = page.port or DEFAULT_PORTS.get(page.scheme)
    except ValueError:
        return False
    domain, port = split_domain_port(host)
    if not domain or page.hostname is None:
        return False
    host_port = int(port) if port else DEFAULT_PORTS.get(page.scheme)
    allowed = settings.ALLOWED_HOSTS or (DEBUG_HOSTS if settings.DEBUG else [])
    # split_domain_port strips an IPv6 address's brackets; urlsplit's hostname does too.
    return page.hostname == domain and page_port == host_port and validate_host(domain, allowed)


class SameOriginValidator:
    """ASGI middleware: refuse a websocket whose Origin is not the site itself."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket" and not is_same_origin(
            _header(scope, b"origin"), _header(scope, b"host")
        ):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
