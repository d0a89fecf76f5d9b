"""/metrics, for Prometheus (monitoring/metrics.py), and what the site counts."""

from __future__ import annotations

import ipaddress

import pytest
from channels.testing import WebsocketCommunicator
from django.core.exceptions import ImproperlyConfigured
from django.test import Client
from prometheus_client import REGISTRY

from accounts import throttle
from games.services import moves
from games.services.errors import ServiceError
from lib import env
from lib.metrics import CountSockets
from tests.games.services.test_moves import HANDS

pytestmark = pytest.mark.django_db(transaction=True)


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def test_the_metrics_are_not_found_by_anyone_by_default(client) -> None:
    assert client.get("/metrics").status_code == 404


def test_the_metrics_are_served_to_an_allowed_address(client, settings) -> None:
    settings.METRICS_ALLOWED_ADDRESSES = [ipaddress.ip_network("127.0.0.0/8")]

    response = client.get("/metrics")

    assert response.status_code == 200
    text = response.content.decode()
    for name in (
        "taki_moves_applied_total",
        "taki_move_seconds_bucket",
        "taki_pushes_sent_total",
        "taki_sockets_open",
        "taki_logins_refused_total",
        "taki_tables_in_play 0.0",
        "taki_clock_lag_seconds 0.0",
    ):
        assert name in text
    assert Client(REMOTE_ADDR="10.1.2.3").get("/metrics").status_code == 404


def test_the_metrics_are_served_for_the_bearer_token_only(client, settings) -> None:
    settings.METRICS_TOKEN = "s3cret-token"

    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer s3cret-token").status_code == 200
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer wrong").status_code == 404
    assert client.get("/metrics").status_code == 404


def test_moves_are_counted_applied_or_refused_by_code_and_timed(
    alice, bob, make_table, rig
) -> None:
    table = make_table(players=[bob], start=True)
    rig(table, HANDS[:2])  # alice to play
    applied = sample("taki_moves_applied_total")
    refused = sample("taki_moves_refused_total", code="not_your_turn")
    timed = sample("taki_move_seconds_count")

    with pytest.raises(ServiceError) as caught:
        moves.submit_action(table.pk, bob, {"type": "draw", "version": 0})
    moves.submit_action(table.pk, alice, {"type": "draw", "version": 0})

    assert caught.value.code == "not_your_turn"
    assert sample("taki_moves_applied_total") == applied + 1
    assert sample("taki_moves_refused_total", code="not_your_turn") == refused + 1
    assert sample("taki_move_seconds_count") == timed + 2


def test_tables_in_play_are_counted_when_read(client, settings, bob, make_table) -> None:
    settings.METRICS_ALLOWED_ADDRESSES = [ipaddress.ip_network("127.0.0.1")]
    make_table(players=[bob], start=True)

    assert "taki_tables_in_play 1.0" in client.get("/metrics").content.decode()


def test_a_login_refused_by_the_throttle_is_counted() -> None:
    before = sample("taki_logins_refused_total")
    for _ in range(throttle.MAX_FAILURES_PER_USERNAME):
        assert throttle.reserve_attempt(None, "counted-name")

    assert not throttle.reserve_attempt(None, "counted-name")
    assert sample("taki_logins_refused_total") == before + 1


async def test_sockets_open_and_pushes_sent_are_counted() -> None:
    async def echo(scope, receive, send) -> None:
        await receive()
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": "hello"})
        await receive()

    socket = WebsocketCommunicator(CountSockets(echo), "/ws/")
    open_before, pushed_before = sample("taki_sockets_open"), sample("taki_pushes_sent_total")
    await socket.connect()
    assert await socket.receive_from() == "hello"
    assert sample("taki_sockets_open") == open_before + 1
    assert sample("taki_pushes_sent_total") == pushed_before + 1

    await socket.disconnect()
    assert sample("taki_sockets_open") == open_before


def test_metrics_addresses_must_be_addresses_or_networks(monkeypatch) -> None:
    monkeypatch.setenv("METRICS_ALLOWED_ADDRESSES", "10.0.0.5, 192.168.0.0/24")
    assert env.env_networks("METRICS_ALLOWED_ADDRESSES") == [
        ipaddress.ip_network("10.0.0.5"),
        ipaddress.ip_network("192.168.0.0/24"),
    ]
    monkeypatch.setenv("METRICS_ALLOWED_ADDRESSES", "localhost")
    with pytest.raises(ImproperlyConfigured, match="localhost"):
        env.env_networks("METRICS_ALLOWED_ADDRESSES")
