"""Quick match ("Play now"): the pools, entering and leaving them, and the waves that seat
their people at new tables.

The waiting list is the database's (:class:`~games.models.PoolEntry`), so every web process and
``manage.py run_clock`` share it. Each clock's tick calls :func:`wave`; one clock at a time
holds the wave (a lease on the one :class:`~games.models.MatchWave` row), and each group is
seated in a transaction of its own that deletes its people's entries first, so that even two
waves at once could never seat one person twice. :mod:`games.services.pairing` decides who
plays whom.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.db.models.functions import Greatest
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts import guests, sanctions
from accounts.models import Sanction
from games.models import (
    DEFAULT_BOT_LEVEL,
    MatchWave,
    PoolEntry,
    Rating,
    RatingMode,
    Seat,
    Table,
)
from games.services import broadcast, pairing, ratings, starting, tables, turns
from games.services.errors import ServiceError
from lib.sqlite.retry import retried_while_locked

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Pool:
    """One kind of game people wait for: its table's seats, turn time (R23) and stages (R22)."""

    key: str
    label: Promise
    seats: int
    turn_seconds: int | None
    tournament: bool = False
    # Turn-based: days per move. Its people need not keep the pool page open: they wait up to
    # SEEK_KEPT, and are told when their first move comes.
    turn_days: int | None = None

    @property
    def mode(self) -> str:
        """The rating the pool's games count for (as ``ratings.mode_of`` a table)."""
        if self.turn_days:
            return RatingMode.TURN_BASED
        if self.tournament:
            return RatingMode.TOURNAMENT
        return RatingMode.DUEL if self.seats == 2 else RatingMode.PARTY


# The pools "Play now" offers, in the order the page shows them.
POOLS: dict[str, Pool] = {
    pool.key: pool
    for pool in (
        Pool("duel-15", gettext_lazy("Duel, 15 s turns"), 2, 15),
        Pool("duel-untimed", gettext_lazy("Duel, untimed"), 2, None),
        Pool("party-30", gettext_lazy("4 players, 30 s turns"), 4, 30),
        Pool("tournament", gettext_lazy("Tournament, 3 players, 30 s turns"), 3, 30, True),
        Pool("duel-days", gettext_lazy("Duel, 3 days a move"), 2, None, turn_days=3),
    )
}
TURN_BASED_POOLS = tuple(key for key, pool in POOLS.items() if pool.turn_days)
SEEK_KEPT = timedelta(days=7)  # a wait in a turn-based pool, its page closed, at most
WAVE_SECONDS = 2.0  # between two waves, whichever clock runs them
WAVE_LEASE = timedelta(seconds=60)  # a wave not over by then is taken to have died
# Tables one wave seats per pool, the longest waiters' first: the clock's thread also plays the
# bots' moves and the timeouts, which a rush of thousands must not hold up for seconds (a table
# takes milliseconds to write: docs/benchmarks.md). The others wait for the next wave.
TABLES_PER_WAVE = 50
# A process says its pool pages are still open every HEARTBEAT_SECONDS; an entry none of whose
# pages was heard from for LOST_AFTER has lost its server, and one whose last page closed
# RECONNECT_GRACE ago was not reloaded: the wave reaps both before it pairs.
HEARTBEAT_SECONDS = 10.0
LOST_AFTER = timedelta(seconds=30)
RECONNECT_GRACE = timedelta(seconds=5)
QUICK_MATCH_BOT = DEFAULT_BOT_LEVEL
UNFINISHED = (Table.Status.OPEN, Table.Status.PLAYING)


def pool_named(key: str) -> Pool:
    """:raises ServiceError: ``bad_request`` for a pool that does not exist."""
    pool = POOLS.get(key)
    if pool is None:
        raise ServiceError("bad_request", _("There is no such pool."))
    return pool


def current_table(user: AbstractBaseUser) -> Table | None:
    """The unfinished table (waiting or playing) played live where ``user`` sits, the newest
    first (turn-based ones are played beside quick match's)."""
    return (
        Table.objects.filter(status__in=UNFINISHED, seats__user=user, turn_days__isnull=True)
        .order_by("-created_at", "-pk")
        .first()
    )


def entry_of(user: AbstractBaseUser) -> PoolEntry | None:
    return PoolEntry.objects.filter(user=user).first()


def enter(
    user: AbstractBaseUser, key: str, *, bots_wanted: bool = False, now: datetime | None = None
) -> PoolEntry:
    """Put ``user`` in the pool ``key``, with the rating they have in its mode now; someone
    already in another pool moves to this one (one pool at a time), and someone already in
    this one keeps their place and the time they have waited.

    :raises ServiceError: ``bad_request`` (no such pool); ``forbidden`` (a guest, a ban or a
        play ban); ``seated`` (they sit at an unfinished table: :func:`current_table`).
    """
    pool = pool_named(key)
    if guests.is_guest(user):
        raise ServiceError(
            "forbidden", _("Guests play against bots. Keep your account to play with people.")
        )
    if not user.is_active:  # an account ban deactivates the account
        raise ServiceError("forbidden", _("This account is banned."))
    tables.check_may_play(user)
    tables.refuse_bot_accounts(user)
    now = now or timezone.now()
    try:
        return _enter(user, pool, bots_wanted, now)
    except IntegrityError:  # a second click made the entry meanwhile: this one updates it
        return _enter(user, pool, bots_wanted, now)


def _enter(user: AbstractBaseUser, pool: Pool, bots_wanted: bool, now: datetime) -> PoolEntry:
    with transaction.atomic():
        if pool.turn_days:
            turns.check_cap(user)  # played beside live tables: only the cap holds it back
        elif current_table(user) is not None:
            raise ServiceError("seated", _("You already sit at a table: finish or leave it first."))
        entry = PoolEntry.objects.select_for_update().filter(user=user).first()
        if entry is None:
            entry = PoolEntry(user=user, sockets=0)
        elif entry.pool != pool.key:
            broadcast.pool_changed(entry.pool)
            broadcast.pool_place_changed(user.pk)  # its pages follow it to the new pool
        if entry.pool != pool.key:
            entry.pool, entry.joined_at = pool.key, now
            entry.rating = rating_in(user, pool.mode)
            broadcast.pool_changed(pool.key)
        # Asking for the same pool again (a second click, another tab) keeps the time waited.
        entry.bots_wanted = bots_wanted
        entry.seen_at = now
        entry.save()
    return entry


def put_back(user: AbstractBaseUser, key: str, since: datetime, now: datetime) -> PoolEntry:
    """Put ``user`` back in the pool ``key`` at its head (a matched player who never came cost
    them their table): waiting since ``since``, when they were matched, or longer, so that
    nobody waiting there now has waited as long. Their table's page is asked to open the pool
    page, whose socket keeps the place; an entry no page opens is reaped as any other. Call it
    inside the transaction that took their table away."""
    pool = pool_named(key)
    waiting = PoolEntry.objects.filter(pool=key).exclude(user=user).order_by("joined_at")
    longest = waiting.values_list("joined_at", flat=True).first()
    head = since if longest is None else min(since, longest - timedelta(seconds=1))
    entry, _made = PoolEntry.objects.update_or_create(
        user=user,
        defaults={
            "pool": key,
            "joined_at": head,
            "rating": rating_in(user, pool.mode),
            "bots_wanted": False,
            "sockets": 0,
            "seen_at": now,
        },
    )
    broadcast.pool_changed(key)
    return entry


def rating_in(user: AbstractBaseUser, mode: str) -> int:
    """``user``'s rating in ``mode`` as shown, a newcomer's if they have none."""
    mu = Rating.objects.filter(user=user, mode=mode).values_list("mu", flat=True).first()
    return ratings.shown(ratings.MODEL.mu if mu is None else mu)


def leave(user: AbstractBaseUser) -> bool:
    """Take ``user`` out of their pool; False if they were in none."""
    with transaction.atomic():
        entry = PoolEntry.objects.select_for_update().filter(user=user).first()
        if entry is None:
            return False
        entry.delete()
        broadcast.pool_changed(entry.pool)
        broadcast.pool_place_changed(user.pk)
    return True


def waiting_count(key: str) -> int:
    return PoolEntry.objects.filter(pool=key).count()


# ---------------------------------------------------------------------------- the pool pages


def page_opened(user: AbstractBaseUser, now: datetime | None = None) -> PoolEntry | None:
    """A pool page of ``user`` opened its socket: count it. Their entry, or None if they are in
    no pool (seated meanwhile, or gone)."""
    now = now or timezone.now()
    with transaction.atomic():
        counted = PoolEntry.objects.filter(user=user).update(sockets=F("sockets") + 1, seen_at=now)
        return entry_of(user) if counted else None


def pages_alive(user_ids: Iterable[int], now: datetime | None = None) -> None:
    """These people's pool pages are still open: one process's heartbeat for all its pool
    sockets, one statement."""
    PoolEntry.objects.filter(user_id__in=list(user_ids)).update(seen_at=now or timezone.now())


def page_closed(user: AbstractBaseUser, now: datetime | None = None) -> None:
    """A pool page of ``user`` closed its socket. The last one closing leaves the entry to be
    reaped after ``RECONNECT_GRACE``, unless a page (the same one, reloaded) opens meanwhile."""
    PoolEntry.objects.filter(user=user).update(
        sockets=Greatest(F("sockets") - 1, 0), seen_at=now or timezone.now()
    )


def reap(now: datetime | None = None) -> int:
    """Take the ghosts out of the pools: the entries whose last page closed more than
    ``RECONNECT_GRACE`` ago, and those no page was heard from for ``LOST_AFTER`` (their server
    died with its sockets). Returns how many."""
    return retried_while_locked(lambda: _reap(now or timezone.now()))


def _reap(now: datetime) -> int:
    ghosts = Q(sockets=0, seen_at__lt=now - RECONNECT_GRACE) | Q(seen_at__lt=now - LOST_AFTER)
    # A turn-based pool's people wait with the page closed, up to SEEK_KEPT.
    ghosts = (ghosts & ~Q(pool__in=TURN_BASED_POOLS)) | Q(
        pool__in=TURN_BASED_POOLS, joined_at__lt=now - SEEK_KEPT
    )
    with transaction.atomic():
        gone = list(PoolEntry.objects.select_for_update().filter(ghosts).values_list("pk", "pool"))
        PoolEntry.objects.filter(pk__in=[pk for pk, _pool in gone]).delete()
        for pool in {pool for _pk, pool in gone}:
            broadcast.pool_changed(pool)
    return len(gone)


# ---------------------------------------------------------------------------- the waves


def wave(now: datetime | None = None) -> list[Table]:
    """One wave, if it is this clock's turn: reap the ghosts, pair every pool, seat each group
    (``TABLES_PER_WAVE`` at most per pool) at a new table that starts at once. Returns the
    tables. Called by every clock's tick."""
    now = now or timezone.now()
    if not claim_wave(now):
        return []
    try:
        reap(now)
        seated: list[Table] = []
        for pool in POOLS.values():
            before = len(seated)
            groups = pairing.pair(waiting_in(pool.key, now), pool.seats)
            for group in groups[:TABLES_PER_WAVE]:
                table = _seat_logged(pool, group, now)
                if table is not None:
                    seated.append(table)
            if len(seated) > before:
                broadcast.pool_changed(pool.key)  # once for the wave's tables, not per table
        return seated
    finally:
        retried_while_locked(lambda: MatchWave.objects.filter(pk=1).update(held_until=now))


def claim_wave(now: datetime) -> bool:
    """Whether this clock holds the wave now (:func:`_claim_wave`)."""
    return retried_while_locked(lambda: _claim_wave(now))


def _claim_wave(now: datetime) -> bool:
    """Take the wave's lease, if no clock holds it and the last wave began ``WAVE_SECONDS``
    ago. One conditional UPDATE: of two clocks asking at once, one changes the row and the
    other, waiting for its lock, then finds it taken (PostgreSQL re-reads the row it waited for;
    SQLite's write lock serialises the two). A clock asking too soon only reads: every clock
    asks four times a second, and on SQLite a write would queue behind the players' moves."""
    due = now - timedelta(seconds=WAVE_SECONDS)
    wave = MatchWave.objects.filter(pk=1).values_list("held_until", "last_at").first()
    if wave is None:
        try:
            with transaction.atomic():
                MatchWave.objects.get_or_create(
                    pk=1, defaults={"held_until": now, "last_at": now - timedelta(days=1)}
                )
        except IntegrityError:
            pass  # another clock made the row at the same moment
    elif wave[0] > now or wave[1] > due:
        return False  # held, or too soon
    claimed = MatchWave.objects.filter(pk=1, held_until__lte=now, last_at__lte=due).update(
        held_until=now + WAVE_LEASE, last_at=now
    )
    return claimed == 1


def waiting_in(key: str, now: datetime) -> list[pairing.Waiting]:
    """The pool's people as the pairing sees them."""
    rows = PoolEntry.objects.filter(pool=key).values_list(
        "pk", "rating", "joined_at", "bots_wanted"
    )
    return [
        pairing.Waiting(pk, rating, (now - joined).total_seconds(), bots)
        for pk, rating, joined, bots in rows
    ]


def _seat_logged(pool: Pool, group: pairing.Group, now: datetime) -> Table | None:
    try:
        return seat_group(pool, group, now)
    except Exception:
        logger.exception("quick match could not seat a group of %s", pool.key)
        return None


def seat_group(pool: Pool, group: pairing.Group, now: datetime | None = None) -> Table | None:
    """Seat one group at a new table of ``pool`` and start its game, in one transaction: the
    table, its seats, the game, and the group's entries deleted. None (nothing written) if one
    of them is no longer in the pool: they left, moved, or another wave seated them. The pool's
    pages are told the new count by the caller, once for all its groups.

    Rated when every seat is a signed-up person (no guest and no bot at the start:
    ``starting.start_seated`` decides, as for any table); casual when bots fill it.
    """
    return retried_while_locked(lambda: _seat_group(pool, group, now or timezone.now()))


def _seat_group(pool: Pool, group: pairing.Group, now: datetime) -> Table | None:
    with transaction.atomic():
        entries = list(
            PoolEntry.objects.select_for_update()
            .filter(pk__in=group.entries, pool=pool.key)
            .select_related("user")
        )
        if len(entries) != len(group.entries):
            return None
        unable = _unable_to_sit(entries, pool)
        if unable:
            # Banned meanwhile, or sat down elsewhere: they leave the pool; the others wait on.
            for entry in unable:
                _drop(entry)
            return None
        # The rows locked above go now: a second wave waiting on the lock finds fewer entries.
        deleted, _rows = PoolEntry.objects.filter(pk__in=group.entries).delete()
        if deleted != len(group.entries):
            raise IntegrityError("a pool entry went while it was locked")
        table = _open_matched_table(pool, [entry.user for entry in entries], group.bots)
        starting.start_seated(table, now)
        for entry in entries:
            broadcast.pool_place_changed(entry.user_id, table.pk)
    return table


def _unable_to_sit(entries: list[PoolEntry], pool: Pool) -> list[PoolEntry]:
    """The entries of people banned or play-banned, or seated at an unfinished live table (for
    a turn-based pool: playing ``turns.MAX_TURN_BASED`` turn-based games already)."""
    if pool.turn_days:
        seated = {
            entry.user_id
            for entry in entries
            if turns.unfinished_count(entry.user_id) >= turns.MAX_TURN_BASED
        }
    else:
        seated = set(
            Seat.objects.filter(
                user__in=[entry.user_id for entry in entries],
                table__status__in=UNFINISHED,
                table__turn_days__isnull=True,
            ).values_list("user_id", flat=True)
        )
    return [
        entry
        for entry in entries
        if entry.user_id in seated
        or not entry.user.is_active
        or sanctions.active_sanction(entry.user, Sanction.Kind.PLAY_BAN) is not None
    ]


def _drop(entry: PoolEntry) -> None:
    entry.delete()
    broadcast.pool_changed(entry.pool)
    broadcast.pool_place_changed(entry.user_id)


def _open_matched_table(pool: Pool, people: list[AbstractBaseUser], bots: int) -> Table:
    """The group's table: public (anyone may watch, as on lichess), started at once so it never
    waits in the lobby; the people on random seats, bots after them."""
    random.shuffle(people)
    table = Table.objects.create(
        name=_("Play now: %(pool)s") % {"pool": pool.label},
        host=people[0],
        seat_count=pool.seats,
        tournament=pool.tournament,
        turn_seconds=pool.turn_seconds,
        turn_days=pool.turn_days,
        public=True,
        rated=bots == 0,
        pool=pool.key,
    )
    Seat.objects.bulk_create(
        Seat(
            table=table,
            position=position,
            user=people[position] if position < len(people) else None,
            bot="" if position < len(people) else QUICK_MATCH_BOT,
        )
        for position in range(pool.seats)
    )
    return table
