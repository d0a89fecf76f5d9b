"""Browser fixtures: Playwright driving Debian's Chromium (no browser is downloaded).

`make test` installs Chromium when it is missing. Without it these tests are skipped on a
developer's machine, but fail under CI, where a skipped browser test would hide a broken setup.
"""

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.console import ConsoleWatch
from tests.e2e.site_server import ROOT, SiteServer

ARTIFACTS = ROOT / "test-artifacts"
LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}

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

    # Playwright's sync API runs an event loop in this thread until the session ends; Django then
    # refuses database calls from it (the live server's own thread is unaffected). The tests only
    # touch the database in fixtures, outside the browser calls. Set here, not at import, so that
    # no other test runs with Django's async-safety check switched off; tests/conftest.py runs
    # the browser tests last, since no asyncio test can run beside that loop either.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
            yield browser
            browser.close()
    finally:
        if previous is None:
            del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture(autouse=True)
def console(browser, monkeypatch) -> Iterator[ConsoleWatch]:
    """Every browser context the test opens is watched: the test fails on any console error or
    uncaught page error (a Content-Security-Policy violation among them) it did not expect
    (``console.expect(pattern)``)."""
    watch = ConsoleWatch()
    open_context = browser.new_context
    monkeypatch.setattr(
        browser,
        "new_context",
        lambda *args, **kwargs: watch.watch_context(open_context(*args, **kwargs)),
    )
    yield watch
    watch.assert_clean()


@pytest.fixture
def page(browser):
    context = browser.new_context()
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture(scope="session")
def site_server(tmp_path_factory) -> Iterator[SiteServer]:
    """The site every browser test shares (see :class:`SiteServer`), started once."""
    server = SiteServer(tmp_path_factory.mktemp("site"))
    server.prepare()
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def live_site(site_server: SiteServer) -> str:
    """The real site, served by Daphne (HTTP and websockets) in its own process, on a fresh
    SQLite database, exactly as `make run` serves it. Yields its base URL.

    pytest-django's live_server speaks WSGI only, so it cannot carry the table's websocket.
    """
    return site_server.url


@pytest.fixture
def restartable_site(tmp_path_factory) -> Iterator[SiteServer]:
    """A site of the test's own, which the test may stop and start again (same port, same
    database) while pages are open, without disturbing the shared one."""
    server = SiteServer(tmp_path_factory.mktemp("restartable-site"))
    server.prepare()
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def two_servers(tmp_path_factory, redis_url) -> Iterator[tuple[str, str]]:
    """Two Daphne processes, each with its clock, on one SQLite database and one Redis; yields
    their base URLs."""
    folder = tmp_path_factory.mktemp("two-servers")
    servers = [SiteServer(folder, name, redis_url) for name in ("a", "b")]
    servers[0].prepare()
    for server in servers:
        server.start()
    yield servers[0].url, servers[1].url
    for server in servers:
        server.stop()


@pytest.fixture
def new_context(browser):
    """Open as many separate browser contexts (separate people) as a test needs."""
    contexts = []

    def make():
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def make_context(browser) -> Iterator[Callable[..., Any]]:
    """Browser contexts of a chosen size, a laptop's by default; ``phone=True`` makes one a
    touch screen at a phone's pixel density."""
    contexts = []

    def make(viewport: dict[str, int] = LAPTOP, phone: bool = False) -> Any:
        options: dict[str, Any] = {"viewport": viewport}
        if phone:
            options.update(is_mobile=True, has_touch=True, device_scale_factor=2)
        context = browser.new_context(**options)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """Where browser tests save screenshots (test-artifacts/, ignored by git)."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
