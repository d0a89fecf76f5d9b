"""LOG_FORMAT=json: one JSON object a line, with the table and game of a move on each."""

from __future__ import annotations

import json
import logging
from datetime import timedelta

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.utils import timezone

from games import clock
from games.services import moves
from lib import logs
from tests.play import WINNING_RUN

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
    json_lines, alice, make_table, rig
) -> None:
    table = make_table(bot_seats=1, turn_seconds=None, start=True)
    game = rig(table, WINNING_RUN, leading="red:9", first_player=1)  # the bot is to play

    def nonsense(turn) -> dict:
        return {"type": "nonsense", "player": turn.position}

    moves.advance(game.pk, timezone.now() + timedelta(seconds=5), think=nonsense)

    entry = json.loads(json_lines[-1])
    assert entry["message"].startswith(f"game {game.pk} refused a greedy bot's choice")
    assert (entry["table_id"], entry["game_id"]) == (table.pk, game.pk)
    assert entry["level"] == "WARNING" and entry["logger"] == "games.services.moves"


def test_the_clocks_error_about_a_game_names_the_game(json_lines, monkeypatch) -> None:
    monkeypatch.setattr(clock, "due_game_ids", lambda now=None: [4242])
    monkeypatch.setattr(moves, "retried_while_locked", lambda work: 1 / 0)

    clock.Clock().play_due()

    entry = json.loads(json_lines[-1])
    assert entry["message"] == "the game clock could not advance game 4242"
    assert entry["game_id"] == 4242
    assert "ZeroDivisionError" in entry["exception"]


def test_the_log_format_is_text_or_json() -> None:
    assert "root" not in logs.logging_config("text")
    assert logs.logging_config("json")["root"]["handlers"] == ["json"]
    with pytest.raises(ImproperlyConfigured, match="LOG_FORMAT"):
        logs.logging_config("xml")


def test_filters_are_put_on_django_s_request_logger_in_either_format() -> None:
    for log_format in ("text", "json"):
        config = logs.logging_config(log_format, request_filters=["monitoring.logs.HealthAnswers"])
        [name] = config["loggers"]["django.request"]["filters"]
        assert config["filters"][name] == {"()": "monitoring.logs.HealthAnswers"}
    assert "move_ids" in config["filters"]  # the JSON format's own filter is still there
    assert "loggers" not in logs.logging_config("text")
