"""A socket's person and language, read from its scope: the person put there by the site's
middleware, as they are."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from games.live.scope import language_of, user_of, visitor_stack


async def visitor_seen(headers: list[tuple[bytes, bytes]]) -> Any:
    """The scope's user, as a socket opened with these headers finds it."""
    seen = []

    async def socket(scope, receive, send) -> None:
        seen.append(user_of(scope))
        await receive()
        await send({"type": "websocket.close"})

    communicator = WebsocketCommunicator(visitor_stack(socket), "/ws/", headers=headers)
    await communicator.connect()
    await communicator.disconnect()
    return seen[0]


@pytest.mark.django_db(transaction=True)
async def test_a_socket_s_visitor_is_the_user_of_its_session_as_they_are(alice) -> None:
    client = Client()
    await database_sync_to_async(client.force_login)(alice)
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()

    visitor = await visitor_seen([(b"cookie", cookie)])

    assert type(visitor) is type(alice) and visitor.pk == alice.pk  # no lazy object around it


@pytest.mark.django_db(transaction=True)
async def test_a_socket_without_a_log_in_is_an_anonymous_visitor() -> None:
    visitor = await visitor_seen([(b"cookie", b"sessionid=nonsense")])

    assert type(visitor) is AnonymousUser


def test_a_scope_without_a_visitor_has_none() -> None:
    assert user_of({}) is None


def test_the_language_cookie_comes_before_the_accept_language_header() -> None:
    headers = [(b"accept-language", b"id;q=0.9, es;q=0.8")]

    assert language_of({"cookies": {"django_language": "eo"}, "headers": headers}) == "eo"
    assert language_of({"headers": headers}) == "id"


def test_a_language_the_site_does_not_speak_falls_back_to_english() -> None:
    assert language_of({"headers": [(b"accept-language", b"fr, de")]}) == "en"
    assert language_of({}) == "en"


def scope_with(accept: str, cookie: str | None = None) -> dict[str, Any]:
    scope: dict[str, Any] = {"headers": [(b"accept-language", accept.encode())]}
    if cookie is not None:
        scope["cookies"] = {"django_language": cookie}
    return scope


def test_the_accept_language_header_is_read_by_its_weights() -> None:
    assert language_of(scope_with("eo;q=0.1, es;q=0.9")) == "es"
    assert language_of(scope_with("fr, id;q=0.2, eo;q=0.5")) == "eo"
    assert language_of(scope_with("es-MX;q=0.8, en-GB;q=0.9")) == "en"


def test_the_language_chosen_on_the_site_still_wins_over_the_header() -> None:
    assert language_of(scope_with("eo;q=0.1, es;q=0.9", cookie="id")) == "id"
    # A cookie of no language the site speaks is passed over.
    assert language_of(scope_with("eo;q=0.1, es;q=0.9", cookie="xx")) == "es"


@pytest.mark.parametrize(
    ("accept", "cookie"),
    [
        ("eo;q=0.1, es;q=0.9", None),
        ("*;q=0.5, id", None),
        ("es;q=0, eo", None),
        ("fr-CA, fr;q=0.9, es-AR;q=0.8", None),
        ("eo;q=0.1, es;q=0.9", "eo"),
        ("garbage;;q=x, es", None),
    ],
)
@pytest.mark.django_db
def test_a_socket_speaks_the_language_its_page_was_drawn_in(
    accept: str, cookie: str | None
) -> None:
    client = Client(headers={"accept-language": accept})
    if cookie is not None:
        client.cookies["django_language"] = cookie

    page = client.get("/rules/")

    assert language_of(scope_with(accept, cookie)) == page["Content-Language"]
