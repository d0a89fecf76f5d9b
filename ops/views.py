"""For the people who run the site: ``/healthz`` for the proxy and systemd, ``/metrics`` for
Prometheus, and, when asked for, the name of the process that served a page."""

from __future__ import annotations

import asyncio
import ipaddress
import os
import secrets
from collections.abc import Callable, Iterator

import redis.asyncio
from asgiref.sync import iscoroutinefunction
from channels import DEFAULT_CHANNEL_LAYER
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection
from django.db.models import Min
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone
from django.utils.decorators import sync_and_async_middleware
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

from games.models import Game, Table

# Seconds each part of the health check may take before it counts as not answering.
HEALTH_TIMEOUT = 3.0


def _database_answers() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")


async def _channel_layer_answers() -> None:
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
    (``ops.logs``).
    """
    parts = {
        "database": await _check(database_sync_to_async(_database_answers)),
        "channel_layer": await _check(_channel_layer_answers),
    }
    healthy = all(state == "ok" for state in parts.values())
    return JsonResponse(
        {"status": "ok" if healthy else "unavailable", **parts}, status=200 if healthy else 503
    )


class GamesCollector(Collector):
    """What the database knows at the time of the scrape: the tables in play and how far the
    clock is behind the most overdue move (0 when nothing is due)."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        playing = Table.objects.filter(status=Table.Status.PLAYING).count()
        yield GaugeMetricFamily("taki_tables_in_play", "Tables with a game in play", playing)
        now = timezone.now()
        oldest = Game.objects.filter(
            next_due__lte=now, winner__isnull=True, table__status=Table.Status.PLAYING
        ).aggregate(oldest=Min("next_due"))["oldest"]
        lag = (now - oldest).total_seconds() if oldest else 0.0
        yield GaugeMetricFamily(
            "taki_clock_lag_seconds", "How long the most overdue move has waited", lag
        )


def may_read_metrics(request: HttpRequest) -> bool:
    """Whether ``request`` comes from an address of METRICS_ALLOWED_ADDRESSES or carries the
    bearer token METRICS_TOKEN. Neither set: nobody may."""
    token = settings.METRICS_TOKEN
    if token:
        sent = request.headers.get("Authorization", "")
        if secrets.compare_digest(sent.encode(), f"Bearer {token}".encode()):
            return True
    try:
        address = ipaddress.ip_address(request.META.get("REMOTE_ADDR", ""))
    except ValueError:
        return False
    return any(address in network for network in settings.METRICS_ALLOWED_ADDRESSES)


@never_cache
@require_safe
def metrics(request: HttpRequest) -> HttpResponse:
    """The metrics in Prometheus's text format, for allowed readers only (404 for others, as
    if there were no such page)."""
    if not may_read_metrics(request):
        raise Http404
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        MultiProcessCollector(registry)
    else:
        registry = CollectorRegistry()
        registry.register(_Everything())
    registry.register(GamesCollector())
    return HttpResponse(generate_latest(registry), content_type=CONTENT_TYPE_LATEST)


class _Everything(Collector):
    """This process's own metrics, from the default registry."""

    def collect(self):
        return REGISTRY.collect()


# The response header naming the process that served it (SERVED_BY_HEADER).
SERVED_BY = "X-Served-By"


def _served_by(request: HttpRequest) -> str:
    """This process's address as its server gives it (Daphne's own, behind the proxy too), and
    its process id: ``127.0.0.1:8001 pid 4242``."""
    return f"{request.META.get('SERVER_NAME')}:{request.META.get('SERVER_PORT')} pid {os.getpid()}"


@sync_and_async_middleware
def served_by(get_response: Callable) -> Callable:
    """Middleware that names the process that served each response in ``X-Served-By``: which of
    the processes behind the proxy a page came from. Installed only with SERVED_BY_HEADER on."""
    if iscoroutinefunction(get_response):

        async def middleware(request: HttpRequest) -> HttpResponse:
            response = await get_response(request)
            response[SERVED_BY] = _served_by(request)
            return response

    else:

        def middleware(request: HttpRequest) -> HttpResponse:  # type: ignore[misc]
            response = get_response(request)
            response[SERVED_BY] = _served_by(request)
            return response

    return middleware
