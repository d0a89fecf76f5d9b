"""The move path's statements, each written once.

A move is a handful of statements under one lock: read the game and its table, read the seats,
append the move, save the game. Built by the ORM, each of them spends far longer in query
compilation than in the database (most of a move's database time: docs/benchmarks.md). So
here each is written once, from the models' own metadata (table and column names, quoting of
the connection in use), and run with new values, converted both ways by the models' own
fields: what is read is what the ORM would have loaded, and what is written is what ``save()``
would have written. Everything else in the site uses the ORM.

Their parameters are named (``%(name)s`` with a dict, which every backend takes): with
positional ``%s`` Django's SQLite backend rewrites each statement to ``?`` with a regular
expression on every run.

Rows are built by ``Model.from_db``, as the ORM builds them; the save signals do not fire for
the rows written here (no code listens to them).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any
from weakref import WeakKeyDictionary

from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import DEFERRED, Field, Model

from accounts.models import BotAccount
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
    "turn_reminder",
    "to_act",
    "winner",
    "finished_at",
)
TABLE_FIELDS = (
    "id",
    "name",
    "host_id",
    "seat_count",
    "turn_seconds",
    "turn_days",
    "public",
    "status",
    "tournament",
    "rated",  # the last move of a rated game rates its players (services.ratings)
)
SEAT_FIELDS = (
    "id",
    "table_id",
    "position",
    "user_id",
    "bot",
    "timeouts",
    "replaced_user_id",
    "replaced_because",
    "replaced_at",
)
USER_FIELDS = ("id", "username", "is_active")
# What a table's sockets draw of it, and of its last moves (``read_table``); the page of a
# table quick match aborted says who never came (``no_show_id``).
SHOWN_TABLE_FIELDS = (*TABLE_FIELDS, "against_bots", "rematch_of_id", "no_show_id")
RECENT_MOVE_FIELDS = ("seq", "seat", "source", "events", "action")


class _Columns:
    """Some fields of a model: their columns in a select list, and loading a row of them into
    an instance as the ORM does: the fields' database converters, then ``Model.from_db`` with
    the fields not read deferred (loaded if touched)."""

    def __init__(
        self, db: BaseDatabaseWrapper, model: type[Model], names: Sequence[str], alias: str
    ) -> None:
        meta = model._meta
        self.model = model
        self.fields: list[Field] = [meta.get_field(name.removesuffix("_id")) for name in names]
        quote = db.ops.quote_name
        self.select = ", ".join(f"{quote(alias)}.{quote(f.column)}" for f in self.fields)
        # ``from_db`` takes a value for each concrete field, in their order, DEFERRED for those
        # not read: where each selected column goes in that row.
        concrete = [field.attname for field in meta.concrete_fields]
        self._positions = [concrete.index(field.attname) for field in self.fields]
        self._width = len(concrete)
        self._loaded = [name for name in concrete if name in {f.attname for f in self.fields}]
        # (position in the row, column, converters) of the fields whose database values need
        # converting.
        self._converters: list[tuple[int, Any, list[Callable[..., Any]]]] = []
        for position, field in zip(self._positions, self.fields, strict=True):
            column = field.get_col(alias)
            converters = db.ops.get_db_converters(column) + field.get_db_converters(db)
            if converters:
                self._converters.append((position, column, converters))

    def load(self, db: BaseDatabaseWrapper, values: Sequence[Any]) -> Model:
        row: list[Any] = [DEFERRED] * self._width
        for position, value in zip(self._positions, values, strict=True):
            row[position] = value
        for position, column, converters in self._converters:
            value = row[position]
            for convert in converters:
                value = convert(value, column, db)
            row[position] = value
        return self.model.from_db(db.alias, self._loaded, row)


_written: WeakKeyDictionary[BaseDatabaseWrapper, dict[str, Any]] = WeakKeyDictionary()


def _prepared() -> tuple[BaseDatabaseWrapper, dict[str, Any]]:
    """The connection in use (each thread has its own) and its statements, written once.

    ``django.db.connection`` looks the thread's connection up on every attribute: each function
    here looks it up once."""
    db = connections[DEFAULT_DB_ALIAS]
    statements = _written.get(db)
    if statements is None:
        statements = _written[db] = _statements(db)
    return db, statements


def _statements(db: BaseDatabaseWrapper) -> dict[str, Any]:
    quote = db.ops.quote_name
    user_model = get_user_model()
    game = _Columns(db, Game, GAME_FIELDS, "g")
    table = _Columns(db, Table, TABLE_FIELDS, "t")
    seat = _Columns(db, Seat, SEAT_FIELDS, "s")
    user = _Columns(db, user_model, USER_FIELDS, "u")
    for_update = " FOR UPDATE" if db.features.has_select_for_update else ""
    lock = (
        f"SELECT {game.select}, {table.select} FROM {quote(Game._meta.db_table)} g "
        f"JOIN {quote(Table._meta.db_table)} t ON t.{quote('id')} = g.{quote('table_id')} "
        f"WHERE g.{{column}} = %(id)s{for_update}"
    )
    users = (
        f"LEFT JOIN {quote(user_model._meta.db_table)} u "
        f"ON u.{quote(user_model._meta.pk.column)} = s.{quote('user_id')}"
    )
    seats = (
        f"SELECT {seat.select}, {user.select} FROM {quote(Seat._meta.db_table)} s {users} "
        f"WHERE s.{quote('table_id')} = %(table)s ORDER BY s.{quote('position')}"
    )
    # The seats as a table's page draws them: with whether each person is a BOT account.
    bot = quote(BotAccount._meta.db_table)
    shown_seats = (
        f"SELECT {seat.select}, {user.select}, b.{quote('user_id')} "
        f"FROM {quote(Seat._meta.db_table)} s {users} "
        f"LEFT JOIN {bot} b ON b.{quote('user_id')} = s.{quote('user_id')} "
        f"WHERE s.{quote('table_id')} = %(table)s ORDER BY s.{quote('position')}"
    )
    # The game and its table locked, their seats read with them: where the database locks rows
    # it locks only those two (not the seats' users: a user's row is no part of the game).
    lock_with_seats = None
    if not db.features.has_select_for_update or db.features.has_select_for_update_of:
        lock_with_seats = (
            f"SELECT {game.select}, {table.select}, {seat.select}, {user.select} "
            f"FROM {quote(Game._meta.db_table)} g "
            f"JOIN {quote(Table._meta.db_table)} t ON t.{quote('id')} = g.{quote('table_id')} "
            f"JOIN {quote(Seat._meta.db_table)} s ON s.{quote('table_id')} = g.{quote('table_id')} "
            f"{users} WHERE g.{quote('table_id')} = %(id)s ORDER BY s.{quote('position')}"
            f"{' FOR UPDATE OF g, t' if db.features.has_select_for_update else ''}"
        )
    # A table as its sockets draw it, with its game if it has one: read, not locked.
    shown = _Columns(db, Table, SHOWN_TABLE_FIELDS, "t")
    table_with_game = (
        f"SELECT {shown.select}, {game.select} FROM {quote(Table._meta.db_table)} t "
        f"LEFT JOIN {quote(Game._meta.db_table)} g ON g.{quote('table_id')} = t.{quote('id')} "
        f"WHERE t.{quote('id')} = %(id)s"
    )
    move = _Columns(db, Move, RECENT_MOVE_FIELDS, "m")
    recent_moves = (
        f"SELECT {move.select} FROM {quote(Move._meta.db_table)} m "
        f"WHERE m.{quote('game_id')} = %(game)s ORDER BY m.{quote('seq')} DESC "
        f"LIMIT %(count)s"
    )
    move_fields = [field for field in Move._meta.concrete_fields if not field.primary_key]
    insert = (
        f"INSERT INTO {quote(Move._meta.db_table)} "
        f"({', '.join(quote(field.column) for field in move_fields)}) "
        f"VALUES ({', '.join(f'%({field.name})s' for field in move_fields)})"
    )
    return {
        "game": game,
        "table": table,
        "seat": seat,
        "user": user,
        "lock_by_table": lock.format(column=quote("table_id")),
        "lock_by_game": lock.format(column=quote("id")),
        "seats": seats,
        "shown_seats": shown_seats,
        "lock_with_seats": lock_with_seats,
        "shown": shown,
        "table_with_game": table_with_game,
        "move": move,
        "recent_moves": recent_moves,
        "move_fields": move_fields,
        "insert_move": insert,
        "updates": {},
    }


def lock_game(*, table_id: int | None = None, game_id: int | None = None) -> Game | None:
    """The game of a table (or the game ``game_id``), its row locked until the transaction
    ends where the database has row locks, with ``game.table`` loaded; None if there is none.
    Call inside ``transaction.atomic()``."""
    db, sql = _prepared()
    statement = sql["lock_by_table"] if game_id is None else sql["lock_by_game"]
    with db.cursor() as cursor:
        cursor.execute(statement, {"id": table_id if game_id is None else game_id})
        row = cursor.fetchone()
    if row is None:
        return None
    return _game(db, sql, row)


def seats(table_id: int) -> list[Seat]:
    """The table's seats in order, each with its user (id, username, is_active) loaded."""
    db, sql = _prepared()
    with db.cursor() as cursor:
        cursor.execute(sql["seats"], {"table": table_id})
        rows = cursor.fetchall()
    return [_seat(db, sql, row, 0) for row in rows]


def lock_game_and_seats(table_id: int) -> tuple[Game, list[Seat]] | None:
    """``lock_game(table_id=table_id)`` and ``seats(table_id)``, in one statement where the
    database can lock some of the tables a statement reads (``FOR UPDATE OF``); None if the
    table has no game. Call inside ``transaction.atomic()``."""
    db, sql = _prepared()
    statement = sql["lock_with_seats"]
    if statement is None:
        game = lock_game(table_id=table_id)
        return None if game is None else (game, seats(table_id))
    with db.cursor() as cursor:
        cursor.execute(statement, {"id": table_id})
        rows = cursor.fetchall()
    if not rows:
        return None
    split = len(GAME_FIELDS) + len(TABLE_FIELDS)
    return _game(db, sql, rows[0]), [_seat(db, sql, row, split) for row in rows]


def read_table(
    table_id: int, recent: int
) -> tuple[Table, Game | None, list[Seat], list[dict[str, Any]], set[int]] | None:
    """A table as its sockets draw it, unlocked: the table, its game (or None), its seats in
    order with their users, its game's last ``recent`` moves, oldest first (``seq``, ``seat``,
    ``source``, ``events``, ``action``), and which of its seated people are BOT accounts; None
    if there is no such table."""
    db, sql = _prepared()
    with db.cursor() as cursor:
        cursor.execute(sql["table_with_game"], {"id": table_id})
        row = cursor.fetchone()
        if row is None:
            return None
        split = len(SHOWN_TABLE_FIELDS)
        table = sql["shown"].load(db, row[:split])
        game = None
        moves: list[dict[str, Any]] = []
        if row[split] is not None:
            game = sql["game"].load(db, row[split:])
            game.table = table  # the one-to-one, cached both ways
            cursor.execute(sql["recent_moves"], {"game": game.pk, "count": recent})
            for move_row in reversed(cursor.fetchall()):
                move = sql["move"].load(db, move_row)
                moves.append({name: getattr(move, name) for name in RECENT_MOVE_FIELDS})
        cursor.execute(sql["shown_seats"], {"table": table_id})
        rows = cursor.fetchall()
    seats = [_seat(db, sql, seat_row[:-1], 0) for seat_row in rows]
    bot_accounts = {seat_row[-1] for seat_row in rows if seat_row[-1] is not None}
    return table, game, seats, moves, bot_accounts


def _game(db: BaseDatabaseWrapper, sql: dict[str, Any], row: Sequence[Any]) -> Game:
    split = len(GAME_FIELDS)
    game = sql["game"].load(db, row[:split])
    game.table = sql["table"].load(db, row[split : split + len(TABLE_FIELDS)])
    return game


def _seat(db: BaseDatabaseWrapper, sql: dict[str, Any], row: Sequence[Any], start: int) -> Seat:
    split = start + len(SEAT_FIELDS)
    seat = sql["seat"].load(db, row[start:split])
    seat.user = sql["user"].load(db, row[split:]) if row[split] is not None else None
    return seat


def save_move(game: Game, fields: Sequence[str], *, created_at: datetime, **values: Any) -> None:
    """Append a move to the game's log (``values`` are the other fields of :class:`Move`), then
    ``update(game, fields)``: the move appended and the game saved, through one cursor."""
    db, sql = _prepared()
    move = _move_params(db, sql, game, created_at, values)
    text, params = _update(db, sql, game, fields)
    with db.cursor() as cursor:
        cursor.execute(sql["insert_move"], move)
        cursor.execute(text, params)


def _move_params(
    db: BaseDatabaseWrapper,
    sql: dict[str, Any],
    game: Game,
    created_at: datetime,
    values: dict[str, Any],
) -> dict[str, Any]:
    values = {"game": game.pk, "created_at": created_at, **values}
    return {
        field.name: field.get_db_prep_save(values[field.name], db) for field in sql["move_fields"]
    }


def update(instance: Model, fields: Sequence[str]) -> None:
    """``instance.save(update_fields=fields)``, for rows the move path holds locked."""
    db, sql = _prepared()
    text, params = _update(db, sql, instance, fields)
    with db.cursor() as cursor:
        cursor.execute(text, params)


def _update(
    db: BaseDatabaseWrapper, sql: dict[str, Any], instance: Model, fields: Sequence[str]
) -> tuple[str, dict[str, Any]]:
    key = (type(instance), tuple(fields))
    statement = sql["updates"].get(key)
    if statement is None:
        statement = sql["updates"][key] = _update_statement(db, *key)
    chosen, text = statement
    params = {
        field.name: field.get_db_prep_save(getattr(instance, field.attname), db) for field in chosen
    }
    params["pk"] = instance.pk
    return text, params


def _update_statement(
    db: BaseDatabaseWrapper, model: type[Model], fields: tuple[str, ...]
) -> tuple[list[Field], str]:
    meta = model._meta
    quote = db.ops.quote_name
    chosen = [meta.get_field(name) for name in fields]
    assignments = ", ".join(f"{quote(field.column)} = %({field.name})s" for field in chosen)
    return chosen, (
        f"UPDATE {quote(meta.db_table)} SET {assignments} WHERE {quote(meta.pk.column)} = %(pk)s"
    )
