"""Browser fixtures: Playwright driving Debian's Chromium (no browser is downloaded).

`make test` installs Chromium when it is missing. Without it these tests are skipped on a
developer's machine, but fail under CI, where a skipped browser test would hide a broken setup.
"""

import os
import shutil
import socket
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


@pytest.fixture(scope="session")
def live_site(tmp_path_factory) -> Iterator[str]:
    """The real site, served by Daphne (HTTP and websockets) in its own process, on a fresh
    SQLite database, exactly as `make run` serves it. Yields its base URL.

    pytest-django's live_server speaks WSGI only, so it cannot carry the table's websocket.
    """
    folder = tmp_path_factory.mktemp("site")
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{folder / 'site.sqlite3'}",
        "DEBUG": "0",
        "PYTHONUNBUFFERED": "1",
    }
    env.pop("REDIS_URL", None)  # one process: the in-memory channel layer is enough
    manage = [sys.executable, "manage.py"]
    subprocess.run(
        [*manage, "migrate", "--noinput"], cwd=ROOT, env=env, check=True, capture_output=True
    )
    subprocess.run(
        [*manage, "collectstatic", "--noinput", "--verbosity", "0"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )
    port = _free_port()
    log = (folder / "daphne.log").open("w")
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "daphne",
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
            "taki_site.asgi:application",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(url + "/", timeout=1)
            break
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                server.kill()
                pytest.fail("Daphne did not start:\n" + (folder / "daphne.log").read_text())
            time.sleep(0.2)
    yield url
    server.terminate()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
    log.close()


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
