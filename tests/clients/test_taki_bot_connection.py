"""The reference client's requests: one persistent HTTP/1.1 connection per thread, made again
once when the server has closed it, and the API's refusals read from its answers."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from clients.taki_bot import Api, ApiError


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, close_after_each: bool = False) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.close_after_each = close_after_each
        self.connections = 0
        self.requests: list[tuple[str, str, dict]] = []

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: Server

    def setup(self) -> None:
        super().setup()
        self.server.connections += 1

    def log_message(self, *args) -> None:
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append((self.path, self.headers["Authorization"], body))
        if self.path.endswith("/stale"):
            self.answer(409, {"error": {"code": "stale", "message": "The game moved on."}})
        else:
            self.answer(200, {"ok": True, "seen": len(self.server.requests)})
        if self.server.close_after_each:
            # Closed without saying so, as a server does with a connection left idle.
            self.close_connection = True

    def answer(self, status: int, body: dict) -> None:
        content = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(content)))
        self.end_headers()
        self.wfile.write(content)


@pytest.fixture
def serving(request) -> Iterator[Server]:
    server = Server(close_after_each=getattr(request, "param", False))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()
    thread.join(5)


def test_the_client_s_posts_share_one_connection(serving):
    api = Api(serving.url, "taki_x")
    answers = [api.post("/api/bot/game/7/action", {"version": n}) for n in range(5)]
    api.close()
    assert [answer["seen"] for answer in answers] == [1, 2, 3, 4, 5]
    assert serving.connections == 1
    assert serving.requests[4] == ("/api/bot/game/7/action", "Bearer taki_x", {"version": 4})


@pytest.mark.parametrize("serving", [True], indirect=True)
def test_a_connection_the_server_closed_is_made_again(serving):
    api = Api(serving.url, "taki_x")
    answers = [api.post("/api/challenge/3/accept") for _ in range(3)]
    api.close()
    assert [answer["seen"] for answer in answers] == [1, 2, 3]
    assert serving.connections == 3


def test_a_refusal_is_raised_with_its_code_and_the_connection_kept(serving):
    api = Api(serving.url, "taki_x")
    with pytest.raises(ApiError) as refused:
        api.post("/api/bot/game/7/stale", {"version": 1})
    assert (refused.value.status, refused.value.code) == (409, "stale")
    assert api.post("/api/bot/game/7/action", {"version": 2})["seen"] == 2
    api.close()
    assert serving.connections == 1
