"""``/healthz``, for the proxy and systemd: whether the database and the channel layer answer."""

from __future__ import annotations

import asyncio

import redis.asyncio
from channels import DEFAULT_CHANNEL_LAYER
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

# Seconds each part of the health check may take before it counts as not answering.
HEALTH_TIMEOUT = 3.0


def database_answers() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")


async def channel_layer_answers() -> None:
    """Each Redis the channel layer uses answers a ping, through a client of the check's own;
    a layer in memory has none to ask."""
    if get_channel_layer() is None:
        raise RuntimeError("no channel layer")
    hosts = settings.CHANNEL_LAYERS[DEFAULT_CHANNEL_LAYER].get("CONFIG", {}).get("hosts", [])
    for host in hosts:
        client = _redis_client(host)
        try:
            await client.ping()
        finally:
            await client.aclose()


def _redis_client(host: str | dict | tuple) -> redis.asyncio.Redis:
    """A client of the Redis a channels-redis layer's ``hosts`` entry names: a URL, connection
    arguments with an ``address`` (as ``lib.env`` writes them), or ``(host, port)``."""
    if isinstance(host, str):
        return redis.asyncio.Redis.from_url(host)
    if isinstance(host, dict):
        options = dict(host)
        return redis.asyncio.Redis.from_url(options.pop("address"), **options)
    return redis.asyncio.Redis(host=host[0], port=host[1])


async def _check(part) -> str:
    try:
        await asyncio.wait_for(part(), HEALTH_TIMEOUT)
    except Exception:
        return "unavailable"
    return "ok"


@never_cache
@require_safe
async def healthz(request: HttpRequest) -> HttpResponse:
    """200 when the database and the channel layer answer, 503 when one does not, with what
    each said: ``{"status": "ok", "database": "ok", "channel_layer": "ok"}``.

    A 503 here is the answer asked for, not a server error: it is not logged as one
    (``monitoring.logs``).
    """
    parts = {
        "database": await _check(database_sync_to_async(database_answers)),
        "channel_layer": await _check(channel_layer_answers),
    }
    healthy = all(state == "ok" for state in parts.values())
    return JsonResponse(
        {"status": "ok" if healthy else "unavailable", **parts}, status=200 if healthy else 503
    )
