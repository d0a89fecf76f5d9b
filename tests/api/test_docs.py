"""The API's description: the OpenAPI document written from the endpoints, and the page that
shows it without a script of its own (the site's CSP allows none inline)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_the_openapi_document_describes_every_endpoint_and_the_bearer():
    schema = Client().get("/api/openapi.json").json()
    assert schema["openapi"].startswith("3.")
    assert "/api/bot/game/{table_id}/action" in schema["paths"]
    action = schema["paths"]["/api/bot/game/{table_id}/action"]["post"]
    assert action["security"] == [{"Token": []}]
    body = schema["components"]["schemas"]["ActionIn"]
    assert set(body["required"]) == {"type", "version"}
    assert body["additionalProperties"] is False


def test_the_docs_page_lists_each_endpoint_with_no_inline_script():
    answer = Client().get("/api/docs")
    page = answer.content.decode()
    schema = Client().get("/api/openapi.json").json()
    for path, methods in schema["paths"].items():
        for method in methods:
            assert f'data-operation="{method.upper()} {path}"' in page
    scripts = re.findall(r"<script[^>]*>", page)
    assert scripts and all("src=" in tag for tag in scripts)
    assert "script-src" in answer["Content-Security-Policy"]
