"""/healthz, for the proxy and systemd (monitoring/health.py)."""

from __future__ import annotations

import logging

import pytest

from monitoring import health

# The health check's database call runs through Channels, which gives its connection back to the
# pool after the call: outside a test transaction, as on the site.
pytestmark = pytest.mark.django_db(transaction=True)


def test_the_health_check_says_ok_when_the_database_and_channel_layer_answer(client) -> None:
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "channel_layer": "ok"}
    assert "no-cache" in response["Cache-Control"]


def test_the_health_check_says_503_without_an_error_in_the_log_when_the_database_fails(
    client, monkeypatch, caplog
) -> None:
    def broken() -> None:
        raise OSError("connection refused")

    monkeypatch.setattr(health, "database_answers", broken)
    with caplog.at_level(logging.WARNING, logger="django.request"):
        response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json() == {
        "status": "unavailable",
        "database": "unavailable",
        "channel_layer": "ok",
    }
    assert caplog.records == []


def test_the_health_check_says_503_when_the_channel_layer_does_not_answer(
    client, monkeypatch
) -> None:
    async def silent() -> None:
        raise ConnectionError("redis is away")

    monkeypatch.setattr(health, "channel_layer_answers", silent)

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["channel_layer"] == "unavailable"
