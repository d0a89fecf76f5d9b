"""The name of the process that served a page, when asked for (monitoring/middleware.py)."""

from __future__ import annotations

import os

import pytest

from monitoring import middleware

pytestmark = pytest.mark.django_db


def test_no_response_names_the_process_that_served_it_by_default(client) -> None:
    response = client.get("/healthz")

    assert middleware.SERVED_BY not in response


@pytest.mark.parametrize("path", ["/healthz", "/"], ids=["async view", "sync view"])
def test_with_the_setting_each_response_names_the_process_that_served_it(
    client, settings, path: str
) -> None:
    settings.MIDDLEWARE = ["monitoring.middleware.served_by", *settings.MIDDLEWARE]

    response = client.get(path, SERVER_NAME="127.0.0.1", SERVER_PORT="8002")

    assert response[middleware.SERVED_BY] == f"127.0.0.1:8002 pid {os.getpid()}"
