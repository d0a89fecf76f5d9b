"""What the games do when an account changes: its sockets close when its log-ins end."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_out
from django.db.models.signals import pre_save
from django.dispatch import receiver

from games.services import broadcast


@receiver(user_logged_out, dispatch_uid="games.close_sockets_on_log_out")
def close_sockets_on_log_out(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    if user is not None:
        broadcast.sessions_ended(user.pk)


@receiver(pre_save, dispatch_uid="games.close_sockets_on_new_password_or_ban")
def close_sockets_on_new_password_or_ban(sender: Any, instance: Any, **kwargs: Any) -> None:
    """A new password ends the person's other log-ins, and so does a ban: their sockets, opened
    under those log-ins, close too (after the change commits)."""
    if sender is not get_user_model() or instance.pk is None:
        return
    before = sender.objects.filter(pk=instance.pk).values("password", "is_active").first()
    if before is None:
        return
    if before["password"] != instance.password or (before["is_active"] and not instance.is_active):
        broadcast.sessions_ended(instance.pk)
