"""The one place a game ends: won, abandoned, aborted by a moderator, or forfeited by a ban.

Whatever ends a game calls :func:`finish` inside its own transaction, with the table (and the
game, if the caller holds it locked). It writes the result and the table's status, clears what
the clock still owed the game, sends the pushes after commit (:mod:`games.services.broadcast`)
and runs what follows a game's end (:func:`_after_finish`), as lila's ``Finisher`` ends every
game in one place and publishes what follows.

A rated game that is won updates its players' ratings here (:mod:`games.services.ratings`).
What the statistics read is written here and when a bot takes a seat: the winning seat (a seat
a bot took over wins for the bot, never for the person who left it: :mod:`games.services.stats`),
the table's status, and each taken seat's ``replaced_user``, ``replaced_because`` and
``replaced_at``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from games.models import Game, RatingChange, Seat, Table
from games.services import broadcast, lifecycle, online, ratings


class Ending(StrEnum):
    """How a game ends."""

    WON = "won"  # R21: a player emptied their hand (the engine says who)
    # Nobody left to play: its last person left it, or, untimed, none came back for a while.
    ABANDONED = "abandoned"
    ABORTED = "aborted"  # a moderator stopped it (or an open table closed before any game)
    FORFEITED = "forfeited"  # a ban took its last person from it


@dataclass(frozen=True, slots=True)
class Ended:
    """What ending a game wrote: the game's fields changed (empty without a game), and each
    player's rating change when a rated game was won (empty otherwise)."""

    fields: tuple[str, ...] = ()
    rating_changes: tuple[RatingChange, ...] = ()


# The table's status after each ending. A game forfeited by a ban has nobody left to play it,
# as an abandoned one: the table says so alike, and its log says who was banned.
STATUS = {
    Ending.WON: Table.Status.FINISHED,
    Ending.ABANDONED: Table.Status.ABANDONED,
    Ending.ABORTED: Table.Status.ABORTED,
    Ending.FORFEITED: Table.Status.ABANDONED,
}


def finish(
    table: Table,
    ending: Ending,
    *,
    now: datetime,
    game: Game | None = None,
    winner: int | None = None,
    on_move: bool = False,
    seats: Sequence[Seat] | None = None,
) -> Ended:
    """End the game at ``table`` (or close a table that never started one): call it inside the
    transaction of whatever ended it, the table locked.

    ``game`` is the table's game when the caller holds it locked; otherwise it is locked here,
    which waits for a move in flight. ``winner`` is the winning seat (``Ending.WON`` only).
    ``on_move``: the game was won by the move being stored; the move path writes the game's
    fields, returned here, with the move in its one statement, and pushes the table with the
    state it holds, with the rating changes returned here, so no query is added to any move
    but the last. ``seats``: the table's seats in order, when the caller holds them.

    Returns the game's fields that were changed and the players' rating changes.

    :raises ValueError: a win without a winning seat, or a winning seat for another ending.
    """
    if (ending == Ending.WON) != (winner is not None):
        raise ValueError("a game is won by one seat, and only a won game has a winner")
    if game is None and not on_move:
        game = Game.objects.select_for_update().filter(table=table).first()
    table.status = STATUS[ending]
    table.save(update_fields=["status"])
    fields: list[str] = []
    if game is not None:
        game.next_due = game.turn_deadline = None
        game.finished_at = now
        fields = ["next_due", "turn_deadline", "finished_at"]
        if winner is not None:
            game.winner = winner
            fields.append("winner")
        if not on_move:
            game.save(update_fields=fields)
    changes = _after_finish(table, game, ending, seats)
    people = list(seats if seats is not None else Seat.objects.filter(table=table))
    if game is not None:  # their friends see them playing no more
        online.playing_changed(seat.user_id for seat in people)
    lifecycle.ended(
        table.pk,
        game.pk if game is not None else None,
        ending,
        winner,
        (seat.user_id for seat in people),
    )
    if not on_move:
        broadcast.table_changed(table.pk)
    broadcast.lobby_changed()
    return Ended(tuple(fields), tuple(changes))


def _after_finish(
    table: Table, game: Game | None, ending: Ending, seats: Sequence[Seat] | None
) -> list[RatingChange]:
    """What follows a game's end, in its transaction, once the result is written: the players'
    ratings (lila's ``PerfsUpdater``), for a rated game that was won; their changes are
    returned. The statistics are read from the result and the seats as they are now."""
    return ratings.rate_game(table, game, won=ending == Ending.WON, seats=seats)
