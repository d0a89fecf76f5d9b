"""The site's logs, in either format, from every process: a line of text each (LOG_FORMAT=text)
or one JSON object a line (LOG_FORMAT=json), with the table and game of a move on each."""

from __future__ import annotations

import json
import logging
import os
import re
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.utils import timezone

from games import clock
from games.services import moves
from lib import logs
from tests.play import WINNING_RUN

pytestmark = pytest.mark.django_db


ROOT = Path(__file__).resolve().parents[2]
# A line of the text format: time (UTC, ISO 8601, to the millisecond), level, logger, message.
TIME = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"
TEXT_LINE = re.compile(rf"^{TIME} (?P<level>[A-Z]+) (?P<logger>[\w.]+): (?P<message>.*)$")


def collected(formatter: logging.Formatter) -> tuple[list[str], logging.Handler]:
    """A handler that keeps what it formats, with the site's filter of a move's table and game."""
    lines: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(self.format(record))

    handler = Collect()
    handler.addFilter(logs.MoveIds())
    handler.setFormatter(formatter)
    return lines, handler


@pytest.fixture(params=["json", "text"])
def lines_of(request) -> tuple[str, list[str]]:
    """What the site logs meanwhile, in each format, with the formatter LOGGING names for it."""
    config = logs.logging_config(request.param)
    [formatter] = config["formatters"].values()
    factory = formatter["()"]
    module, name = factory.rsplit(".", 1)
    lines, handler = collected(getattr(__import__(module, fromlist=[name]), name)())
    root = logging.getLogger()
    root.addHandler(handler)
    yield request.param, lines
    root.removeHandler(handler)


@pytest.fixture
def json_lines() -> list[str]:
    """What the site logs meanwhile, formatted as with LOG_FORMAT=json."""
    lines, handler = collected(logs.JsonFormatter())
    root = logging.getLogger()
    root.addHandler(handler)
    yield lines
    root.removeHandler(handler)


def run_clock_once(log_format: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """``manage.py run_clock --once`` with LOG_FORMAT=log_format, on a database with no tables
    (its tick fails: the clock logs the error and stops as asked)."""
    env = {
        key: value for key, value in os.environ.items() if key not in ("LOG_FORMAT", "REDIS_URL")
    }
    env.update(
        LOG_FORMAT=log_format,
        DATABASE_URL=f"sqlite:///{tmp_path / 'empty.sqlite3'}",
        PYTHONUNBUFFERED="1",
    )
    return subprocess.run(
        [sys.executable, "manage.py", "run_clock", "--once"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )


def test_run_clock_logs_text_lines_with_time_level_and_logger(tmp_path) -> None:
    stderr = run_clock_once("text", tmp_path).stderr.splitlines()

    lines = [match.groupdict() for line in stderr if (match := TEXT_LINE.match(line))]
    assert lines[0] == {
        "level": "INFO",
        "logger": "games.clock",
        "message": "the game clock is running in this process, every 0.25 s",
    }
    assert {
        "level": "ERROR",
        "logger": "games.clock",
        "message": "the game clock failed to tick",
    } in (lines)
    assert lines[-1]["message"] == "the game clock stopped; advanced 0 due games"
    # The error's traceback follows its line.
    assert "Traceback (most recent call last):" in stderr
    assert any(
        line.startswith("django.db.utils.OperationalError: no such table") for line in stderr
    )


def test_run_clock_logs_one_json_object_a_line(tmp_path) -> None:
    stderr = run_clock_once("json", tmp_path).stderr

    entries = [json.loads(line) for line in stderr.splitlines()]  # every line is one object
    first = entries[0]
    assert (first["level"], first["logger"]) == ("INFO", "games.clock")
    assert first["message"] == "the game clock is running in this process, every 0.25 s"
    assert re.fullmatch(TIME, first["time"])
    [error] = [entry for entry in entries if entry["level"] == "ERROR"]
    assert error["message"] == "the game clock failed to tick"
    assert error["exception"].startswith("Traceback (most recent call last):")
    assert "OperationalError: no such table" in error["exception"]
    assert entries[-1]["message"] == "the game clock stopped; advanced 0 due games"


def test_a_json_line_carries_the_extra_fields_and_the_stack(json_lines) -> None:
    logger = logging.getLogger("games.clock")

    logger.warning("slow tick", extra={"seconds": 1.5, "games": [4, 2], "site": object()})
    logger.warning("where am I", stack_info=True)

    slow, where = (json.loads(line) for line in json_lines)
    assert (slow["seconds"], slow["games"]) == (1.5, [4, 2])
    assert slow["site"].startswith("<object object at")  # what JSON cannot write, as text
    assert where["stack"].startswith("Stack (most recent call last):")
    assert "test_a_json_line_carries_the_extra_fields_and_the_stack" in where["stack"]


def test_a_json_line_is_one_line_whatever_its_message_and_traceback(json_lines) -> None:
    try:
        raise ValueError("two\nlines")
    except ValueError:
        logging.getLogger("games").exception("first\nsecond \u2014 «tercero»")

    [line] = json_lines
    assert "\n" not in line
    entry = json.loads(line)
    assert entry["message"] == "first\nsecond \u2014 «tercero»"
    assert entry["exception"].endswith("ValueError: two\nlines")


def test_a_line_logged_during_a_move_carries_its_table_and_game(
    lines_of, alice, make_table, rig
) -> None:
    table = make_table(bot_seats=1, turn_seconds=None, start=True)
    game = rig(table, WINNING_RUN, leading="red:9", first_player=1)  # the bot is to play

    def nonsense(turn) -> dict:
        return {"type": "nonsense", "player": turn.position}

    moves.advance(game.pk, timezone.now() + timedelta(seconds=5), think=nonsense)

    log_format, lines = lines_of
    if log_format == "json":
        entry = json.loads(lines[-1])
        assert entry["message"].startswith(f"game {game.pk} refused a greedy bot's choice")
        assert (entry["table_id"], entry["game_id"]) == (table.pk, game.pk)
        assert entry["level"] == "WARNING" and entry["logger"] == "games.services.moves"
    else:
        line = TEXT_LINE.match(lines[-1]).groupdict()
        assert (line["level"], line["logger"]) == ("WARNING", "games.services.moves")
        assert line["message"].startswith(f"game {game.pk} refused a greedy bot's choice")
        assert line["message"].endswith(f" [table_id={table.pk} game_id={game.pk}]")


def test_the_clocks_error_about_a_game_names_the_game(json_lines, monkeypatch) -> None:
    monkeypatch.setattr(clock, "due_game_ids", lambda now=None: [4242])
    monkeypatch.setattr(moves, "retried_while_locked", lambda work: 1 / 0)

    clock.Clock().play_due()

    entry = json.loads(json_lines[-1])
    assert entry["message"] == "the game clock could not advance game 4242"
    assert entry["game_id"] == 4242
    assert "ZeroDivisionError" in entry["exception"]


def test_the_log_format_is_text_or_json() -> None:
    for log_format, formatter in (("text", "TextFormatter"), ("json", "JsonFormatter")):
        config = logs.logging_config(log_format)
        [handler] = config["root"]["handlers"]
        assert config["root"]["level"] == "INFO"
        assert config["handlers"][handler]["filters"] == ["move_ids"]
        named = config["formatters"][config["handlers"][handler]["formatter"]]
        assert named == {"()": f"lib.logs.{formatter}"}
    with pytest.raises(ImproperlyConfigured, match="LOG_FORMAT"):
        logs.logging_config("xml")


def test_filters_are_put_on_django_s_request_logger_in_either_format() -> None:
    for log_format in ("text", "json"):
        config = logs.logging_config(log_format, request_filters=["monitoring.logs.HealthAnswers"])
        [name] = config["loggers"]["django.request"]["filters"]
        assert config["filters"][name] == {"()": "monitoring.logs.HealthAnswers"}
        assert "move_ids" in config["filters"]  # the format's own filter is still there
    assert "django.request" not in logs.logging_config("text")["loggers"]


def test_django_s_lines_reach_the_site_s_handler_once() -> None:
    """Django's own console handler (under DEBUG) would write its lines a second time."""
    assert logs.logging_config("text")["loggers"]["django"] == {"handlers": [], "level": "INFO"}
    django = logging.getLogger("django")
    assert django.handlers == [] and django.propagate
