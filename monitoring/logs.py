"""What the site's logs leave out: the health check's 503.

``/healthz`` answers 503 when the database or the channel layer does not answer: the answer the
proxy and systemd asked for, not a server error. Django logs every 5xx answer on its
``django.request`` logger as an error, with the answer's ``status_code`` and the ``request`` on
the line; this filter, put on that logger by the site's ``LOGGING``, drops that one line.
Imports nothing of the site: ``LOGGING`` is set up before the apps are loaded.
"""

from __future__ import annotations

import logging

# The health check's URL name (taki_site/urls.py), and the answer that is not an error.
HEALTH_CHECK = "healthz"
UNHEALTHY = 503


class HealthAnswers(logging.Filter):
    """Drops ``django.request``'s line about a 503 from the health check; keeps every other."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", None) != UNHEALTHY:
            return True
        match = getattr(getattr(record, "request", None), "resolver_match", None)
        return match is None or match.view_name != HEALTH_CHECK
