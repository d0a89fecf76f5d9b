"""Who has a page of the site open, counted in the cache (shared by every process with
REDIS_URL), as ``presence`` counts who is at a table.

Each signed-in page holds one site socket (``games.live.site``); its person's count goes up as
it opens and down as it closes, and the process that holds the sockets keeps the counts alive
every ``ONLINE_REFRESH`` seconds for all its people at once (``pages_alive``): the counts of a
process that died with its sockets open expire within ``ONLINE_TTL`` seconds. Going from one
page to the next closes one socket and opens another, so a person is told gone to their
friends only once no page of theirs has been open for ``GONE_AFTER`` seconds (``gone``, which
the socket asks that long after it closed); their friends' panels are drawn again when they
come and when they go (``broadcast.friends_presence_changed``), and when they sit down to a game
or leave one (:func:`playing_changed`).

How many people are online, for the home page: each process writes the people it holds sockets
for under a key of its own (``process_people``), renewed with its heartbeat and expiring with
it, and names that key in one list of the processes; :func:`people_online` counts the people of
the processes listed, each once. A process dropped from the list by two writing it at once
writes itself back at its next heartbeat.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from django.contrib.auth.models import AbstractBaseUser
from django.core.cache import cache

from games.services import broadcast
from lib.cache_keys import touch_many
from social import relations

ONLINE_TTL = 30
ONLINE_REFRESH = 10
GONE_AFTER = 5.0  # seconds without a page before a person's friends are told they left


def page_opened(user: AbstractBaseUser) -> int:
    """One more page of ``user``'s open; how many they have now. Their friends are told when
    they come online (not when they only went from one page to the next)."""
    key = _count_key(user.pk)
    if cache.add(key, 1, ONLINE_TTL):
        count = 1
    else:
        try:
            count = cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.add(key, 1, ONLINE_TTL)
            count = 1
        cache.touch(key, ONLINE_TTL)
    if cache.add(_told_key(user.pk), True, ONLINE_TTL):
        _tell_friends(user)
    else:
        cache.touch(_told_key(user.pk), ONLINE_TTL)
    return count


def page_closed(user: AbstractBaseUser) -> int:
    """One page fewer; how many are left. Whether they have gone is asked later
    (:func:`gone`)."""
    key = _count_key(user.pk)
    try:
        count = cache.decr(key)
    except ValueError:  # expired already
        return 0
    if count < 0:
        cache.set(key, 0, ONLINE_TTL)
        count = 0
    return count


def gone(user: AbstractBaseUser) -> bool:
    """Asked ``GONE_AFTER`` after a person's page closed: if none of theirs is open now, their
    friends are told they left (once). Whether they have gone."""
    if (cache.get(_count_key(user.pk)) or 0) > 0:
        return False
    if cache.delete(_told_key(user.pk)):
        _tell_friends(user)
    return True


def pages_alive(user_ids: Iterable[int]) -> None:
    """Keep these people's counts from expiring: a process's open site sockets, every
    ``ONLINE_REFRESH`` seconds, in one round trip to the cache. A count that had expired
    meanwhile is set again."""
    ids = list(user_ids)
    keys = [_count_key(user_id) for user_id in ids] + [_told_key(user_id) for user_id in ids]
    kept = touch_many(keys, ONLINE_TTL)
    for user_id, count_kept in zip(ids, kept[: len(ids)], strict=True):
        if not count_kept:
            cache.add(_count_key(user_id), 1, ONLINE_TTL)
    for user_id, told_kept in zip(ids, kept[len(ids) :], strict=True):
        if not told_kept:
            cache.add(_told_key(user_id), True, ONLINE_TTL)


def online_among(user_ids: Iterable[int]) -> set[int]:
    """Which of ``user_ids`` have a page of the site open (one cache round trip)."""
    keys = {_count_key(user_id): user_id for user_id in user_ids}
    counts = cache.get_many(list(keys))
    return {keys[key] for key, count in counts.items() if count and count > 0}


def is_online(user: AbstractBaseUser) -> bool:
    return bool(online_among([user.pk]))


def process_people(process: str, user_ids: Iterable[int]) -> None:
    """The people with a page open in ``process`` (a name of its own), kept ``ONLINE_TTL``
    seconds, and the process kept in the list :func:`people_online` reads."""
    cache.set(_process_key(process), sorted(set(user_ids)), ONLINE_TTL)
    now = time.time()
    listed = cache.get(PROCESSES_KEY) or {}
    kept = {name: seen for name, seen in listed.items() if seen > now - ONLINE_TTL}
    kept[process] = now
    cache.set(PROCESSES_KEY, kept, None)


def people_online(viewer: AbstractBaseUser | None = None) -> int:
    """How many people have a page of the site open, in any process (two cache round trips);
    a signed-in ``viewer`` counted among them, since the page being drawn is theirs (its socket
    opens once it is drawn)."""
    listed = cache.get(PROCESSES_KEY) or {}
    held = cache.get_many([_process_key(name) for name in listed])
    people = set().union(*held.values())
    if viewer is not None and viewer.is_authenticated:
        people.add(viewer.pk)
    return len(people)


def playing_changed(user_ids: Iterable[int | None]) -> None:
    """These people sat down to a game or left one: their friends' panels are drawn again
    (after commit), each friend's pages told once; one query, however many people."""
    told = relations.friend_ids_of_any(pk for pk in user_ids if pk is not None)
    if told:
        broadcast.friends_presence_changed(sorted(told))


def _tell_friends(user: AbstractBaseUser) -> None:
    friends = list(relations.friends_of(user).values_list("pk", flat=True))
    if friends:
        broadcast.friends_presence_changed(friends)


def _process_key(process: str) -> str:
    return f"taki:online-process:{process}"


PROCESSES_KEY = "taki:online-processes"


def _count_key(user_id: int) -> str:
    return f"taki:online:{user_id}"


def _told_key(user_id: int) -> str:
    return f"taki:online-told:{user_id}"
