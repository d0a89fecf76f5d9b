"""axe-core in the browser tests: the serious and critical accessibility violations of a page.

axe-core comes from npm (`make test` runs `npm install --no-save axe-core` when it is missing,
into the git-ignored node_modules/ at the project root). It is run with Playwright's
``evaluate``, which the page's Content-Security-Policy does not govern (no script is added to
the page). Without axe-core the check skips, except under CI.
"""

from __future__ import annotations

import os
from functools import cache
from typing import Any

import pytest
from playwright.sync_api import Page

from tests.e2e.site_server import ROOT

AXE_JS = ROOT / "node_modules" / "axe-core" / "axe.min.js"
SEVERE = ("serious", "critical")


@cache
def _axe_source() -> str:
    return AXE_JS.read_text()


def severe_violations(page: Page) -> list[dict[str, Any]]:
    """The serious and critical violations axe-core finds on the page as it stands, each as
    ``{"id", "impact", "help", "targets"}``."""
    if not AXE_JS.exists():
        if os.environ.get("CI"):
            pytest.fail("axe-core is not installed: run `make test` (npm install axe-core)")
        pytest.skip("axe-core is not installed (npm install --no-save axe-core)")
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(_axe_source())
    results = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    return [
        {
            "id": violation["id"],
            "impact": violation["impact"],
            "help": violation["help"],
            "targets": [node["target"] for node in violation["nodes"]][:5],
        }
        for violation in results["violations"]
        if violation["impact"] in SEVERE
    ]


def assert_accessible(page: Page, where: str) -> None:
    """No serious or critical axe-core violation on the page."""
    found = severe_violations(page)
    assert not found, f"axe-core on {where}: {found}"
