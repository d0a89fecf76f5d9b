"""Daphne, started as the Procfile starts it, refuses a websocket message too long for any frame
a table's page sends, before reading it whole: the socket is closed (1009, "message too big"),
and the server's memory does not grow with what was sent. A frame as long as the site reads
(``games.live.frames.MAX_FRAME_CHARS`` characters, each of them 4 bytes of UTF-8) still reaches
the table, which answers it.

The site runs on a throwaway SQLite database with one public table, which a visitor may watch.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import pytest

from games.live.frames import MAX_FRAME_CHARS
from tests.conftest import free_port
from tests.taki_site.test_deploy import ROOT, launcher

KIB = 1024
MESSAGE_TOO_BIG = 1009
# A connection dropped before its close frame was read (aiohttp's code for it): the server drops
# the connection while the client is still writing the frame.
DROPPED = 1006
NOT_UNDERSTOOD = "That request is not understood."
START_TIMEOUT = 30.0
ANSWER_TIMEOUT = 10.0
LARGE_FRAME = 2 * KIB * KIB
LARGE_FRAMES = 8  # 16 MiB sent in all

MAKE_TABLE = """
from django.contrib.auth import get_user_model
from django.core.management import call_command
from games.services import tables
call_command("migrate", verbosity=0)
host = get_user_model().objects.create_user("host", password="x")
print(tables.create_table(host, name="Watched", seat_count=2, turn_seconds=None).pk)
"""


@dataclass
class Site:
    url: str
    table_id: int
    process: subprocess.Popen[bytes]

    @property
    def socket_url(self) -> str:
        return f"{self.url.replace('http', 'ws', 1)}/ws/tables/{self.table_id}/"

    def resident_kib(self) -> int:
        """Daphne's resident memory now (VmRSS of /proc/<pid>/status)."""
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise AssertionError("no VmRSS in /proc/<pid>/status")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """The site served by the Procfile's ``web`` command line, on a database of its own."""
    tmp_path = tmp_path_factory.mktemp("websocket-limits")
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'site.sqlite3'}",
        "DEBUG": "0",
        "PYTHONUNBUFFERED": "1",
        "ANONYMOUS_SOCKETS_PER_ADDRESS": "1000",  # every socket here is a visitor's
    }
    env.pop("REDIS_URL", None)
    made = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", MAKE_TABLE],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    table_id = int(made.stdout.split()[-1])
    port = free_port()
    web = launcher().procfile_commands()["web"]
    log_path = tmp_path / "daphne.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            launcher().command_line(web, port),
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            try:
                urllib.request.urlopen(f"{url}/healthz", timeout=1).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail("Daphne did not start:\n" + log_path.read_text())
                time.sleep(0.1)
        yield Site(url, table_id, process)
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@dataclass
class Outcome:
    """What became of a socket after it sent one frame: ``answered`` with what the site sent
    back, the socket still open, else the code it was closed with."""

    answered: str | None
    close_code: int | None = None


async def send_one_frame(site: Site, text: str) -> Outcome:
    """Open a table socket as a visitor's page would, wait for the table, send ``text`` as one
    frame, and see what comes back."""
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(site.socket_url, origin=site.url, max_msg_size=0) as ws,
    ):
        table = await ws.receive(timeout=ANSWER_TIMEOUT)
        assert table.type == aiohttp.WSMsgType.TEXT, table  # the table, drawn on connect
        with contextlib.suppress(ConnectionError):  # the server may drop it while it is written
            await ws.send_str(text)
        answer = await ws.receive(timeout=ANSWER_TIMEOUT)
        if answer.type == aiohttp.WSMsgType.TEXT:
            return Outcome(answered=answer.data)
        return Outcome(answered=None, close_code=ws.close_code)


def hold_a_frame(site: Site, size: int) -> socket.socket:
    """Open a table socket by hand, as a visitor's page would, and send a text frame of
    ``size`` bytes but its last byte, keeping the connection open: a server that reads frames
    as they come holds what it has of this one until the rest arrives."""
    host = site.url.removeprefix("http://")
    sock = socket.create_connection(("127.0.0.1", int(host.rsplit(":", 1)[1])), timeout=5)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        f"GET /ws/tables/{site.table_id}/ HTTP/1.1\r\nHost: {host}\r\nOrigin: {site.url}\r\n"
        f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    response = b""
    while b"\r\n\r\n" not in response:
        response += sock.recv(4096)
    assert response.startswith(b"HTTP/1.1 101 "), response
    # FIN and text; masked (by a mask of zeros), the length in the 8 bytes after 127.
    header = bytes([0x81, 0x80 | 127]) + size.to_bytes(8, "big") + bytes(4)
    with contextlib.suppress(ConnectionError):  # the server may drop it while it is written
        sock.sendall(header + b"x" * (size - 1))
    return sock


def close_code(sock: socket.socket) -> int | None:
    """The code of the close frame the server sent on ``sock`` (DROPPED when the connection
    ended without one), or None while it stays open."""
    received = b""
    sock.settimeout(2)
    try:
        while chunk := sock.recv(65536):
            received += chunk
    except TimeoutError:
        return None
    except ConnectionError:
        pass
    while len(received) >= 2:  # the server's frames (unmasked): the table, then a close
        opcode, length, start = received[0] & 0x0F, received[1] & 0x7F, 2
        if length >= 126:  # the length is in the next 2 bytes (126) or 8 (127)
            start += 2 if length == 126 else 8
            length = int.from_bytes(received[2:start], "big")
        if opcode == 0x8 and length >= 2:
            return int.from_bytes(received[start : start + 2], "big")
        received = received[start + length :]
    return DROPPED


def refused(outcome: Outcome) -> bool:
    return outcome.answered is None and outcome.close_code in (MESSAGE_TOO_BIG, DROPPED)


def test_a_frame_of_the_longest_the_site_reads_reaches_the_table(site: Site) -> None:
    longest = "😀" * MAX_FRAME_CHARS  # 16 KiB of UTF-8

    outcome = asyncio.run(send_one_frame(site, longest))

    assert outcome.answered is not None, outcome  # on a socket still open
    assert NOT_UNDERSTOOD in outcome.answered  # the table read it, and refused it as no form's


def test_a_frame_of_64_kib_is_refused_by_daphne(site: Site) -> None:
    outcome = asyncio.run(send_one_frame(site, "x" * (64 * KIB)))

    assert refused(outcome), outcome


def test_frames_of_2_mib_are_refused_and_the_server_holds_no_memory_for_them(site: Site) -> None:
    asyncio.run(send_one_frame(site, "x" * (64 * KIB)))  # the first socket's own allocations
    before = site.resident_kib()

    held = [hold_a_frame(site, LARGE_FRAME) for _ in range(LARGE_FRAMES)]
    time.sleep(0.5)  # for a server that reads them to have read them
    grown = site.resident_kib() - before
    closes = [close_code(sock) for sock in held]
    for sock in held:
        sock.close()

    assert all(code in (MESSAGE_TOO_BIG, DROPPED) for code in closes), closes
    # 16 MiB were sent; a server that read the frames would be holding all of it.
    assert grown < 4 * KIB, f"Daphne grew by {grown} KiB"
