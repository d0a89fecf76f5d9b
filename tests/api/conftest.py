"""What the API's tests start from: tokens of chosen scopes, and a client that sends them."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client

from api import limits, tokens
from api.scopes import SCOPES


@pytest.fixture(autouse=True)
def no_streams_held() -> None:
    """No token or address holds streams left open by an earlier test."""
    limits.streams.open.clear()


@pytest.fixture
def bearer() -> Callable[..., str]:
    """``bearer(user, "read:games")``: a new token's bearer, holding the scopes named (every
    scope when none is)."""

    def make(user, *scopes: str) -> str:
        _token, value = tokens.create_token(user, "test", scopes or list(SCOPES))
        return value

    return make


@pytest.fixture
def api_client() -> Callable[[str | None], Client]:
    """A client that sends ``Authorization: Bearer <bearer>`` with every request."""

    def make(value: str | None = None) -> Client:
        if value is None:
            return Client()
        return Client(headers={"Authorization": f"Bearer {value}"})

    return make
