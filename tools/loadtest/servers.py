"""Daphne processes for the benchmark: started on free loopback ports, measured, always stopped."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SETTINGS_MODULE = "tools.loadtest.settings"
SITE_APP = "taki_site.asgi:application"
CEILING_APP = "tools.loadtest.ceiling:application"
START_TIMEOUT = 30.0
STOP_GRACE = 10.0
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


class ServerError(RuntimeError):
    """A Daphne process did not start, or died."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def server_env(
    settings_module: str = SETTINGS_MODULE, changes: dict[str, str | None] | None = None
) -> dict[str, str]:
    """The caller's environment (DATABASE_URL, REDIS_URL, ...) with DEBUG off and the
    benchmark's settings module (the site's, with a fast password hasher), then ``changes``
    (a variable set to None is removed)."""
    env = {
        **os.environ,
        "DEBUG": "0",
        "PYTHONUNBUFFERED": "1",
        "DJANGO_SETTINGS_MODULE": settings_module,
    }
    for name, value in (changes or {}).items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


def cpu_seconds(pid: int) -> float:
    """utime + stime of one process, from /proc/<pid>/stat (fields 14 and 15)."""
    with open(f"/proc/{pid}/stat") as stat:
        # The command name (field 2) may hold spaces: split after its closing parenthesis.
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


class DaphneGroup:
    """``count`` Daphne processes serving ``app``, each on its own port; a context manager
    that stops them all on the way out, whatever happened (Ctrl-C included)."""

    def __init__(
        self,
        app: str,
        count: int,
        log_dir: Path,
        name: str,
        settings_module: str = SETTINGS_MODULE,
        env: dict[str, str | None] | None = None,
    ) -> None:
        self.app = app
        self.settings_module = settings_module
        self.env_changes = env or {}
        self.count = count
        self.log_dir = log_dir
        self.name = name
        self.ports: list[int] = []
        self.processes: list[subprocess.Popen[bytes]] = []

    def __enter__(self) -> DaphneGroup:
        try:
            self.start()
        except BaseException:
            self.stop(grace=2.0)
            raise
        return self

    def __exit__(self, exc_type: type[BaseException] | None, *exc_info: object) -> None:
        # After a failure or Ctrl-C, nothing is left to finish cleanly: do not wait long.
        self.stop(grace=STOP_GRACE if exc_type is None else 2.0)

    @property
    def urls(self) -> list[str]:
        return [f"http://127.0.0.1:{port}" for port in self.ports]

    def start(self) -> None:
        env = server_env(self.settings_module, self.env_changes)
        for index in range(self.count):
            port = free_port()
            log = (self.log_dir / f"daphne-{self.name}-{index}.log").open("ab")
            command = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port)]
            process = subprocess.Popen(
                [*command, self.app], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
            )
            log.close()  # the child holds its own copy
            self.ports.append(port)
            self.processes.append(process)
        for index, url in enumerate(self.urls):
            self._wait_until_up(index, url)

    def _wait_until_up(self, index: int, url: str) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            try:
                urllib.request.urlopen(url + "/", timeout=1).close()
                return
            except urllib.error.HTTPError:
                return  # it answers (the ceiling has no pages: 404 is fine)
            except OSError:
                if self.processes[index].poll() is not None or time.monotonic() > deadline:
                    log = self.log_dir / f"daphne-{self.name}-{index}.log"
                    raise ServerError(
                        f"Daphne ({self.app}) did not start:\n{log.read_text()}"
                    ) from None
                time.sleep(0.1)

    def check_alive(self) -> None:
        for index, process in enumerate(self.processes):
            if process.poll() is not None:
                log = self.log_dir / f"daphne-{self.name}-{index}.log"
                raise ServerError(f"Daphne ({self.app}) died:\n{log.read_text()[-3000:]}")

    def cpu_seconds(self) -> float:
        """CPU time used so far by all the processes (user + system)."""
        return sum(cpu_seconds(process.pid) for process in self.processes)

    def stop(self, grace: float = STOP_GRACE) -> None:
        """SIGTERM (Daphne's graceful shutdown), then SIGKILL for any still there after
        ``grace`` seconds."""
        for process in self.processes:
            if process.poll() is None:
                process.terminate()
        deadline = time.monotonic() + grace
        for process in self.processes:
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(timeout=5)
        self.processes = []


class RedisServer:
    """A redis-server of the benchmark's own on a free loopback port, saving nothing; a context
    manager that stops it on the way out. Its CPU counts with the servers' (``pid``)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None

    @staticmethod
    def installed() -> bool:
        return shutil.which("redis-server") is not None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def __enter__(self) -> RedisServer:
        server = shutil.which("redis-server")
        if server is None:
            raise ServerError("redis-server is not installed: install it or set REDIS_URL")
        self.port = free_port()
        command = [server, "--bind", "127.0.0.1", "--port", str(self.port), "--save", ""]
        self.process = subprocess.Popen(
            [*command, "--dir", str(self.folder)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return self
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.__exit__(None)
                    raise ServerError("redis-server did not start") from None
                time.sleep(0.05)

    def __exit__(self, exc_type: type[BaseException] | None, *exc_info: object) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=STOP_GRACE)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
