"""Who is connected to a table, counted in the cache (shared by every process with REDIS_URL).

Presence is not part of the game, so it is not in the database. One counter per person and
table, changed atomically (``incr``/``decr``) by each socket that opens or closes, and kept
alive every ``PRESENCE_REFRESH`` seconds by the process that holds the sockets, for all its
people at once (``people_alive``): the counts of a process that was killed with its sockets open
expire within ``PRESENCE_TTL`` seconds, and its people show offline, as on lichess, seconds
later. A person's first socket opening and last one closing tell the table
(``broadcast.presence_changed``), whose seats are drawn again.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import AbstractBaseUser
from django.core.cache import cache

from games.services import broadcast
from lib.cache_keys import touch_many

PRESENCE_TTL = 12
PRESENCE_REFRESH = 4
# A person's first socket at a table also notes that they came to it, for as long as a table
# quick match made may wait for its people (``games.services.no_shows``): someone who came and
# is reloading the page has come all the same.
ARRIVAL_TTL = 15 * 60


def socket_opened(table_id: int, user: AbstractBaseUser) -> int:
    """One more socket of ``user`` at the table; return how many they now have there. The
    table's seats are drawn again for everyone only when it is their first (a second tab
    changes nothing that anyone sees)."""
    key = presence_key(table_id, user.pk)
    if cache.add(key, 1, PRESENCE_TTL):
        count = 1
    else:
        try:
            count = cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.add(key, 1, PRESENCE_TTL)
            count = 1
        cache.touch(key, PRESENCE_TTL)
    if count == 1:
        cache.add(_arrival_key(table_id, user.pk), True, ARRIVAL_TTL)
        broadcast.presence_changed(table_id)
    return count


def socket_closed(table_id: int, user: AbstractBaseUser) -> None:
    """One socket fewer; when it was the last one, the seats are drawn again for everyone."""
    key = presence_key(table_id, user.pk)
    try:
        count = cache.decr(key)
    except ValueError:  # already expired: nobody is counted
        return
    if count <= 0:
        if count < 0:
            cache.set(key, 0, PRESENCE_TTL)
        broadcast.presence_changed(table_id)


def socket_alive(table_id: int, user: AbstractBaseUser) -> None:
    """An open socket keeps its person's count from expiring."""
    people_alive([(table_id, user.pk)])


def people_alive(pairs: Iterable[tuple[int, int]]) -> None:
    """Keep the counts of these people at these tables, ``(table_id, user_id)``, from expiring:
    a process's open sockets, every PRESENCE_REFRESH s, in one round trip to the cache. A count
    that had expired meanwhile is set again and its table's seats drawn again."""
    pairs = list(pairs)
    keys = [presence_key(table_id, user_id) for table_id, user_id in pairs]
    for (table_id, _user_id), key, kept in zip(
        pairs, keys, touch_many(keys, PRESENCE_TTL), strict=True
    ):
        if not kept and cache.add(key, 1, PRESENCE_TTL):
            broadcast.presence_changed(table_id)  # the count had expired: count this socket


def connected_users(table_id: int, user_ids: Iterable[int]) -> set[int]:
    """Which of ``user_ids`` have a socket open at the table (one cache round trip)."""
    keys = {presence_key(table_id, user_id): user_id for user_id in user_ids}
    counts = cache.get_many(list(keys))
    return {keys[key] for key, count in counts.items() if count and count > 0}


def arrived_users(table_id: int, user_ids: Iterable[int]) -> set[int]:
    """Which of ``user_ids`` opened the table's page in the last ``ARRIVAL_TTL`` seconds, open
    now or not (one cache round trip)."""
    keys = {_arrival_key(table_id, user_id): user_id for user_id in user_ids}
    return {keys[key] for key, came in cache.get_many(list(keys)).items() if came}


def presence_key(table_id: int, user_id: int) -> str:
    """The cache key of one person's count of sockets at one table."""
    return f"taki:presence:{table_id}:{user_id}"


def _arrival_key(table_id: int, user_id: int) -> str:
    return f"taki:arrived:{table_id}:{user_id}"
