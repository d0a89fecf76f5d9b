"""Shared fixtures for the whole suite. App-specific ones live in each folder's conftest."""

import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator

import pytest
from django.utils import translation


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Browser tests last: Playwright's sync API keeps an event loop running in the main thread
    from its first test to the end of the session, and no asyncio test can run beside it."""
    items.sort(key=lambda item: item.get_closest_marker("e2e") is not None)


@pytest.fixture(autouse=True)
def no_language_left_active() -> Iterator[None]:
    """Each test starts in the default language. Django's LocaleMiddleware activates the
    visitor's language for a request made with the test client and leaves it active in the
    thread, where a later test would draw in it."""
    yield
    translation.deactivate()


def free_port() -> int:
    """A TCP port on the loopback interface that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory) -> Iterator[str]:
    """A redis-server of the test's own, bound to 127.0.0.1 on a free port, saving nothing.

    `make test` installs redis-server; without it these tests skip on a developer's machine and
    fail under CI, where a skip would hide a broken setup.
    """
    server = shutil.which("redis-server")
    if server is None:
        if os.environ.get("CI"):
            pytest.fail("redis-server is not installed: run `make test` as root")
        pytest.skip("redis-server is not installed")
    port = free_port()
    folder = tmp_path_factory.mktemp("redis")
    process = subprocess.Popen(
        [server, "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--dir", str(folder)],
        stdout=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 10
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            if time.monotonic() > deadline:
                process.kill()
                pytest.fail("redis-server did not start")
            time.sleep(0.05)
    yield f"redis://127.0.0.1:{port}/0"
    process.terminate()
    process.wait(timeout=10)
