"""Tables and seats: open, join, leave, start, seats and bots, and aborting a table (which
``games.services.finish`` ends)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Count, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import bots, guests
from accounts.models import Sanction
from games.models import BOT_KINDS, MAX_SEATS, MIN_SEATS, TURN_DAYS, Game, Seat, Table
from games.services import broadcast, starting, turns
from games.services.access import invite_matches
from games.services.errors import ServiceError, refuse_if_sanctioned
from games.services.finish import Ending, finish
from games.services.moves import SCHEDULED, replace_by_bot, schedule
from lib.unicode import has_invisible_characters
from social import relations

User = AbstractBaseUser
# The bots a seat may hold: each level, and the older names (the engine plays every one).
SEAT_BOTS = frozenset(kind for kind, _label in BOT_KINDS)

# Open tables one person may host at once: enough to wait at a few, too few to flood the lobby.
MAX_OPEN_TABLES_PER_HOST = 3
# Rows of the lobby: the newest open tables (older ones on further pages).
LOBBY_ROWS = 50


def create_table(
    host: User,
    *,
    name: str,
    seat_count: int,
    tournament: bool = False,
    turn_seconds: int | None = 30,
    turn_days: int | None = None,
    public: bool = True,
    bot_seats: int = 0,
    bot_kind: str = "greedy",
    rated: bool | None = None,
) -> Table:
    """Open a table. The host takes seat 0; the last ``bot_seats`` seats go to bots.

    ``rated``: whether its game changes the players' ratings; None chooses for the host, rated
    when the table is public. A table with bots is casual whatever was asked
    (``starting.start_seated``). ``turn_days`` makes it turn-based, days per move (``TURN_DAYS``)
    in place of ``turn_seconds``.

    :raises ServiceError: ``bad_request`` for a blank name or one with invisible characters, a
        seat count outside 2–10 (R3), more bots than free seats, an unknown bot or a turn time
        that is not positive, days per move not offered; ``forbidden`` when the host already
        hosts ``MAX_OPEN_TABLES_PER_HOST`` open tables, plays ``turns.MAX_TURN_BASED``
        turn-based games for a turn-based one, or a guest asking for a rated table.
    """
    name = (name or "").strip()
    if not name:
        raise ServiceError("bad_request", _("Give the table a name."))
    if has_invisible_characters(name):
        raise ServiceError(
            "bad_request", _("Names cannot contain invisible or control characters.")
        )
    if not MIN_SEATS <= seat_count <= MAX_SEATS:
        raise ServiceError("bad_request", _("A table has 2 to 10 seats."))
    if not 0 <= bot_seats < seat_count:
        raise ServiceError("bad_request", _("Leave at least one seat for the host."))
    if bot_kind not in SEAT_BOTS:
        raise ServiceError("bad_request", _("There is no such bot."))
    if turn_seconds is not None and turn_seconds <= 0:
        raise ServiceError("bad_request", _("The turn time must be positive, or none."))
    if turn_days is not None and turn_days not in TURN_DAYS:
        raise ServiceError(
            "bad_request", _("A turn-based table gives 1, 2, 3, 5 or 7 days a move.")
        )
    if turn_days is not None:
        turn_seconds = None
    check_may_play(host)
    refuse_bot_accounts(host)
    if rated and guests.is_guest(host):
        raise ServiceError("forbidden", _("Only signed-up players play rated games."))
    if rated is None:
        rated = public and not guests.is_guest(host)
    with transaction.atomic():
        check_open_tables(host)
        if turn_days is not None:
            turns.check_cap(host)
        return _open_table(
            host,
            name=name[:60],
            seat_count=seat_count,
            tournament=tournament,
            turn_seconds=turn_seconds,
            turn_days=turn_days,
            public=public,
            bot_seats=bot_seats,
            bot_kind=bot_kind,
            rated=rated and bot_seats == 0,
        )


def check_open_tables(host: User) -> None:
    """Refuse a new table to a host who already hosts ``MAX_OPEN_TABLES_PER_HOST`` open ones.
    Call it inside the transaction that opens the table.

    :raises ServiceError: ``forbidden``.
    """
    # Serialise one host's table openings, so two at once cannot both pass the count.
    get_user_model().objects.select_for_update().filter(pk=host.pk).first()
    hosted = Table.objects.filter(host=host, status=Table.Status.OPEN).count()
    if hosted >= MAX_OPEN_TABLES_PER_HOST:
        raise ServiceError(
            "forbidden",
            _("You already host %(count)d open tables: start or close one first.")
            % {"count": hosted},
        )


def _open_table(host: User, *, seat_count: int, bot_seats: int, bot_kind: str, **fields) -> Table:
    """Create the table and its seats: the host on seat 0, bots on the last ``bot_seats``."""
    with transaction.atomic():
        table = Table.objects.create(host=host, seat_count=seat_count, **fields)
        first_bot = seat_count - bot_seats
        Seat.objects.bulk_create(
            Seat(
                table=table,
                position=position,
                user=host if position == 0 else None,
                bot=bot_kind if position >= first_bot else "",
            )
            for position in range(seat_count)
        )
        broadcast.lobby_changed()
    return table


def open_private_table(
    host: User,
    people: list[User],
    *,
    name: str,
    seat_count: int,
    tournament: bool,
    turn_seconds: int | None,
    rated: bool,
    bot_kind: str = "",
    turn_days: int | None = None,
) -> Table:
    """A private table for people who agreed to play together (a challenge): ``host`` on seat
    0, ``people`` on the next seats, and the seats left to bots of ``bot_kind`` (left empty
    without one). Not in the lobby; the caller starts it (``starting.start_seated``).

    :raises ServiceError: ``bad_request`` for more people than seats or an unknown bot.
    """
    if len(people) + 1 > seat_count or not MIN_SEATS <= seat_count <= MAX_SEATS:
        raise ServiceError("bad_request", _("A table has 2 to 10 seats."))
    if bot_kind and bot_kind not in SEAT_BOTS:
        raise ServiceError("bad_request", _("There is no such bot."))
    seated = [host, *people]
    table = Table.objects.create(
        host=host,
        name=name[:60],
        seat_count=seat_count,
        tournament=tournament,
        turn_seconds=None if turn_days else turn_seconds,
        turn_days=turn_days,
        public=False,
        rated=rated,
    )
    Seat.objects.bulk_create(
        Seat(
            table=table,
            position=position,
            user=seated[position] if position < len(seated) else None,
            bot=bot_kind if position >= len(seated) else "",
        )
        for position in range(seat_count)
    )
    return table


def join_table(table_id: int, user: User, *, invite: str | None = None) -> Seat:
    """Sit ``user`` on the first empty seat of an open table.

    A private table is joined by its link only: ``invite`` must be its token.

    :raises ServiceError: ``not_found``; ``forbidden`` (the game has started, the user already
        sits here, a private table without its token, a host who blocked them); ``table_full``.
    """
    check_may_play(user)
    refuse_bot_accounts(user)
    with transaction.atomic():
        table = _lock_table(table_id)
        if table.status != Table.Status.OPEN:
            raise ServiceError("forbidden", _("This table is no longer taking players."))
        if table.seats.filter(user=user).exists():
            raise ServiceError("forbidden", _("You already sit at this table."))
        if not table.public and not invite_matches(table, invite):
            raise ServiceError("forbidden", _("This table is private: join it by its link."))
        if table.rated and guests.is_guest(user):
            raise ServiceError("forbidden", _("Only signed-up players play rated games."))
        if relations.has_blocked(table.host_id, user.pk):
            # The words of any table that cannot take them: nothing says who blocked whom.
            raise ServiceError("forbidden", _("This table is not taking you."))
        if table.turn_based:
            turns.check_cap(user)
        seat = table.seats.filter(user__isnull=True, bot="").order_by("position").first()
        if seat is None:
            raise ServiceError("table_full", _("This table is full."))
        seat.user = user
        seat.save(update_fields=["user"])
        broadcast.table_changed(table.pk)
        broadcast.lobby_changed()
    return seat


def leave_table(table_id: int, user: User, *, because: str = Seat.Takeover.LEFT) -> None:
    """``user`` leaves the table (``because`` they chose to, or a ban made them).

    Before the game the seat is freed; if the host leaves, the next seated person becomes host,
    and with nobody left the table is closed (aborted). During a game a bot takes the seat at
    once (as Board Game Arena does) and the game goes on; if no person is left at all, the game
    ends (``finish``): abandoned, or forfeited when a ban took its last person. After the game,
    leaving changes nothing.

    :raises ServiceError: ``not_found``, ``not_seated``.
    """
    with transaction.atomic():
        table = _lock_table(table_id)
        seat = table.seats.filter(user=user).first()
        if seat is None:
            raise ServiceError("not_seated", _("You do not sit at this table."))
        if table.status == Table.Status.OPEN:
            seat.user = None
            seat.save(update_fields=["user"])
            if table.host_id == user.pk and not _pass_host_on(table):
                finish(table, Ending.ABORTED, now=timezone.now())  # nobody left to host it
                return
        elif table.status == Table.Status.PLAYING:
            game = Game.objects.select_for_update().get(table=table)
            replace_by_bot(seat, because, at_move=game.version)
            if not table.seats.filter(user__isnull=False).exists():
                # Its people have all gone: nobody is left to play it.
                banned = because == Seat.Takeover.BANNED
                ending = Ending.FORFEITED if banned else Ending.ABANDONED
                finish(table, ending, now=timezone.now(), game=game)
                return
            schedule(game, game.engine(), timezone.now(), keep_deadline=True)
            game.save(update_fields=SCHEDULED)
        else:
            return
        broadcast.table_changed(table.pk)
        broadcast.lobby_changed()


def remove_seat(table_id: int, host: User, position: int) -> None:
    """The host empties a seat (a person or a bot) before the game starts.

    :raises ServiceError: ``not_found``; ``forbidden`` (not the host, the game has started, the
        host's own seat).
    """
    with transaction.atomic():
        table = _lock_table(table_id)
        _check_host_before_start(table, host)
        seat = _seat_at(table, position)
        if seat.user_id == host.pk:
            raise ServiceError("forbidden", _("Leave the table instead of removing yourself."))
        seat.user = None
        seat.bot = ""
        seat.save(update_fields=["user", "bot"])
        broadcast.table_changed(table.pk)
        broadcast.lobby_changed()


def add_bot(table_id: int, host: User, position: int, kind: str = "greedy") -> Seat:
    """The host puts a bot on an empty seat before the game starts.

    :raises ServiceError: ``not_found``; ``forbidden`` (not the host, started); ``table_full``
        (the seat is taken); ``bad_request`` (no such bot).
    """
    if kind not in SEAT_BOTS:
        raise ServiceError("bad_request", _("There is no such bot."))
    with transaction.atomic():
        table = _lock_table(table_id)
        _check_host_before_start(table, host)
        seat = _seat_at(table, position)
        if not seat.is_empty:
            raise ServiceError("table_full", _("This seat is taken."))
        seat.bot = kind
        seat.save(update_fields=["bot"])
        broadcast.table_changed(table.pk)
        broadcast.lobby_changed()
    return seat


def check_may_play(user: User) -> None:
    """The one question every way of sitting down or starting a game asks first: opening a
    table, joining one, starting one, playing against bots, opening or accepting a rematch.

    :raises ServiceError: ``forbidden`` while a play ban holds, saying until when.
    """
    refuse_if_sanctioned(user, Sanction.Kind.PLAY_BAN)


def refuse_bot_accounts(user: User) -> None:
    """A BOT account plays the games it is challenged to, through the API: it opens no table,
    sits at none and enters no pool (``accounts.bots``).

    :raises ServiceError: ``bot_account``.
    """
    if bots.is_bot(user):
        raise ServiceError("bot_account", _("A BOT account plays only the challenges it accepts."))


def withdraw_player(user: User) -> None:
    """A banned player leaves every table at once: a bot takes each of their running seats (as
    after leaving, so an untimed game does not wait for them for ever; a game left with no
    person is forfeited), their waiting seats are freed, and the open tables they host are
    closed and leave the lobby."""
    seated = Seat.objects.filter(
        user=user, table__status__in=[Table.Status.OPEN, Table.Status.PLAYING]
    ).values_list("table_id", flat=True)
    for table_id in list(seated):
        leave_table(table_id, user, because=Seat.Takeover.BANNED)
    hosted = Table.objects.filter(host=user, status=Table.Status.OPEN).values_list("pk", flat=True)
    for table_id in list(hosted):
        abort_table(table_id)


def abort_table(table_id: int) -> bool:
    """Stop a table for good (moderation): its game ends as aborted (``finish``), nothing more
    is due. False if it was already finished or aborted.

    :raises ServiceError: ``not_found``.
    """
    with transaction.atomic():
        table = _lock_table(table_id)
        if table.status in (Table.Status.FINISHED, Table.Status.ABORTED):
            return False
        finish(table, Ending.ABORTED, now=timezone.now())
    return True


def start_game(table_id: int, user: User) -> Game:
    """The host starts the game: a fresh shuffled deck, a random seed and first player (R4, R5).

    Empty seats are dropped and the others renumbered in order, so the game has as many players
    as filled seats (bots count) and the table's seat count becomes that number.

    :raises ServiceError: ``not_found``; ``forbidden`` (not the host, already started, fewer
        than two filled seats, a play ban on the host); ``too_many_games`` (the host alone with
        bots, who plays enough such games already).
    """
    check_may_play(user)
    with transaction.atomic():
        table = _lock_table(table_id)
        _check_host_before_start(table, user)
        game = starting.start_seated(table, timezone.now())
    return game


def play_against_bots(
    user: User, opponents: int = 3, *, tournament: bool = False, bot_kind: str = "greedy"
) -> Table:
    """One click: a private table "<username> vs bots" with ``user`` and ``opponents`` bots, no
    turn time, started at once.

    :raises ServiceError: ``bad_request`` for 0 or more than 9 opponents or an unknown bot;
        ``forbidden`` (a play ban); ``too_many_games`` (``settings.BOT_GAMES_PER_PERSON``
        unfinished already).
    """
    if not 1 <= opponents <= MAX_SEATS - 1:
        raise ServiceError("bad_request", _("Play against 1 to 9 bots."))
    if bot_kind not in SEAT_BOTS:
        raise ServiceError("bad_request", _("There is no such bot."))
    check_may_play(user)
    refuse_bot_accounts(user)
    with transaction.atomic():
        # Started at once and private: it never waits in the lobby, so the cap on open tables
        # does not apply.
        table = _open_table(
            user,
            name=_("%(username)s vs bots") % {"username": user.get_username()},
            seat_count=opponents + 1,
            tournament=tournament,
            turn_seconds=None,
            public=False,
            bot_seats=opponents,
            bot_kind=bot_kind,
            against_bots=True,  # named in each viewer's language (Table.shown_name)
        )
        table = _lock_table(table.pk)
        starting.start_seated(table, timezone.now())
    return table


def people_at(table: Table, user: User) -> list[User]:
    """The people who sit or sat at ``table`` (a bot may have taken their seat), but ``user``,
    by name."""
    seated = Q(seats__table=table) | Q(pk__in=table.seats.values("replaced_user"))
    people = get_user_model().objects.filter(seated).exclude(pk=user.pk)
    return list(people.distinct().order_by("username"))


def lobby_tables(page: int = 1) -> list[Table]:
    """The ``LOBBY_ROWS`` open public tables of ``page``, newest first, each with
    ``seats_taken`` (people and bots)."""
    start = (max(page, 1) - 1) * LOBBY_ROWS
    return list(_open_public_tables()[start : start + LOBBY_ROWS])


def lobby_pages() -> int:
    """How many pages of ``LOBBY_ROWS`` the open public tables fill (at least one)."""
    count = Table.objects.filter(status=Table.Status.OPEN, public=True).count()
    return max(1, -(-count // LOBBY_ROWS))


def _lock_table(table_id: int) -> Table:
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except (Table.DoesNotExist, ValueError, TypeError):
        raise ServiceError("not_found", _("There is no such table.")) from None


def _seat_at(table: Table, position: int) -> Seat:
    seat = table.seats.filter(position=position).first()
    if seat is None:
        raise ServiceError("not_found", _("There is no such seat."))
    return seat


def _check_host_before_start(table: Table, user: User) -> None:
    if table.host_id != user.pk:
        raise ServiceError("forbidden", _("Only the host can do that."))
    if table.status != Table.Status.OPEN:
        raise ServiceError("forbidden", _("The game has already started."))


def _pass_host_on(table: Table) -> bool:
    """The host left an open table: the next seated person hosts it. False if nobody is left
    to."""
    heir = table.seats.filter(user__isnull=False).order_by("position").first()
    if heir is None:
        return False
    table.host_id = heir.user_id
    table.save(update_fields=["host"])
    return True


def _open_public_tables() -> QuerySet[Table]:
    return (
        Table.objects.filter(status=Table.Status.OPEN, public=True)
        .select_related("host")
        .annotate(
            seats_taken=Count("seats", filter=Q(seats__user__isnull=False) | ~Q(seats__bot=""))
        )
        .order_by("-created_at")
    )
