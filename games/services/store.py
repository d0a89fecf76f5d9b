"""The move path's statements, each written once.

A move is a handful of statements under one lock: read the game and its table, read the seats,
append the move, save the game. Built by the ORM, each of them costs about a millisecond of
query compilation (most of a move's database time, measured with ``make bench-load``); the
statements themselves run in a tenth of that. So here each is written once, from the models'
own metadata (table and column names, quoting of the connection in use), and run with new
values, converted both ways by the models' own fields: what is read is what the ORM would have
loaded, and what is written is what ``save()`` would have written. Everything else in the site
uses the ORM.

Model signals do not fire for these rows (no code listens to them).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any
from weakref import WeakKeyDictionary

from django.contrib.auth import get_user_model
from django.db import connection, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model

from games.models import Game, Move, Seat, Table

# What the move path reads of each model (the other fields are deferred: loaded if touched).
GAME_FIELDS = (
    "id",
    "table_id",
    "players",
    "state",
    "version",
    "last_digest",
    "next_due",
    "turn_deadline",
    "winner",
    "finished_at",
)
TABLE_FIELDS = ("id", "name", "host_id", "seat_count", "turn_seconds", "public", "status")
SEAT_FIELDS = ("id", "table_id", "position", "user_id", "bot", "timeouts", "replaced_user_id")
USER_FIELDS = ("id", "username", "is_active")


class _Columns:
    """Some fields of a model: their columns in a select list, and loading a row of them into
    an instance as the ORM does (``Model.from_db`` after the fields' database converters)."""

    def __init__(self, model: type[Model], names: Sequence[str], alias: str) -> None:
        meta = model._meta
        self.model = model
        self.fields: list[Field] = [meta.get_field(name.removesuffix("_id")) for name in names]
        self.attnames = [field.attname for field in self.fields]
        quote = connection.ops.quote_name
        self.select = ", ".join(f"{quote(alias)}.{quote(f.column)}" for f in self.fields)
        self._converters: list[tuple[Any, list[Callable[..., Any]]]] = []
        for field in self.fields:
            column = field.get_col(alias)
            converters = connection.ops.get_db_converters(column)
            converters += field.get_db_converters(connection)
            self._converters.append((column, converters))

    def load(self, values: Sequence[Any]) -> Model:
        converted = []
        for value, (column, converters) in zip(values, self._converters, strict=True):
            for convert in converters:
                value = convert(value, column, connection)
            converted.append(value)
        return self.model.from_db(connection.alias, self.attnames, converted)


_written: WeakKeyDictionary[BaseDatabaseWrapper, dict[str, Any]] = WeakKeyDictionary()


def _prepared() -> dict[str, Any]:
    """The statements for the connection in use (each thread has its own): written once."""
    wrapper = connections[connection.alias]
    statements = _written.get(wrapper)
    if statements is None:
        statements = _written[wrapper] = _statements()
    return statements


def _statements() -> dict[str, Any]:
    quote = connection.ops.quote_name
    user_model = get_user_model()
    game = _Columns(Game, GAME_FIELDS, "g")
    table = _Columns(Table, TABLE_FIELDS, "t")
    seat = _Columns(Seat, SEAT_FIELDS, "s")
    user = _Columns(user_model, USER_FIELDS, "u")
    for_update = " FOR UPDATE" if connection.features.has_select_for_update else ""
    lock = (
        f"SELECT {game.select}, {table.select} FROM {quote(Game._meta.db_table)} g "
        f"JOIN {quote(Table._meta.db_table)} t ON t.{quote('id')} = g.{quote('table_id')} "
        f"WHERE g.{{column}} = %s{for_update}"
    )
    seats = (
        f"SELECT {seat.select}, {user.select} FROM {quote(Seat._meta.db_table)} s "
        f"LEFT JOIN {quote(user_model._meta.db_table)} u "
        f"ON u.{quote(user_model._meta.pk.column)} = s.{quote('user_id')} "
        f"WHERE s.{quote('table_id')} = %s ORDER BY s.{quote('position')}"
    )
    move_fields = [field for field in Move._meta.concrete_fields if not field.primary_key]
    insert = (
        f"INSERT INTO {quote(Move._meta.db_table)} "
        f"({', '.join(quote(field.column) for field in move_fields)}) "
        f"VALUES ({', '.join(['%s'] * len(move_fields))})"
    )
    return {
        "game": game,
        "table": table,
        "seat": seat,
        "user": user,
        "lock_by_table": lock.format(column=quote("table_id")),
        "lock_by_game": lock.format(column=quote("id")),
        "seats": seats,
        "move_fields": move_fields,
        "insert_move": insert,
    }


def lock_game(*, table_id: int | None = None, game_id: int | None = None) -> Game | None:
    """The game of a table (or the game ``game_id``), its row locked until the transaction
    ends where the database has row locks, with ``game.table`` loaded; None if there is none.
    Call inside ``transaction.atomic()``."""
    sql = _prepared()
    statement = sql["lock_by_table"] if game_id is None else sql["lock_by_game"]
    with connection.cursor() as cursor:
        cursor.execute(statement, [table_id if game_id is None else game_id])
        row = cursor.fetchone()
    if row is None:
        return None
    split = len(GAME_FIELDS)
    game = sql["game"].load(row[:split])
    game.table = sql["table"].load(row[split:])
    return game


def seats(table_id: int) -> list[Seat]:
    """The table's seats in order, each with its user (id, username, is_active) loaded."""
    sql = _prepared()
    with connection.cursor() as cursor:
        cursor.execute(sql["seats"], [table_id])
        rows = cursor.fetchall()
    split = len(SEAT_FIELDS)
    loaded = []
    for row in rows:
        seat = sql["seat"].load(row[:split])
        seat.user = sql["user"].load(row[split:]) if row[split] is not None else None
        loaded.append(seat)
    return loaded


def insert_move(game: Game, *, created_at: datetime, **values: Any) -> None:
    """Append a move to the game's log: ``values`` are the other fields of :class:`Move`."""
    sql = _prepared()
    values = {"game": game.pk, "created_at": created_at, **values}
    params = [
        field.get_db_prep_save(values[field.name], connection) for field in sql["move_fields"]
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql["insert_move"], params)


def update(instance: Model, fields: Sequence[str]) -> None:
    """``instance.save(update_fields=fields)``, for rows the move path holds locked."""
    meta = instance._meta
    quote = connection.ops.quote_name
    chosen = [meta.get_field(name) for name in fields]
    assignments = ", ".join(f"{quote(field.column)} = %s" for field in chosen)
    params = [
        field.get_db_prep_save(getattr(instance, field.attname), connection) for field in chosen
    ]
    statement = (
        f"UPDATE {quote(meta.db_table)} SET {assignments} WHERE {quote(meta.pk.column)} = %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(statement, [*params, instance.pk])
