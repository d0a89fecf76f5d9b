"""What a move changed at a table, as one versioned message of plain data: ``taki-change/1``.

The move path builds a :class:`TableChange` once, where the move was stored, in its transaction.
After commit it is handed to this process's transport (``games.services.broadcast``), which
draws the table from it here and sends it, as JSON, to the other processes at the table, so
that none of them reads the table back: ``docs/wire-format.md`` describes the message field by
field. A reader that does not know a message's format refuses it (:class:`UnreadableChange`),
and the table is read from the database instead: during a rolling restart a process of one
version and a process of the next may each meet the other's messages.

A change carries the game's snapshot, which holds every hand: it travels between the site's own
processes only. What each seat, and a spectator, may see of it is the engine's to say
(``games.engine.perspectives``); the table's views are drawn from it by ``games.presenters``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, NamedTuple

from games.engine import GameState

if TYPE_CHECKING:
    from games.models import Game, RatingChange, Seat, Table

FORMAT = "taki-change/1"


class UnreadableChange(ValueError):
    """A message that is not a ``taki-change/1`` this process can read: another format (a
    process of another version of the site sent it), or not the shape the format says."""


class SeatState(NamedTuple):
    """One seat of a table as the services hold it: who sits there, R23's count, and why and
    after how many moves a bot took it over from a person."""

    position: int
    user_id: int | None
    username: str | None  # the person's, None for a bot or an empty seat
    bot: str  # the bot's kind, "" for a person or an empty seat
    timeouts: int  # R23: turns timed out in a row
    replaced_because: str  # "" unless a bot took the seat over (Seat.Takeover)
    replaced_at: int | None  # how many moves had been played then
    replaced_user_id: int | None = None  # the person a bot took the seat from


def seat_states(seats: Iterable[Seat]) -> tuple[SeatState, ...]:
    """Seats (their users loaded), as a change and a table's view carry them."""
    return tuple(
        SeatState(
            seat.position,
            seat.user_id,
            seat.user.username if seat.user_id else None,
            seat.bot,
            seat.timeouts,
            seat.replaced_because,
            seat.replaced_at,
            seat.replaced_user_id,
        )
        for seat in seats
    )


class RatingShown(NamedTuple):
    """A player's rating change as the seats show it once a rated game is won."""

    user_id: int
    mu_after: float
    sigma_after: float
    delta: float


@dataclass(frozen=True, slots=True)
class TableChange:
    """The table just after a move, as the move path that stored it holds it (committed).

    ``move`` is the stored move as the table lists it (``seq``, ``seat``, ``source``,
    ``events``, ``action``); ``previous_digest`` is the digest of the move before, so that a
    reader can check that the view it builds on is the one this move followed. ``status`` is
    the table's, the only part of the table a move changes (it ends the game). A move that won a
    rated game carries the players' rating changes, written in its transaction.
    """

    table_id: int
    status: str
    game_id: int
    version: int  # moves applied, this one included
    digest: str
    previous_digest: str
    players: tuple[str, ...]  # the game's players' names, as at its start
    turn_deadline: datetime | None  # R23: when the people to act now time out
    winner: int | None
    seats: tuple[SeatState, ...]
    move: Mapping[str, Any]
    snapshot: Mapping[str, Any]  # the engine's, secret: every hand
    rating_changes: tuple[RatingShown, ...] = ()
    # The move path's own engine, so that the process that stored the move need not read the
    # snapshot again; a change read from JSON builds it from ``snapshot`` when asked.
    engine: GameState | None = field(default=None, compare=False, repr=False)

    @classmethod
    def after_move(
        cls,
        table: Table,
        game: Game,
        engine: GameState,
        seats: Sequence[Seat],
        move: Mapping[str, Any],
        previous_digest: str,
        rating_changes: Iterable[RatingChange] = (),
    ) -> TableChange:
        """The change of the move just stored: ``game`` saved with it (its snapshot, version
        and digest the move's), ``seats`` the table's in order, their users loaded."""
        return cls(
            table_id=table.pk,
            status=table.status,
            game_id=game.pk,
            version=game.version,
            digest=game.last_digest,
            previous_digest=previous_digest,
            players=tuple(game.players),
            turn_deadline=game.turn_deadline,
            winner=game.winner,
            seats=seat_states(seats),
            move=move,
            snapshot=game.state,
            rating_changes=tuple(
                RatingShown(change.user_id, change.mu_after, change.sigma_after, change.delta)
                for change in rating_changes
            ),
            engine=engine,
        )

    def game_state(self) -> GameState:
        """The engine's game after the move (every hand): the move path's own, else read from
        the snapshot, once."""
        if self.engine is None:
            object.__setattr__(self, "engine", GameState.from_snapshot(dict(self.snapshot)))
        return self.engine  # type: ignore[return-value]

    def to_json(self) -> dict[str, Any]:
        """The change as ``taki-change/1``: plain data, which ``json.dumps`` writes as it is."""
        return {
            "format": FORMAT,
            "table": {"id": self.table_id, "status": self.status},
            "game": {
                "id": self.game_id,
                "version": self.version,
                "digest": self.digest,
                "previous_digest": self.previous_digest,
                "players": list(self.players),
                "turn_deadline": (
                    self.turn_deadline.isoformat() if self.turn_deadline is not None else None
                ),
                "winner": self.winner,
            },
            "seats": [seat._asdict() for seat in self.seats],
            "move": dict(self.move),
            "snapshot": dict(self.snapshot),
            "rating_changes": [change._asdict() for change in self.rating_changes],
        }

    @classmethod
    def from_json(cls, data: Any) -> TableChange:
        """Read a ``taki-change/1`` message.

        :raises UnreadableChange: another format, or a field missing or of the wrong kind.
        """
        if not isinstance(data, Mapping) or data.get("format") != FORMAT:
            found = data.get("format") if isinstance(data, Mapping) else type(data).__name__
            raise UnreadableChange(f"not a {FORMAT} message: {found!r}")
        try:
            table, game = data["table"], data["game"]
            deadline = game["turn_deadline"]
            change = cls(
                table_id=_whole(table["id"]),
                status=_text(table["status"]),
                game_id=_whole(game["id"]),
                version=_whole(game["version"]),
                digest=_text(game["digest"]),
                previous_digest=_text(game["previous_digest"]),
                players=tuple(_text(name) for name in game["players"]),
                turn_deadline=None if deadline is None else datetime.fromisoformat(deadline),
                winner=None if game["winner"] is None else _whole(game["winner"]),
                seats=tuple(SeatState(**seat) for seat in data["seats"]),
                move=_mapping(data["move"]),
                snapshot=_mapping(data["snapshot"]),
                rating_changes=tuple(RatingShown(**row) for row in data["rating_changes"]),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise UnreadableChange(f"a {FORMAT} message that does not read: {error!r}") from None
        return change


def _whole(value: Any) -> int:
    if type(value) is not int:
        raise TypeError(f"not a whole number: {value!r}")
    return value


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"not a string: {value!r}")
    return value


def _mapping(value: Any) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise TypeError(f"not an object: {value!r}")
    return value
