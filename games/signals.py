"""What the games do when a person's log-ins end: their sockets close (after commit), so a
socket opened under an ended log-in cannot act for them any longer; and when the social app
stored a notification for a person or marked some read: their pages' bells are told. Connected
in ``GamesConfig.ready``; a ban closes the sockets itself (``moderation.actions``)."""

from __future__ import annotations

from typing import Any

from games.services import broadcast


def close_sockets_on_log_out(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    """Django's ``user_logged_out``: ``user`` is None when the session had nobody logged in."""
    if user is not None:
        broadcast.sessions_ended(user.pk)


def close_sockets_on_new_password(sender: Any, user: Any, **kwargs: Any) -> None:
    """``accounts.signals.password_changed``: the person's other log-ins have ended."""
    broadcast.sessions_ended(user.pk)


def push_new_notification(sender: Any, user_id: int, notification_id: int, **kwargs: Any) -> None:
    """``social.signals.notified`` (sent after commit): the person's pages show it."""
    broadcast.bell_changed(user_id, notification_id)


def push_unread_count(sender: Any, user_id: int, **kwargs: Any) -> None:
    """``social.signals.notifications_read``: the person's other pages lower their count."""
    broadcast.bell_changed(user_id)
