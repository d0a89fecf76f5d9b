"""``make bench-social``: the site socket of every signed-in page (``ws/site/``), measured from
outside.

Two parts, on one Redis (REDIS_URL's, else a redis-server of the run's own) and the caller's
throwaway database:

- **Idle sockets and presence.** One Daphne process; ``sockets`` readers, each with one site
  socket showing the friends panel (``?friends=1``, as the home page opens it), opened from
  this process with aiohttp. The server's resident memory is read from ``/proc`` before the
  sockets open (after one socket opened and closed, so that the consumer's code and threads are
  loaded) and after, and halfway. Then ``changers`` people, each a friend of every reader, come
  online (a site socket of theirs opens) and go offline (it closes; their friends are told
  ``online.GONE_AFTER`` seconds later), one at a time: each is one presence change, and every
  reader's panel is drawn again and pushed. The server's CPU (utime + stime from ``/proc``) is
  read around each change, from just before it until the last reader got its push.
- **The bell across processes.** Two Daphne processes. The recipient's site socket is on the
  first; an actor, logged in on the second, follows the recipient over HTTP (a POST, as the
  profile page's button sends it) and unfollows them again, ``actions`` times. Each follow is a
  notification: the time from the follow's request to the recipient's socket receiving the bell
  with the alert (``#site-alert``) is measured.

Sessions are made directly in the database (the benchmark's settings use the MD5 hasher, and a
thousand log-ins through the page would measure the log-in page); the actor logs in through the
site's page.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

import aiohttp
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.auth.hashers import MD5PasswordHasher
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.utils import timezone

from games.services import online
from social.models import Follow
from tools.loadtest.driver import SETUP_AT_ONCE, Client, Think
from tools.loadtest.flood import resident_mib
from tools.loadtest.run import PASSWORD
from tools.loadtest.servers import SITE_APP, DaphneGroup, cpu_seconds
from tools.loadtest.stats import SiteCounters, percentile

PANEL = 'id="friends-panel"'
ALERT = 'id="site-alert"'
PUSH_TIMEOUT = 120.0  # for every reader's push of one change, or one bell
IDLE_SECONDS = 12.0  # longer than online.ONLINE_REFRESH: one heartbeat falls inside
SETTLE_SECONDS = 2.0  # after the sockets opened, before memory is read


@dataclass(frozen=True)
class SocialOptions:
    sockets: int = 1000
    changers: int = 5
    changes: int = 10  # presence changes: half coming online, half going offline
    actions: int = 300  # follows across the processes, each a notification


@dataclass
class Change:
    """One presence change: a friend of every reader came online or went offline."""

    online: bool
    pushes: int = 0  # friends panels the readers received for it
    cpu_seconds: float = 0.0  # the server's, from the change until the last push arrived
    redis_cpu_seconds: float | None = None
    last_push_seconds: float = 0.0  # from the socket opening or closing to the last push


@dataclass
class SocialReport:
    sockets: int = 0
    opened: int = 0  # sockets open when memory was read
    rss_before_mib: float = 0.0
    rss_half_mib: float = 0.0  # with half the sockets open
    rss_after_mib: float = 0.0
    idle_seconds: float = 0.0
    idle_cpu_seconds: float = 0.0
    changes: list[Change] = field(default_factory=list)
    bells: list[float] = field(default_factory=list)  # follow's request to the bell, seconds
    follow_requests: list[float] = field(default_factory=list)  # the follow's HTTP answer

    @property
    def kib_per_socket(self) -> float:
        return (self.rss_after_mib - self.rss_before_mib) * 1024 / max(1, self.opened)

    @property
    def kib_per_socket_second_half(self) -> float:
        half = self.opened - self.opened // 2
        return (self.rss_after_mib - self.rss_half_mib) * 1024 / max(1, half)

    def net_cpu_ms(self, change: Change) -> float:
        """A change's server CPU less what the idle sockets spend in the same time."""
        idle_rate = self.idle_cpu_seconds / self.idle_seconds if self.idle_seconds else 0.0
        return (change.cpu_seconds - idle_rate * change.last_push_seconds) * 1000

    def lines(self) -> list[str]:
        def ms(samples: list[float]) -> str:
            if not samples:
                return "no samples"
            p50, p99 = percentile(samples, 0.5), percentile(samples, 0.99)
            return (
                f"p50 {p50 * 1000:,.1f} ms  p99 {p99 * 1000:,.1f} ms  "
                f"max {max(samples) * 1000:,.1f} ms  ({len(samples)} samples)"
            )

        lines = [
            f"-- {self.opened:,} idle site sockets on one Daphne process",
            f"server memory      {self.rss_before_mib:,.1f} MiB before, "
            f"{self.rss_half_mib:,.1f} MiB at half, {self.rss_after_mib:,.1f} MiB after",
            f"per idle socket    {self.kib_per_socket:,.1f} KiB "
            f"({self.kib_per_socket_second_half:,.1f} KiB over the second half)",
            f"idle CPU           {self.idle_cpu_seconds * 1000:,.0f} ms in {self.idle_seconds:g} s",
        ]
        for online_now in (True, False):
            changes = [change for change in self.changes if change.online is online_now]
            if not changes:
                continue
            word = "coming online" if online_now else "going offline"
            cpu = sorted(self.net_cpu_ms(change) for change in changes)
            pushes = sorted(change.pushes for change in changes)
            last = sorted(change.last_push_seconds for change in changes)
            lines.append(
                f"{word:18} {len(changes)} changes, {pushes[0]:,}-{pushes[-1]:,} pushes each; "
                f"server CPU {sum(cpu) / len(cpu):,.0f} ms per change "
                f"({cpu[0]:,.0f}-{cpu[-1]:,.0f}), {sum(cpu) / sum(pushes):,.2f} ms per push; "
                f"last push after {last[len(last) // 2]:,.2f} s (median)"
            )
            redis = [change.redis_cpu_seconds for change in changes]
            if all(value is not None for value in redis):
                total = sum(value for value in redis if value is not None)
                lines.append(f"{'':18} Redis CPU {total * 1000 / len(redis):,.0f} ms per change")
        lines += [
            "-- the bell across two Daphne processes on Redis",
            f"follow to bell     {ms(self.bells)}",
            f"follow's answer    {ms(self.follow_requests)}",
        ]
        return lines


def make_people(count: int, prefix: str) -> list[int]:
    """``count`` accounts named ``prefix-<index>``, made directly in the database; their ids in
    that order."""
    password = MD5PasswordHasher().encode(PASSWORD, MD5PasswordHasher().salt())
    User = get_user_model()
    names = [f"{prefix}-{index}" for index in range(count)]
    User.objects.bulk_create((User(username=name, password=password) for name in names), 500)
    ids = dict(User.objects.filter(username__in=names).values_list("username", "pk"))
    return [ids[name] for name in names]


def make_sessions(user_ids: list[int]) -> list[str]:
    """A signed-in session of each person, as the log-in page would leave it; their keys."""
    User = get_user_model()
    people = User.objects.in_bulk(user_ids)
    backend = settings.AUTHENTICATION_BACKENDS[0]
    expire = timezone.now() + timedelta(days=1)
    rows = []
    for user_id in user_ids:
        user = people[user_id]
        store = SessionStore()
        data = {
            SESSION_KEY: str(user.pk),
            BACKEND_SESSION_KEY: backend,
            HASH_SESSION_KEY: user.get_session_auth_hash(),
        }
        key = secrets.token_hex(16)
        rows.append(Session(session_key=key, session_data=store.encode(data), expire_date=expire))
    Session.objects.bulk_create(rows, 500)
    return [row.session_key for row in rows]


def make_friends(people: list[int], others: list[int]) -> None:
    """Every one of ``people`` and every one of ``others`` follow each other."""
    rows = [Follow(follower_id=a, followed_id=b) for a in people for b in others]
    rows += [Follow(follower_id=b, followed_id=a) for a in people for b in others]
    Follow.objects.bulk_create(rows, 1000)


class Readers:
    """The readers' sockets, counting the friends panels pushed to them."""

    def __init__(self) -> None:
        self.sockets: list[aiohttp.ClientWebSocketResponse] = []
        self.tasks: list[asyncio.Task[None]] = []
        self.panels = 0
        self.frames = 0
        self.last_panel_at = 0.0
        self._waiting: tuple[int, asyncio.Event] | None = None

    async def listen(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        async for message in ws:
            if message.type != aiohttp.WSMsgType.TEXT:
                break
            self.frames += 1
            if PANEL in message.data:
                self.panels += 1
                self.last_panel_at = time.monotonic()
                if self._waiting is not None and self.panels >= self._waiting[0]:
                    self._waiting[1].set()

    async def until(self, panels: int) -> None:
        """Until ``panels`` friends panels in all have arrived."""
        event = asyncio.Event()
        self._waiting = (panels, event)
        if self.panels < panels:
            await asyncio.wait_for(event.wait(), PUSH_TIMEOUT)
        self._waiting = None


async def _open(
    session: aiohttp.ClientSession, url: str, key: str, query: str = ""
) -> tuple[aiohttp.ClientWebSocketResponse, str]:
    """A site socket signed in with session ``key``, and its first frame (the bell)."""
    headers = {"Cookie": f"{settings.SESSION_COOKIE_NAME}={key}", "Origin": url}
    ws = await session.ws_connect(f"{url}/ws/site/{query}", headers=headers, max_msg_size=0)
    first = await ws.receive(timeout=PUSH_TIMEOUT)
    if first.type != aiohttp.WSMsgType.TEXT or 'id="bell"' not in first.data:
        raise RuntimeError(f"the site socket did not open with the bell: {first!r}")
    return ws, first.data


def run_social(
    options: SocialOptions,
    log_dir: Path,
    say: Callable[[str], None],
    redis_url: str,
    redis_pid: int | None,
) -> SocialReport:
    report = SocialReport(sockets=options.sockets)
    prefix = "so" + secrets.token_hex(3)
    readers = make_people(options.sockets, f"{prefix}-r")
    changers = make_people(options.changers, f"{prefix}-c")
    make_friends(changers, readers)
    reader_keys = make_sessions(readers)
    changer_keys = make_sessions(changers)
    recipient, actor = make_people(2, f"{prefix}-b")
    recipient_key = make_sessions([recipient])[0]
    actor_name = f"{prefix}-b-1"
    recipient_name = f"{prefix}-b-0"
    env = {"REDIS_URL": redis_url}
    say(f"{options.sockets:,} readers, each a friend of {options.changers} people: one Daphne")
    with DaphneGroup(SITE_APP, 1, log_dir, "social", env=env) as site:
        asyncio.run(_idle(options, site, report, reader_keys, changer_keys, redis_pid, say))
        site.check_alive()
    say(f"the bell across two Daphne processes, {options.actions} follows")
    with DaphneGroup(SITE_APP, 2, log_dir, "bell", env=env) as pair:
        asyncio.run(_bells(options, pair, report, recipient_key, actor_name, recipient_name))
        pair.check_alive()
    return report


async def _idle(
    options: SocialOptions,
    site: DaphneGroup,
    report: SocialReport,
    reader_keys: list[str],
    changer_keys: list[str],
    redis_pid: int | None,
    say: Callable[[str], None],
) -> None:
    pid = site.processes[0].pid
    url = site.urls[0]
    connector = aiohttp.TCPConnector(limit=0)
    readers = Readers()
    async with aiohttp.ClientSession(connector=connector) as session:
        try:
            # One socket opened and closed first: the consumer's code, the database thread and
            # the channel layer's connection are then there before memory is read.
            ws, _ = await _open(session, url, changer_keys[0])
            await ws.close()
            await asyncio.sleep(online.GONE_AFTER + 1.0)
            report.rss_before_mib = resident_mib(pid)

            at_once = asyncio.Semaphore(SETUP_AT_ONCE)

            async def open_reader(key: str) -> None:
                async with at_once:
                    ws, _ = await _open(session, url, key, "?friends=1")
                readers.sockets.append(ws)
                readers.tasks.append(asyncio.create_task(readers.listen(ws)))

            half = len(reader_keys) // 2
            await asyncio.gather(*(open_reader(key) for key in reader_keys[:half]))
            await asyncio.sleep(SETTLE_SECONDS)
            report.rss_half_mib = resident_mib(pid)
            await asyncio.gather(*(open_reader(key) for key in reader_keys[half:]))
            await asyncio.sleep(SETTLE_SECONDS)
            report.rss_after_mib = resident_mib(pid)
            report.opened = len(readers.sockets)
            say(f"{report.opened:,} sockets open; idle for {IDLE_SECONDS:g} s")

            cpu = cpu_seconds(pid)
            await asyncio.sleep(IDLE_SECONDS)
            report.idle_cpu_seconds = cpu_seconds(pid) - cpu
            report.idle_seconds = IDLE_SECONDS

            for index in range(options.changes // 2):
                key = changer_keys[index % len(changer_keys)]
                arrived = readers.panels
                started, cpu, redis_cpu = time.monotonic(), cpu_seconds(pid), _cpu(redis_pid)
                ws, _ = await _open(session, url, key)
                await readers.until(arrived + report.opened)
                report.changes.append(
                    _change(True, readers, arrived, started, pid, cpu, redis_pid, redis_cpu)
                )
                arrived = readers.panels
                started, cpu, redis_cpu = time.monotonic(), cpu_seconds(pid), _cpu(redis_pid)
                await ws.close()
                await readers.until(arrived + report.opened)
                report.changes.append(
                    _change(False, readers, arrived, started, pid, cpu, redis_pid, redis_cpu)
                )
                say(f"presence changes: {len(report.changes)} of {options.changes}")
        finally:
            for ws in readers.sockets:
                await ws.close()
            for task in readers.tasks:
                task.cancel()
            await asyncio.gather(*readers.tasks, return_exceptions=True)


def _cpu(pid: int | None) -> float | None:
    return cpu_seconds(pid) if pid is not None else None


def _change(
    online_now: bool,
    readers: Readers,
    arrived: int,
    started: float,
    pid: int,
    cpu: float,
    redis_pid: int | None,
    redis_cpu: float | None,
) -> Change:
    change = Change(online_now)
    change.cpu_seconds = cpu_seconds(pid) - cpu
    change.last_push_seconds = readers.last_panel_at - started
    change.pushes = readers.panels - arrived
    if redis_pid is not None and redis_cpu is not None:
        change.redis_cpu_seconds = cpu_seconds(redis_pid) - redis_cpu
    return change


async def _bells(
    options: SocialOptions,
    pair: DaphneGroup,
    report: SocialReport,
    recipient_key: str,
    actor_name: str,
    recipient_name: str,
) -> None:
    first, second = pair.urls
    connector = aiohttp.TCPConnector(limit=0)
    bells: asyncio.Queue[float] = asyncio.Queue()

    async def listen(ws: aiohttp.ClientWebSocketResponse) -> None:
        async for message in ws:
            if message.type != aiohttp.WSMsgType.TEXT:
                break
            if ALERT in message.data and "<p" in message.data:
                bells.put_nowait(time.monotonic())

    actor = Client(actor_name, second, connector, SiteCounters(), random.Random(1), Think())
    async with aiohttp.ClientSession(connector=connector, connector_owner=False) as session:
        ws, _ = await _open(session, first, recipient_key)
        listener = asyncio.create_task(listen(ws))
        try:
            await actor.log_in(PASSWORD)
            path = f"/players/{recipient_name}"
            for _ in range(options.actions):
                started = time.monotonic()
                await actor.post(f"{path}/follow/")
                report.follow_requests.append(time.monotonic() - started)
                rang = await asyncio.wait_for(bells.get(), PUSH_TIMEOUT)
                report.bells.append(rang - started)
                await actor.post(f"{path}/unfollow/")
            if not bells.empty():
                raise RuntimeError("the bell rang more often than the recipient was followed")
        finally:
            await ws.close()
            listener.cancel()
            await asyncio.gather(listener, return_exceptions=True)
            await actor.close()
            await connector.close()
