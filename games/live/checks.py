"""The live side's checks for ``manage.py check --deploy`` (registered in ``GamesConfig.ready``).

Without ``REDIS_URL`` the pushes go through Channels' in-memory layer (``lib.env``): it reaches
the sockets of the process it is in only, and loses what it holds when that process stops;
Channels says it is not for production. A site of several processes needs Redis for its pushes
to reach every table's sockets at all; one of a single process runs on it, warned.
"""

from __future__ import annotations

from typing import Any

from channels.layers import InMemoryChannelLayer
from django.conf import settings
from django.core.checks import Warning
from django.utils.module_loading import import_string

IN_MEMORY_LAYER = "taki.W001"


def channel_layer_in_memory(app_configs: Any = None, **kwargs: Any) -> list[Warning]:
    """A warning when the default channel layer is Channels' in-memory one (or its kind)."""
    backend = settings.CHANNEL_LAYERS.get("default", {}).get("BACKEND", "")
    if not issubclass(import_string(backend), InMemoryChannelLayer):
        return []
    return [
        Warning(
            "The channel layer is Channels' in-memory layer (REDIS_URL is not set), which "
            "Channels says is not for production: it reaches the sockets of this one process "
            "only, and what it holds is lost when the process stops.",
            hint="Set REDIS_URL to a Redis server shared by every process "
            "(docs/deployment.md, Redis).",
            obj="CHANNEL_LAYERS",
            id=IN_MEMORY_LAYER,
        )
    ]
