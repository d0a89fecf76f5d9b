"""The flooding client of ``make bench-flood``, a process of its own so that its writing does not
slow the measured clients down: ``python -m tools.loadtest.flooder URL COOKIE TABLE SOCKETS
SECONDS``. Opens SOCKETS sockets of the table with the session cookie COOKIE and writes refused
clicks into each as fast as the connection takes them, never reading what the site sends back;
opens another whenever the site closes one. Prints what it did as JSON. Standard library and
aiohttp only: no Django here.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections import Counter

import aiohttp

FRAME = json.dumps({"type": "draw", "version": -1})
YIELD_EVERY = 50  # frames a socket writes before letting the others write
CLOSE_READ_SECONDS = 3.0  # how long to read, after a failed write, for the close code


class Flood:
    def __init__(self) -> None:
        self.frames = 0
        self.opened = 0
        self.closes: Counter[str] = Counter()


async def flood(url: str, cookie: str, table_id: int, sockets: int, seconds: float) -> Flood:
    done = Flood()
    stop_at = time.monotonic() + seconds
    headers = {"Cookie": cookie, "Origin": url}
    async with aiohttp.ClientSession(base_url=url, headers=headers) as session:
        writers = [_write(session, table_id, stop_at, done) for _ in range(sockets)]
        await asyncio.gather(*writers)
    return done


async def _write(
    session: aiohttp.ClientSession, table_id: int, stop_at: float, done: Flood
) -> None:
    while time.monotonic() < stop_at:
        try:
            ws = await session.ws_connect(f"/ws/tables/{table_id}/", max_msg_size=0)
        except aiohttp.ClientError as error:
            done.closes[f"refused ({getattr(error, 'status', '')})"] += 1
            await asyncio.sleep(0.05)
            continue
        done.opened += 1
        try:
            while time.monotonic() < stop_at:
                for _ in range(YIELD_EVERY):
                    await ws.send_str(FRAME)
                    done.frames += 1
                await asyncio.sleep(0)
        except (ConnectionError, aiohttp.ClientError, RuntimeError):
            done.closes[str(await _close_code(ws))] += 1
        finally:
            await ws.close()


async def _close_code(ws: aiohttp.ClientWebSocketResponse) -> int | None:
    """The code the site closed the socket with, read past the pushes left unread; 1006 when
    the connection was dropped before the close frame could be read."""
    deadline = time.monotonic() + CLOSE_READ_SECONDS
    closing = (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSING, aiohttp.WSMsgType.CLOSED)
    while (left := deadline - time.monotonic()) > 0:
        try:
            message = await ws.receive(timeout=left)
        except (TimeoutError, aiohttp.ClientError, RuntimeError):
            break
        if message.type in closing:
            return int(ws.close_code if ws.close_code is not None else message.data)
        if message.type == aiohttp.WSMsgType.ERROR:
            break
    return ws.close_code


def main(argv: list[str]) -> None:
    url, cookie, table_id, sockets, seconds = argv
    done = asyncio.run(flood(url, cookie, int(table_id), int(sockets), float(seconds)))
    print(json.dumps({"frames": done.frames, "opened": done.opened, "closes": done.closes}))


if __name__ == "__main__":
    main(sys.argv[1:])
