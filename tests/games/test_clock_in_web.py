"""A web process plays due moves from its start, with no websocket connected to it."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from tests.conftest import free_port

ROOT = Path(__file__).resolve().parents[2]

# A bot's move or, if the host is first to play, the host's R23 timeout after one second: a
# move is owed either way.
MAKE_BOT_GAME = """
from django.contrib.auth import get_user_model
from games.services import tables
host = get_user_model().objects.create_user("host", password="x")
table = tables.create_table(host, name="Bots", seat_count=3, bot_seats=2, turn_seconds=1)
tables.start_game(table.pk, host)
"""


def versions(db: Path) -> list[int]:
    with sqlite3.connect(db) as connection:
        return [row[0] for row in connection.execute("SELECT version FROM games_game")]


def test_daphne_plays_the_bots_with_nobody_connected(tmp_path) -> None:
    db = tmp_path / "site.sqlite3"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db}", "PYTHONUNBUFFERED": "1"}
    env.pop("REDIS_URL", None)
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "-v", "0"], cwd=ROOT, env=env, check=True)
    subprocess.run([*manage, "shell", "-c", MAKE_BOT_GAME], cwd=ROOT, env=env, check=True)
    daphne = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(free_port())]
    server = subprocess.Popen(
        [*daphne, "taki_site.asgi:application"], cwd=ROOT, env=env, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 15
        while versions(db) == [0] and time.monotonic() < deadline:
            time.sleep(0.2)
        assert versions(db)[0] >= 1, "no bot moved: the clock did not start with the server"
    finally:
        server.terminate()
        server.wait(timeout=10)
