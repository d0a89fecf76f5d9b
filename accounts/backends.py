"""Log in with the username in any mix of case: "Dana", "dana" and "DANA" are one player."""

from __future__ import annotations

from typing import Any

from asgiref.sync import sync_to_async
from django.contrib.auth import check_password_with_timing_attack_mitigation
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest
from django.views.decorators.debug import sensitive_variables

from accounts.usernames import find_user


class CaseInsensitiveModelBackend(ModelBackend):
    """Django's ModelBackend, with the username looked up ignoring case.

    Like ModelBackend it refuses inactive (banned) users, both here and in ``get_user``, so a
    ban also ends the sessions the user already has.
    """

    @sensitive_variables("password")
    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> AbstractBaseUser | None:
        if username is None or password is None:
            return None
        user = find_user(username)
        # Hashes the password even when nobody has that name, so the time taken does not tell
        # an attacker which names exist.
        if check_password_with_timing_attack_mitigation(
            user, password
        ) and self.user_can_authenticate(user):
            return user
        return None

    async def aauthenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> AbstractBaseUser | None:
        return await sync_to_async(self.authenticate)(request, username, password, **kwargs)
