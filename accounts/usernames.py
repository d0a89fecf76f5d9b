"""What a username may be: 3–20 ASCII letters, digits, ``_`` or ``-``, unique ignoring case.

ASCII only, so that no name can pass for another with look-alike letters (Cyrillic "а" for Latin
"a", full-width "ａｄｍｉｎ"); ignoring case, so that "Dana" and "dana" are one player.
"""

from __future__ import annotations

import re

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from taki_site.text import refuse_invisible_characters

MIN_LENGTH, MAX_LENGTH = 3, 20
# The User model's column: accounts made before the 20-character rule may be this long.
STORED_MAX_LENGTH = 150
# \Z rather than $: "$" would let a trailing newline through.
ALLOWED = re.compile(r"[A-Za-z0-9_-]+\Z")


def validate_username(name: str) -> None:
    """:raises ValidationError: with a message saying what is wrong with ``name``."""
    if len(name) < MIN_LENGTH:
        raise ValidationError(
            _("A username needs at least %(min)d characters."),
            code="too_short",
            params={"min": MIN_LENGTH},
        )
    if len(name) > MAX_LENGTH:
        raise ValidationError(
            _("A username may have at most %(max)d characters."),
            code="too_long",
            params={"max": MAX_LENGTH},
        )
    # ALLOWED refuses these too; asking first gives the clearer message, and keeps them out
    # should ALLOWED ever admit more than ASCII.
    refuse_invisible_characters(name)
    if not ALLOWED.match(name):
        raise ValidationError(
            _(
                "Use only the letters A–Z and a–z, the digits 0–9, “_” and “-”: "
                "no spaces, accents or other symbols."
            ),
            code="invalid_characters",
        )


def find_user(name: str) -> AbstractBaseUser | None:
    """The user called ``name`` in any mix of case, or None.

    An exact match wins; otherwise the one case-insensitive match. Accounts made before the
    case-insensitive rule could differ only in case: then nobody is found rather than a guess.
    """
    users = get_user_model()._default_manager
    try:
        return users.get(username=name)
    except users.model.DoesNotExist:
        pass
    try:
        return users.get(username__iexact=name)
    except (users.model.DoesNotExist, users.model.MultipleObjectsReturned):
        return None


def username_taken(name: str) -> bool:
    return get_user_model()._default_manager.filter(username__iexact=name).exists()
