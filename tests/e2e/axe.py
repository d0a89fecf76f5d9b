"""axe-core in the browser tests: run it on a page and keep the violations that matter.

axe-core comes with the Python package axe-playwright-python (in the test extra of
pyproject.toml, which `make test` installs), which ships axe.min.js. A test that cannot load it
fails: a skip would leave the pages unchecked. The package's ``Axe.run`` injects the script
through the DevTools protocol (``page.evaluate``), which the site's Content-Security-Policy does
not apply to, so the pages are checked exactly as they are served.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page

SERIOUS = ("serious", "critical")


def _axe() -> Any:
    """The package's runner of axe-core; the test fails if it cannot be imported."""
    try:
        from axe_playwright_python.sync_playwright import Axe
    except ImportError as error:
        pytest.fail(
            f"axe-core cannot be loaded: {error}. It comes with axe-playwright-python, in the "
            "test extra of pyproject.toml (make test installs it)"
        )
    return Axe()


def axe_violations(page: Page, impacts: tuple[str, ...] = SERIOUS) -> list[dict[str, Any]]:
    """The axe-core violations of ``impacts`` on the page as it stands: rule id, impact, help,
    and the first few offending elements."""
    results = _axe().run(page, options={"resultTypes": ["violations"]})
    return [
        {
            "id": violation["id"],
            "impact": violation["impact"],
            "help": violation["help"],
            "nodes": [node["target"] for node in violation["nodes"][:5]],
        }
        for violation in results.response["violations"]
        if violation["impact"] in impacts
    ]


def assert_accessible(page: Page, where: str) -> None:
    """No serious or critical axe-core violation on the page."""
    found = axe_violations(page)
    assert not found, f"axe-core on {where}: {found}"
