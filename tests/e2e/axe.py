"""axe-core in the browser tests: run it on a page and keep the violations that matter.

axe-core comes from the npm registry into node_modules/, at the version package-lock.json pins
(`make axe`, which `make test` runs, installs it when npm is there). It is injected through the
DevTools protocol (``page.evaluate``), which the site's Content-Security-Policy does not apply
to, so the pages are checked exactly as they are served.
"""

from __future__ import annotations

import os
from functools import cache
from typing import Any

import pytest
from playwright.sync_api import Page

from tests.e2e.site_server import ROOT

AXE_PATH = ROOT / "node_modules" / "axe-core" / "axe.min.js"
SERIOUS = ("serious", "critical")


@cache
def _axe_source() -> str:
    if not AXE_PATH.exists():
        if os.environ.get("CI"):
            pytest.fail("axe-core is missing: run `make axe`")
        pytest.skip("axe-core is not installed (make axe)")
    return AXE_PATH.read_text()


def axe_violations(page: Page, impacts: tuple[str, ...] = SERIOUS) -> list[dict[str, Any]]:
    """The axe-core violations of ``impacts`` on the page as it stands: rule id, impact, help,
    and the first few offending elements."""
    if not page.evaluate("() => Boolean(window.axe)"):
        page.evaluate(_axe_source())
    results = page.evaluate("async () => await window.axe.run(document)")
    return [
        {
            "id": violation["id"],
            "impact": violation["impact"],
            "help": violation["help"],
            "nodes": [node["target"] for node in violation["nodes"][:5]],
        }
        for violation in results["violations"]
        if violation["impact"] in impacts
    ]


def assert_accessible(page: Page, where: str) -> None:
    """No serious or critical axe-core violation on the page."""
    found = axe_violations(page)
    assert not found, f"axe-core on {where}: {found}"
