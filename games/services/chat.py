"""A table's chat: the players' room and the spectators' room.

Everyone who may watch the table reads the players' room; only its players write there. The
spectators' room is for spectators alone, to read and to write: players never see it, so no one
can coach them during the game. As on lichess, the spectators' room closes with the game, and the
players may go on talking in theirs for a while after it ended (``AFTER_GAME_CHAT``); the lines
stay to be read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Sanction
from games.models import CHAT_MAX_CHARS, BlockedWord, ChatMessage, ChatMute, Game, Seat, Table
from games.services import broadcast
from games.services.access import signed_in_id
from games.services.errors import ServiceError, refuse_if_sanctioned
from lib.unicode import (
    MAX_MARKS_PER_CHARACTER,
    contains_word,
    has_invisible_characters,
    has_stacked_marks,
    looks_blank,
)
from social import relations

User = AbstractBaseUser
Room = ChatMessage.Room
# Per person, across tables: a few lines at once, then about one every two seconds.
CHAT_BURST = 5
CHAT_WINDOW_SECONDS = 10
# Lines of each room shown with the page.
CHAT_LINES = 50
# How long after a game ended (won, abandoned, aborted) its players may still write in the
# players' room.
AFTER_GAME_CHAT = timedelta(minutes=15)


@dataclass(frozen=True)
class ChatRooms:
    """The rooms a person reads and writes at a table; ``closed``, those they wrote in while the
    game ran and may not any longer."""

    read: tuple[str, ...]
    write: tuple[str, ...]
    closed: tuple[str, ...] = ()


def is_player(table_id: int, user: User | None) -> bool:
    """Whether ``user`` sits or sat at the table (a bot may have taken their seat)."""
    user_id = signed_in_id(user)
    return user_id is not None and user_id in _players_among(table_id, {user_id})


def _players_among(table_id: int, user_ids: set[int]) -> set[int]:
    """Which of ``user_ids`` sit or sat at the table, in one query."""
    players: set[int] = set()
    for seated, replaced in (
        Seat.objects.sat_by(*user_ids)
        .filter(table_id=table_id)
        .values_list("user_id", "replaced_user_id")
    ):
        players.update({seated, replaced} & user_ids)
    return players


def rooms_for(table_id: int, user: User | None) -> ChatRooms:
    """A player reads and writes the players' room; a signed-in spectator reads it and reads
    and writes the spectators' room; an anonymous visitor reads the players' room. Once the
    game is over, no one writes in the spectators' room, nor, ``AFTER_GAME_CHAT`` later, in the
    players'."""
    rooms = _rooms(signed_in_id(user), is_player(table_id, user))
    closed = closed_rooms(table_id)
    if not closed & set(rooms.write):
        return rooms
    return ChatRooms(
        read=rooms.read,
        write=tuple(room for room in rooms.write if room not in closed),
        closed=tuple(room for room in rooms.write if room in closed),
    )


def closed_rooms(table_id: int) -> frozenset[str]:
    """The rooms of the table no one may write in any longer: none while the table waits or
    plays; the spectators' room once its game is over, and the players' room too once
    ``AFTER_GAME_CHAT`` has passed (or at once, for a table closed before any game)."""
    status = Table.objects.filter(pk=table_id).values_list("status", flat=True).first()
    if status not in (Table.Status.FINISHED, Table.Status.ABORTED):
        return frozenset()
    ended = (
        Game.objects.filter(table_id=table_id)
        .order_by("-pk")
        .values_list("finished_at", flat=True)
        .first()
    )
    if ended is not None and timezone.now() - ended < AFTER_GAME_CHAT:
        return frozenset({Room.SPECTATORS})
    return frozenset({Room.PLAYERS, Room.SPECTATORS})


def _rooms(user_id: int | None, player: bool) -> ChatRooms:
    if player:
        return ChatRooms(read=(Room.PLAYERS,), write=(Room.PLAYERS,))
    if user_id is None:
        return ChatRooms(read=(Room.PLAYERS,), write=())
    return ChatRooms(read=(Room.PLAYERS, Room.SPECTATORS), write=(Room.SPECTATORS,))


def post_message(table_id: int, user: User, room: str, text: str) -> ChatMessage:
    """Post ``text`` to a room of the table's chat.

    :raises ServiceError: ``not_found``; ``forbidden`` (not this room, a chat mute, which says
        until when); ``bad_request`` (empty or nothing visible, too long, invisible characters,
        too many marks on one letter, a blocked word, too many messages).
    """
    text = (text or "").strip()
    if not text:
        raise ServiceError("bad_request", _("Write something first."))
    if len(text) > CHAT_MAX_CHARS:
        raise ServiceError(
            "bad_request",
            _("A message has at most %(count)d characters.") % {"count": CHAT_MAX_CHARS},
        )
    if has_invisible_characters(text):
        raise ServiceError(
            "bad_request", _("Messages cannot contain invisible or control characters.")
        )
    if looks_blank(text):
        raise ServiceError("bad_request", _("Write something visible."))
    if has_stacked_marks(text):
        raise ServiceError(
            "bad_request",
            _("Put at most %(count)d accents or marks on one letter.")
            % {"count": MAX_MARKS_PER_CHARACTER},
        )
    if not Table.objects.filter(pk=table_id).exists():
        raise ServiceError("not_found", _("There is no such table."))
    rooms = rooms_for(table_id, user)
    if room in rooms.closed:
        raise ServiceError("forbidden", _("The game is over: this chat is closed."))
    if room not in rooms.write:
        raise ServiceError("forbidden", _("You cannot write in this chat."))
    _check_not_muted(user)
    if contains_blocked_word(text):
        raise ServiceError("bad_request", _("Your message contains a word that is not allowed."))
    if not _take_chat_token(user):
        raise ServiceError("bad_request", _("You are sending messages too fast: wait a moment."))
    with transaction.atomic():
        message = ChatMessage.objects.create(table_id=table_id, author=user, room=room, text=text)
        broadcast.chat_posted(table_id, message.pk)
    return message


def _check_not_muted(user: User) -> None:
    refuse_if_sanctioned(user, Sanction.Kind.CHAT_MUTE)


def contains_blocked_word(text: str) -> bool:
    """Whether ``text`` holds a blocked word as a whole word (a phrase as words in a row),
    look-alike letters, accents, case and spelling out letter by letter notwithstanding
    (``lib.unicode.contains_word``)."""
    return contains_word(text, BlockedWord.objects.values_list("word", flat=True))


def _take_chat_token(user: User) -> bool:
    key = f"taki:chat-rate:{user.pk}"
    cache.add(key, 0, CHAT_WINDOW_SECONDS)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.add(key, 1, CHAT_WINDOW_SECONDS)
        count = 1
    return count <= CHAT_BURST


def muted_authors(user: User | None) -> set[int]:
    """Whose chat ``user`` has muted for themselves."""
    user_id = signed_in_id(user)
    if user_id is None:
        return set()
    return set(ChatMute.objects.filter(muter_id=user_id).values_list("muted_id", flat=True))


def hidden_authors(user: User | None) -> set[int]:
    """Whose lines ``user`` does not see: those they muted, and those they blocked
    (``social.relations.block``)."""
    if signed_in_id(user) is None:
        return set()
    return muted_authors(user) | relations.blocked_by(user)


def recent_messages(table_id: int, user: User | None, room: str) -> list[ChatMessage]:
    """The last ``CHAT_LINES`` visible lines of a room as ``user`` sees them, oldest first."""
    if room not in rooms_for(table_id, user).read:
        return []
    lines = (
        ChatMessage.objects.filter(table_id=table_id, room=room, hidden_at__isnull=True)
        .exclude(author_id__in=hidden_authors(user))
        .select_related("author")
        .order_by("-created_at", "-pk")[:CHAT_LINES]
    )
    return list(reversed(lines))


def lines_since(table_id: int, user: User | None, after_id: int) -> list[ChatMessage]:
    """The visible lines after line ``after_id`` that ``user`` may read at the table (their
    rooms, not from whom they muted or blocked), oldest first, at most ``CHAT_LINES`` of each
    room: what a socket that was reconnecting missed."""
    rooms = rooms_for(table_id, user).read
    lines = (
        ChatMessage.objects.filter(
            table_id=table_id, room__in=rooms, pk__gt=after_id, hidden_at__isnull=True
        )
        .exclude(author_id__in=hidden_authors(user))
        .select_related("author")
        .order_by("pk")[: CHAT_LINES * len(rooms)]
    )
    return list(lines)


def readers_of(
    message_id: int, table_id: int, users: Sequence[User | None]
) -> tuple[ChatMessage | None, list[bool]]:
    """A new message (None if hidden or gone) and, for each of ``users``, whether they may read
    it: its room is theirs (``rooms_for``) and they have neither muted nor blocked its author.
    Four queries for all the sockets of a table, not four for each."""
    message = (
        ChatMessage.objects.select_related("author")
        .filter(pk=message_id, table_id=table_id, hidden_at__isnull=True)
        .first()
    )
    if message is None:
        return None, [False] * len(users)
    user_ids = [signed_in_id(user) for user in users]
    ids = {user_id for user_id in user_ids if user_id is not None}
    players: set[int] = set()
    muters: set[int] = set()
    if ids:
        players = _players_among(table_id, ids)
        muters = set(
            ChatMute.objects.filter(muted_id=message.author_id, muter_id__in=ids).values_list(
                "muter_id", flat=True
            )
        )
        muters |= relations.blockers_among(message.author_id, ids)
    return message, [
        message.room in _rooms(user_id, user_id in players).read and user_id not in muters
        for user_id in user_ids
    ]


def mute(user: User, other: User) -> None:
    """``user`` stops seeing ``other``'s chat.

    :raises ServiceError: ``bad_request`` for oneself.
    """
    if user.pk == other.pk:
        raise ServiceError("bad_request", _("You cannot mute yourself."))
    ChatMute.objects.get_or_create(muter=user, muted=other)


def unmute(user: User, other: User) -> None:
    ChatMute.objects.filter(muter=user, muted=other).delete()
