"""A back-up is proven by its restore: the commands of docs/deployment.md dump a database of
finished and running games, restore the dump into a new empty database, and the site reads
there the same rows, every game's hash chain whole and replaying to its stored state, and plays
on. On the throwaway PostgreSQL of .ci/with-services only (make test's second pass)."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection

from games.models import Game, Table
from games.services.history import verify_game
from tests.play import play_next_move, play_to_the_end

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "deployment.md"

# The docs' commands, as this test runs them: the docs show them with DOCS_VALUES.
DUMP = "pg_dump --format=custom --file={dump} {database}"
CREATE = "createdb {restored}"
RESTORE = "pg_restore --dbname={restored} --no-owner --exit-on-error {dump}"
DOCS_VALUES = {"dump": "taki-$(date +%F).dump", "database": "taki", "restored": "taki_restored"}
DOCS_RESTORE_VALUES = {**DOCS_VALUES, "dump": "taki-2026-12-01.dump"}


def on_postgresql[F](test: F) -> F:
    """A test of the dump and restore: on PostgreSQL, its rows committed (pg_dump reads them
    from a session of its own)."""
    for mark in (
        pytest.mark.postgresql,
        pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's back-ups"),
        pytest.mark.django_db(transaction=True),
    ):
        test = mark(test)
    return test


def database_summary() -> dict[str, Any]:
    """What the database holds, as the site reads it: every table's row count, and each game's
    moves, state and whether its log verifies."""
    with connection.cursor() as cursor:
        rows = {}
        for table in sorted(connection.introspection.table_names(cursor)):
            cursor.execute(f"SELECT COUNT(*) FROM {connection.ops.quote_name(table)}")
            rows[table] = cursor.fetchone()[0]
    games = {
        str(game.pk): {
            "table": game.table_id,
            "version": game.version,
            "moves": game.moves.count(),
            "finished": game.finished,
            "winner": game.winner,
            "state": game.state,
            "last_digest": game.last_digest,
            "verified": verify_game(game),
        }
        for game in Game.objects.order_by("pk")
    }
    return {"rows": rows, "games": games}


def play_on(table_id: int) -> dict[str, Any]:
    """The restored site goes on: a move at a running table, stored after the restored ones."""
    table = Table.objects.get(pk=table_id)
    people = [seat.user for seat in table.seats.select_related("user") if seat.user]
    version = play_next_move(table, *people)
    game = Game.objects.get(table=table)
    return {"version": version, "stored": game.version, "verified": verify_game(game)}


def _connection_env() -> dict[str, str]:
    """The environment that points PostgreSQL's programs at the test database's server."""
    database = settings.DATABASES["default"]
    env = {**os.environ, "PGHOST": database["HOST"] or "", "PGUSER": database["USER"] or ""}
    if database["PORT"]:
        env["PGPORT"] = str(database["PORT"])
    if database["PASSWORD"]:
        env["PGPASSWORD"] = database["PASSWORD"]
    return env


def run(command: str, **values: str) -> None:
    """One of the docs' commands, with the test's values."""
    argv = shlex.split(command.format(**{key: shlex.quote(v) for key, v in values.items()}))
    if shutil.which(argv[0]) is None:
        pytest.fail(f"{argv[0]} is not installed: the back-up's commands need it")
    done = subprocess.run(argv, env=_connection_env(), capture_output=True, text=True)
    assert done.returncode == 0, f"{argv}:\n{done.stdout}{done.stderr}"


def on_restored(restored: str, code: str) -> Any:
    """Run ``code`` (which prints JSON) in a new process of the site on the restored database."""
    database = settings.DATABASES["default"]
    auth = database["USER"] + (f":{database['PASSWORD']}" if database["PASSWORD"] else "")
    port = f":{database['PORT']}" if database["PORT"] else ""
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{auth}@{database['HOST']}{port}/{restored}",
    }
    for name in ("REDIS_URL", "PROMETHEUS_MULTIPROC_DIR"):  # the database alone
        env.pop(name, None)
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.fixture
def restored_name() -> Iterator[str]:
    """A new database's name, dropped at the end."""
    name = f"taki_restored_{uuid.uuid4().hex[:12]}"
    yield name
    subprocess.run(
        ["dropdb", "--if-exists", name], env=_connection_env(), capture_output=True, check=False
    )


def test_the_docs_show_the_commands_the_test_runs() -> None:
    docs = DOCS.read_text()

    assert DUMP.format(**DOCS_VALUES) in docs
    assert CREATE.format(**DOCS_RESTORE_VALUES) in docs
    assert RESTORE.format(**DOCS_RESTORE_VALUES) in docs


def dump_and_restore(dump: Path, restored: str) -> None:
    """The docs' back-up of the test database into ``dump``, restored into ``restored``."""
    run(DUMP, dump=str(dump), database=settings.DATABASES["default"]["NAME"])
    restore(dump, restored)


def restore(dump: Path, restored: str) -> None:
    run(CREATE, restored=restored)
    run(RESTORE, restored=restored, dump=str(dump))


SUMMARY = (
    "import json; from tests.taki_site.test_backups import database_summary;"
    " print(json.dumps(database_summary()))"
)


@on_postgresql
def test_a_restored_dump_holds_every_game_verified_and_every_row(
    tmp_path, restored_name, alice, bob, carol, make_table
) -> None:
    for opponent in (bob, carol):  # finished games
        play_to_the_end(make_table(players=[opponent], start=True))
    running = make_table(players=[bob, carol], seat_count=3, start=True)
    for _ in range(6):
        play_next_move(running, alice, bob, carol)
    make_table(players=[carol], start=True)  # started, no move yet
    make_table(players=[bob])  # open, no game
    before = database_summary()
    assert sum(game["finished"] for game in before["games"].values()) == 2
    assert sum(not game["finished"] for game in before["games"].values()) == 2
    assert all(game["verified"] for game in before["games"].values())

    dump_and_restore(tmp_path / "taki.dump", restored_name)

    assert on_restored(restored_name, SUMMARY) == before
    went_on = on_restored(
        restored_name,
        "import json; from tests.taki_site.test_backups import play_on;"
        f" print(json.dumps(play_on({running.pk})))",
    )
    assert went_on == {"version": 7, "stored": 7, "verified": True}


@on_postgresql
def test_a_dump_taken_while_moves_are_played_restores_every_game_whole(
    tmp_path, restored_name, alice, bob, make_table
) -> None:
    tables = [make_table(players=[bob], start=True) for _ in range(3)]
    dump = tmp_path / "taki.dump"
    argv = shlex.split(
        DUMP.format(dump=shlex.quote(str(dump)), database=settings.DATABASES["default"]["NAME"])
    )

    dumping = subprocess.Popen(argv, env=_connection_env(), stderr=subprocess.PIPE, text=True)
    played = 0
    while dumping.poll() is None or played < len(tables):
        table = tables[played % len(tables)]
        if not Game.objects.get(table=table).finished:
            play_next_move(table, alice, bob)
        played += 1
    assert dumping.wait() == 0, dumping.stderr.read()
    restore(dump, restored_name)

    after = on_restored(restored_name, SUMMARY)
    assert len(after["games"]) == len(tables)
    for game in after["games"].values():
        assert game["verified"], game  # each move whole, with its state: none half-written
        assert game["moves"] == game["version"]
    assert after["rows"]["games_move"] == sum(g["moves"] for g in after["games"].values())
