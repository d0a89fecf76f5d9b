"""LOG_FORMAT=json: one JSON object a line, with the table and game of a move on each."""

from __future__ import annotations

import json
import logging

import pytest
from django.core.exceptions import ImproperlyConfigured

from games import clock
from games.models import Game
from games.services import moves
from lib import logs

pytestmark = pytest.mark.django_db


@pytest.fixture
def json_lines() -> list[str]:
    """What the site logs meanwhile, formatted as with LOG_FORMAT=json."""
    lines: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(self.format(record))

    handler = Collect()
    handler.addFilter(logs.MoveIds())
    handler.setFormatter(logs.JsonFormatter())
    root = logging.getLogger()
    root.addHandler(handler)
    yield lines
    root.removeHandler(handler)


def test_a_line_logged_during_a_move_carries_its_table_and_game(
    json_lines, alice, bob, make_table, monkeypatch
) -> None:
    table = make_table(players=[bob], start=True)
    game = Game.objects.get(table=table)
    monkeypatch.setattr(moves, "_lock_game", _logged_after(moves._lock_game))
    with pytest.raises(Exception):  # noqa: B017 - whichever refusal: the line is what counts
        moves.submit_action(table.pk, alice, {"type": "nonsense", "version": game.version})

    entry = json.loads(json_lines[-1])
    assert entry["message"] == "locked"
    assert (entry["table_id"], entry["game_id"]) == (table.pk, game.pk)
    assert entry["level"] == "WARNING" and entry["logger"] == "games.services.moves"


def _logged_after(lock):
    def lock_and_log(table_id: int):
        locked = lock(table_id)
        logging.getLogger("games.services.moves").warning("locked")
        return locked

    return lock_and_log


def test_the_clocks_error_about_a_game_names_the_game(json_lines, monkeypatch) -> None:
    monkeypatch.setattr(clock, "due_game_ids", lambda now=None: [4242])
    monkeypatch.setattr(moves, "serialised", lambda work: 1 / 0)

    clock.play_due()

    entry = json.loads(json_lines[-1])
    assert entry["message"] == "the game clock could not advance game 4242"
    assert entry["game_id"] == 4242
    assert "ZeroDivisionError" in entry["exception"]


def test_the_log_format_is_text_or_json() -> None:
    assert "root" not in logs.logging_config("text")
    assert logs.logging_config("json")["root"]["handlers"] == ["json"]
    with pytest.raises(ImproperlyConfigured, match="LOG_FORMAT"):
        logs.logging_config("xml")
