"""The health check's 503 is left out of Django's request log; every other line stays
(monitoring/logs.py)."""

from __future__ import annotations

import logging

from django.test import RequestFactory
from django.urls import resolve

from monitoring.logs import HealthAnswers


def request_line(path: str, status_code: int) -> logging.LogRecord:
    """The line Django's ``django.request`` logger writes about an answer with an error status."""
    request = RequestFactory().get(path)
    request.resolver_match = resolve(path)
    record = logging.LogRecord("django.request", logging.ERROR, __file__, 1, path, (), None)
    record.status_code, record.request = status_code, request
    return record


def test_the_health_check_s_503_is_left_out() -> None:
    assert not HealthAnswers().filter(request_line("/healthz", 503))


def test_another_answer_of_the_health_check_or_another_page_s_503_is_kept() -> None:
    assert HealthAnswers().filter(request_line("/healthz", 500))
    assert HealthAnswers().filter(request_line("/metrics", 503))


def test_a_line_without_a_request_is_kept() -> None:
    record = logging.LogRecord("django.request", logging.ERROR, __file__, 1, "x", (), None)
    assert HealthAnswers().filter(record)
    record.status_code = 503
    assert HealthAnswers().filter(record)


def test_the_site_s_logging_puts_it_on_django_s_request_logger() -> None:
    filters = logging.getLogger("django.request").filters
    assert HealthAnswers in {type(each) for each in filters}
