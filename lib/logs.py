"""Logs a machine can read: one JSON object a line (LOG_FORMAT=json), and the table and game a
line is about.

The move path runs inside :func:`about_move`, and says which game it locked with
:func:`note_game`: every line logged meanwhile carries ``table_id`` and ``game_id``, and so does
the line of an error that escapes it, wherever that error is logged.
"""

from __future__ import annotations

import contextvars
import functools
import inspect
import json
import logging
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from django.core.exceptions import ImproperlyConfigured

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


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time (UTC, ISO 8601), level, logger, message, the table and game
    when known, and the traceback of an error."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key in IDS:
            if hasattr(record, key):
                entry[key] = getattr(record, key)
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


def logging_config(log_format: str, request_filters: Sequence[str] = ()) -> dict[str, Any]:
    """LOGGING: Django's own unless LOG_FORMAT is ``json``; then every line that reaches the root
    logger (the site's, Django's, Daphne's) goes to stderr as JSON, from INFO up.

    ``request_filters`` name ``logging.Filter`` classes (dotted paths) put on ``django.request``,
    the logger of Django's line about each answer with an error status (4xx, 5xx).

    :raises ImproperlyConfigured: for another format than ``text`` or ``json``.
    """
    if log_format not in ("text", "json"):
        raise ImproperlyConfigured(f"LOG_FORMAT must be text or json, not {log_format!r}")
    config: dict[str, Any] = {"version": 1, "disable_existing_loggers": False}
    if request_filters:
        names = [f"request_{index}" for index in range(len(request_filters))]
        config["filters"] = {
            name: {"()": path} for name, path in zip(names, request_filters, strict=True)
        }
        config["loggers"] = {"django.request": {"filters": names}}
    if log_format == "json":
        config.setdefault("filters", {})["move_ids"] = {"()": "lib.logs.MoveIds"}
        config["formatters"] = {"json": {"()": "lib.logs.JsonFormatter"}}
        config["handlers"] = {
            "json": {"class": "logging.StreamHandler", "filters": ["move_ids"], "formatter": "json"}
        }
        config["root"] = {"handlers": ["json"], "level": "INFO"}
    return config
