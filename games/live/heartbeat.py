"""The people with a page of one kind open in this process, told alive together, in one call
for all of them every few seconds, however many pages: what the pool's and the site's sockets
both keep (``games.live.pool``, ``games.live.site``)."""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from collections import Counter
from typing import ClassVar, Self

from channels.db import database_sync_to_async


class Heartbeat:
    """One per event loop (so per process) and per kind: :meth:`here`. A kind says how often
    (:meth:`interval`) and what telling its people alive is (:meth:`alive`); the beat runs
    while anyone is here."""

    _here: ClassVar[weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Heartbeat]]

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        cls._here = weakref.WeakKeyDictionary()

    def __init__(self) -> None:
        self.people: Counter[int] = Counter()
        self.task: asyncio.Task[None] | None = None

    @classmethod
    def here(cls) -> Self:
        """This event loop's (so this process's) heartbeat of the kind."""
        loop = asyncio.get_running_loop()
        if loop not in cls._here:
            cls._here[loop] = cls()
        return cls._here[loop]

    def add(self, user_id: int) -> int:
        """One more page of the person here; how many they have here now."""
        self.people[user_id] += 1
        if self.task is None or self.task.done():
            self.task = asyncio.ensure_future(self._beat())
        return self.people[user_id]

    def discard(self, user_id: int) -> None:
        self.people[user_id] -= 1
        if self.people[user_id] <= 0:
            del self.people[user_id]
        if not self.people and self.task is not None:
            self.task.cancel()  # no page left here to speak for
            self.task = None

    def interval(self) -> float:
        """Seconds between two beats."""
        raise NotImplementedError

    def alive(self, user_ids: list[int]) -> None:
        """Tell these people alive (in the database thread)."""
        raise NotImplementedError

    async def after_beat(self) -> None:
        """Whatever else the kind does on each beat."""

    async def _beat(self) -> None:
        alive = database_sync_to_async(self.alive)
        while self.people:
            await asyncio.sleep(self.interval())
            with contextlib.suppress(Exception):  # the database or cache away: next beat
                await alive(list(self.people))
            await self.after_beat()
