"""The site's logs: on stderr, from INFO up, in every process (Daphne's, ``manage.py
run_clock``, any other command), a line of text each (LOG_FORMAT=text) or one JSON object a line
(LOG_FORMAT=json); and the table and game a line is about.

The move path runs inside :func:`about_move`, and says which game it locked with
:func:`note_game`: every line logged meanwhile carries ``table_id`` and ``game_id``, and so does
the line of an error that escapes it, wherever that error is logged.
"""

from __future__ import annotations

import contextvars
import functools
import inspect
import logging
import time
from collections.abc import Callable, Sequence
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from pythonjsonlogger.json import JsonFormatter as JsonLinesFormatter

_move: contextvars.ContextVar[dict[str, int] | None] = contextvars.ContextVar(
    "taki_move", default=None
)
IDS = ("table_id", "game_id")


def about_move[**P, R](function: Callable[P, R]) -> Callable[P, R]:
    """Lines logged during ``function`` are about the move of the table or game its first
    argument (``table_id`` or ``game_id``) names."""
    name = next(iter(inspect.signature(function).parameters))
    if name not in IDS:
        raise TypeError(f"{function.__name__}'s first argument must be one of {IDS}")

    @functools.wraps(function)
    def logged(*args: P.args, **kwargs: P.kwargs) -> R:
        ids = {name: args[0] if args else kwargs[name]}
        token = _move.set(ids)
        try:
            return function(*args, **kwargs)
        except Exception as error:
            error.taki_ids = dict(ids)  # type: ignore[attr-defined]
            raise
        finally:
            _move.reset(token)

    return logged


def note_game(table_id: int, game_id: int) -> None:
    """The move being made is of this table's game."""
    ids = _move.get()
    if ids is not None:
        ids.update(table_id=table_id, game_id=game_id)


class MoveIds(logging.Filter):
    """Puts ``table_id`` and ``game_id`` on the records logged about a move."""

    def filter(self, record: logging.LogRecord) -> bool:
        ids = _move.get() or {}
        if record.exc_info and record.exc_info[1] is not None:
            ids = {**getattr(record.exc_info[1], "taki_ids", {}), **ids}
        for key, value in ids.items():
            if not hasattr(record, key):
                setattr(record, key, value)
        return True


class UtcTimes(logging.Formatter):
    """Times in UTC, ISO 8601 to the millisecond: ``2026-05-04T12:30:00.125Z``."""

    converter = time.gmtime
    default_time_format = "%Y-%m-%dT%H:%M:%S"
    default_msec_format = "%s.%03dZ"


class TextFormatter(UtcTimes):
    """A line of text: time, level, logger, message, the table and game when known; an error's
    traceback on the lines after it."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def formatMessage(self, record: logging.LogRecord) -> str:
        line = super().formatMessage(record)
        ids = " ".join(f"{key}={getattr(record, key)}" for key in IDS if hasattr(record, key))
        return f"{line} [{ids}]" if ids else line


class JsonFormatter(UtcTimes, JsonLinesFormatter):
    """One JSON object a line: ``time``, ``level``, ``logger``, ``message``, every field given
    with ``extra=`` (the table and game when known among them; what JSON cannot write, as text),
    the traceback of an error (``exception``) and the stack asked for with ``stack_info``
    (``stack``). A newline in any of them is written ``\\n``: one line stays one line."""

    def __init__(self) -> None:
        super().__init__(
            "{asctime}{levelname}{name}{message}",
            style="{",
            rename_fields={
                "asctime": "time",
                "levelname": "level",
                "name": "logger",
                "exc_info": "exception",
                "stack_info": "stack",
            },
            json_ensure_ascii=False,
        )


FORMATTERS = {"text": "lib.logs.TextFormatter", "json": "lib.logs.JsonFormatter"}


def logging_config(log_format: str, request_filters: Sequence[str] = ()) -> dict[str, Any]:
    """LOGGING: every line that reaches the root logger (the site's, Django's, Daphne's) goes to
    stderr in ``log_format`` (``text`` or ``json``), from INFO up, with the table and game of a
    move. Django's own handlers are left out (its console under DEBUG would write its lines a
    second time; the site mails no admins): its lines reach the root's.

    ``request_filters`` name ``logging.Filter`` classes (dotted paths) put on ``django.request``,
    the logger of Django's line about each answer with an error status (4xx, 5xx).

    :raises ImproperlyConfigured: for another format than ``text`` or ``json``.
    """
    if log_format not in FORMATTERS:
        raise ImproperlyConfigured(f"LOG_FORMAT must be text or json, not {log_format!r}")
    names = [f"request_{index}" for index in range(len(request_filters))]
    filters: dict[str, Any] = {
        name: {"()": path} for name, path in zip(names, request_filters, strict=True)
    }
    filters["move_ids"] = {"()": "lib.logs.MoveIds"}
    loggers: dict[str, Any] = {"django": {"handlers": [], "level": "INFO"}}
    if names:
        loggers["django.request"] = {"filters": names}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": filters,
        "formatters": {log_format: {"()": FORMATTERS[log_format]}},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "filters": ["move_ids"],
                "formatter": log_format,
            }
        },
        "root": {"handlers": ["stderr"], "level": "INFO"},
        "loggers": loggers,
    }
