"""Browser fixtures: Playwright driving Debian's Chromium (no browser is downloaded).

`make test` installs Chromium when it is missing. Without it these tests are skipped on a
developer's machine, but fail under CI, where a skipped browser test would hide a broken setup.
"""

import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"

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


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class SiteServer:
    """The real site, served by Daphne (HTTP and websockets) in its own process, on its own
    SQLite database, exactly as `make run` serves it.

    ``stop()`` and ``start()`` again keep the port and the database, as a restart in production
    would: pages left open can reconnect to the same address and find the same games.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.db_path = folder / "site.sqlite3"
        self.log_path = folder / "daphne.log"
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{self.db_path}",
            "DEBUG": "0",
            "PYTHONUNBUFFERED": "1",
        }
        self.env.pop("REDIS_URL", None)  # one process: the in-memory channel layer is enough
        self.process: subprocess.Popen[bytes] | None = None
        self._log = None

    def prepare(self) -> None:
        """Create the database (migrate) and collect the static files."""
        manage = [sys.executable, "manage.py"]
        for command in (["migrate", "--noinput"], ["collectstatic", "--noinput", "-v", "0"]):
            subprocess.run(
                [*manage, *command], cwd=ROOT, env=self.env, check=True, capture_output=True
            )

    def start(self, timeout: float = 30) -> None:
        """Start Daphne and wait until it answers."""
        self._log = self.log_path.open("a")
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "daphne",
                "-b",
                "127.0.0.1",
                "-p",
                str(self.port),
                "taki_site.asgi:application",
            ],
            cwd=ROOT,
            env=self.env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + timeout
        while True:
            try:
                urllib.request.urlopen(self.url + "/", timeout=1)
                return
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.process.kill()
                    pytest.fail("Daphne did not start:\n" + self.log_path.read_text())
                time.sleep(0.1)

    def stop(self, graceful: bool = True) -> None:
        """Stop Daphne: SIGTERM (its graceful shutdown) or, with ``graceful=False``, SIGKILL."""
        if self.process is None:
            return
        if graceful:
            self.process.terminate()
        else:
            self.process.kill()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None
        if self._log is not None:
            self._log.close()
            self._log = None

    def restart(self, graceful: bool = True) -> None:
        self.stop(graceful=graceful)
        self.start()

    def query(self, sql: str, params: tuple = ()) -> list[tuple]:
        """Read the site's database directly (read-only), e.g. to check what was stored."""
        connection = sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True, timeout=10)
        try:
            return connection.execute(sql, params).fetchall()
        finally:
            connection.close()


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


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """Where browser tests save screenshots (test-artifacts/, ignored by git)."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
