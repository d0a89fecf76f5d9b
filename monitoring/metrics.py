"""``/metrics``, for Prometheus: this process's metrics (or every process's, with
PROMETHEUS_MULTIPROC_DIR) and what the database knows at the time of the scrape."""

from __future__ import annotations

import ipaddress
import os
import secrets
from collections.abc import Iterator

from django.conf import settings
from django.db.models import Min
from django.http import Http404, HttpRequest, HttpResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

from games.models import Game, Table


class GamesCollector(Collector):
    """What the database knows at the time of the scrape: the tables in play and how far the
    clock is behind the most overdue move (0 when nothing is due)."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        playing = Table.objects.filter(status=Table.Status.PLAYING).count()
        yield GaugeMetricFamily("taki_tables_in_play", "Tables with a game in play", playing)
        now = timezone.now()
        oldest = Game.objects.due(now).aggregate(oldest=Min("next_due"))["oldest"]
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
