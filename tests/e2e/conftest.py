"""Browser fixtures: Playwright driving Debian's Chromium (no browser is downloaded).

`make test` installs Chromium when it is missing. Without it these tests are skipped on a
developer's machine, but fail under CI, where a skipped browser test would hide a broken setup.
"""

import os
import shutil
from collections.abc import Iterator

import pytest

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    # This machine has no network: without these Chromium keeps trying to reach its services.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

# Playwright's sync API runs an event loop in this thread; Django then refuses database calls
# from it (the live server's own thread is unaffected). The tests only touch the database in
# fixtures, outside the browser calls.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def _chromium_path() -> str | None:
    return os.environ.get("CHROMIUM") or shutil.which("chromium")


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    executable = _chromium_path()
    if executable is None:
        if os.environ.get("CI"):
            pytest.fail("Chromium is not installed: run `make test` as root to install it")
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context()
    page = context.new_page()
    yield page
    context.close()
