"""The real site under Daphne in a process of its own, for the browser tests."""

from __future__ import annotations

import fcntl
import hashlib
import os
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Every site of the browser tests serves the project's one static folder, which collectstatic
# rewrites as it runs: it is collected once a run, before the first site starts, by whichever
# test process (pytest-xdist) comes first, under this lock of the clone's own, which then holds
# the run's id. The cluster's test collects it again, and runs after the others (make test).
STATIC_LOCK = Path(tempfile.gettempdir()) / (
    "taki-collectstatic-" + hashlib.sha256(str(ROOT).encode()).hexdigest()[:16] + ".lock"
)
# One id for every process of a run: pytest-xdist's, or this process's own.
RUN = os.environ.get("PYTEST_XDIST_TESTRUNUID") or f"{os.getpid()}-{time.time()}"


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

    def __init__(self, folder: Path, name: str = "site", redis_url: str | None = None) -> None:
        """Servers made on one ``folder`` share its database; ``name`` tells their logs apart,
        and with ``redis_url`` they share a channel layer and cache (several processes)."""
        self.folder = folder
        self.db_path = folder / "site.sqlite3"
        self.log_path = folder / f"daphne-{name}.log"
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{self.db_path}",
            "DEBUG": "0",
            "PYTHONUNBUFFERED": "1",
            # Every browser test signs its people up (or tries as guests) from 127.0.0.1 on the one
            # shared site.
            "SIGNUPS_PER_ADDRESS_PER_HOUR": "1000",
            "GUESTS_PER_ADDRESS_PER_HOUR": "1000",
            # ... and opens its visitors' pages from there too.
            "ANONYMOUS_SOCKETS_PER_ADDRESS": "1000",
        }
        self.env.pop("REDIS_URL", None)  # one process: the in-memory channel layer is enough
        if redis_url:
            self.env["REDIS_URL"] = redis_url
        self.process: subprocess.Popen[bytes] | None = None
        self._log = None

    def prepare(self) -> None:
        """Create the database (migrate), and collect the static files unless this run
        already has."""
        manage = [sys.executable, "manage.py"]
        subprocess.run(
            [*manage, "migrate", "--noinput"],
            cwd=ROOT,
            env=self.env,
            check=True,
            capture_output=True,
        )
        with STATIC_LOCK.open("a+") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # let go as the file closes
            lock.seek(0)
            if lock.read() != RUN:
                subprocess.run(
                    [*manage, "collectstatic", "--noinput", "-v", "0"],
                    cwd=ROOT,
                    env=self.env,
                    check=True,
                    capture_output=True,
                )
                lock.truncate(0)
                lock.write(RUN)

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
