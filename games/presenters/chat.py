"""The table's chat as HTML: the panel on the page, and the fragments its socket pushes.

Every line is drawn by ``games/partials/chat_line.html`` (page and push alike), autoescaped:
whatever a player types is shown as text.
"""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from accounts.models import Sanction
from accounts.sanctions import active_sanction
from games.models import CHAT_MAX_CHARS, ChatMessage
from games.services import chat


def chat_context(table_id: int, user: Any) -> dict[str, Any]:
    """What ``games/partials/chat.html`` draws: the rooms ``user`` reads, with their recent
    lines, and whether they may write in each; a player a moderator muted is told so, and until
    when, in place of the box they could not send from."""
    rooms = chat.rooms_for(table_id, user)
    titles = {
        ChatMessage.Room.PLAYERS: _("Players' chat"),
        ChatMessage.Room.SPECTATORS: _("Spectators' chat"),
    }
    return {
        "chat_rooms": [
            {
                "name": room,
                "title": titles[room],
                "lines": chat.recent_messages(table_id, user, room),
                "writable": room in rooms.write,
            }
            for room in rooms.read
        ],
        "chat_max": CHAT_MAX_CHARS,
        "chat_muted_until": chat_mute_words(user),
    }


def chat_mute_words(user: Any) -> str | None:
    """What a player whom a moderator muted reads in place of the chat box: for good, or until
    when (local time); None while they may write."""
    mute = active_sanction(user, Sanction.Kind.CHAT_MUTE)
    if mute is None:
        return None
    if mute.ends_at is None:
        return _("A moderator has muted your chat for good: you can read it, not write in it.")
    ends = formats.date_format(timezone.localtime(mute.ends_at), "DATETIME_FORMAT")
    words = _(
        "A moderator has muted your chat until %(until)s: until then you can read it, "
        "not write in it."
    )
    return words % {"until": ends}


def chat_line_fragment(line: ChatMessage) -> str:
    """One new chat line, appended to its room's log (an htmx out-of-band swap)."""
    return render_to_string("games/partials/chat_push.html", {"line": line})


def chat_flash_fragment(words: str) -> str:
    """Why this socket's chat line was refused (empty: it was sent)."""
    return render_to_string("games/partials/chat_flash.html", {"chat_flash": words})


def chat_hidden_fragment(message_id: int) -> str:
    return f'<li id="chat-line-{int(message_id)}" hx-swap-oob="delete"></li>'
