"""Log in with the username in any mix of case: "Dana", "dana" and "DANA" are one player.

Every log-in, from any page, passes here, so this is where attempts are throttled and where
absurd input is refused before it reaches the database.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import sync_to_async
from django.contrib.auth import check_password_with_timing_attack_mitigation
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest
from django.views.decorators.debug import sensitive_variables

from accounts import throttle
from accounts.sanctions import end_lapsed_ban
from accounts.usernames import STORED_MAX_LENGTH, find_user

# No real password is longer; hashing megabytes of one would be a cheap way to load the server.
MAX_PASSWORD_LENGTH = 4096


def is_absurd(username: str, password: str) -> bool:
    """Whether no account can match: a name longer than any stored one (a long one also breaks
    SQLite's LIKE, "pattern too complex"), or a password past any sane length."""
    return len(username) > STORED_MAX_LENGTH or len(password) > MAX_PASSWORD_LENGTH


class CaseInsensitiveModelBackend(ModelBackend):
    """Django's ModelBackend, with the username looked up ignoring case, and throttled.

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
        if username is None or password is None or is_absurd(username, password):
            return None
        if not throttle.reserve_attempt(request, username):
            return None
        user = find_user(username)
        # Hashes the password even when nobody has that name, so the time taken does not tell
        # an attacker which names exist.
        if check_password_with_timing_attack_mitigation(
            user, password
        ) and self.user_can_authenticate(user):
            throttle.release_attempt(request, username)
            return user
        return None  # the reserved attempt stays counted: it was a failure

    def user_can_authenticate(self, user: AbstractBaseUser | None) -> bool:
        """Active users only; a ban that has run its course ends here (``end_lapsed_ban``)."""
        if user is not None and not user.is_active:
            end_lapsed_ban(user)
        return super().user_can_authenticate(user)

    async def aauthenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> AbstractBaseUser | None:
        return await sync_to_async(self.authenticate)(request, username, password, **kwargs)
