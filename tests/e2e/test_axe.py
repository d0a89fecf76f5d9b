"""The browser tests' accessibility check (tests/e2e/axe.py): a test that cannot load axe-core
fails, never skips, so that no page goes unchecked."""

from __future__ import annotations

import sys

import pytest

from tests.e2e.axe import axe_violations

pytestmark = pytest.mark.e2e

PAGE = "<!doctype html><html lang='en'><title>Taki</title><main><h1>Taki</h1></main></html>"


def test_a_page_is_checked_with_the_axe_core_of_the_test_extra(page) -> None:
    page.set_content(PAGE)

    assert axe_violations(page) == []
    assert page.evaluate("() => window.axe.version") == axe_version_shipped()


def test_a_browser_test_fails_when_axe_core_cannot_be_loaded(page, monkeypatch) -> None:
    page.set_content(PAGE)
    monkeypatch.setitem(sys.modules, "axe_playwright_python.sync_playwright", None)

    with pytest.raises(BaseException) as outcome:
        axe_violations(page)

    assert outcome.type is pytest.fail.Exception, "a skip would leave the pages unchecked"
    assert "axe-playwright-python" in str(outcome.value)


def axe_version_shipped() -> str:
    """The version the package's axe.min.js names in its first line (``/*! axe v4.12.1``)."""
    from axe_playwright_python.base import AXE_FILE_PATH

    return AXE_FILE_PATH.read_text().split("\n", 1)[0].removeprefix("/*! axe v").strip()
