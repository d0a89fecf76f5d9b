"""What a username may be: 3–20 ASCII letters, digits, ``_`` or ``-``, unique ignoring case.

ASCII only, so that no name can pass for another with look-alike letters (Cyrillic "а" for Latin
"a", full-width "ａｄｍｉｎ"); ignoring case, so that "Dana" and "dana" are one player.

Names like the guests' ("Guest-4821", and "Invitado-4821", "Tamu-4821", "Gasto-4821" in the
site's other languages) are kept for guest accounts, compared ignoring case and look-alikes
("GUEST_4821", "guestl234"), so that nobody can pass for a visitor who has not signed up.
"""

from __future__ import annotations

import re

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from lib.unicode import fold, refuse_unreadable

MIN_LENGTH, MAX_LENGTH = 3, 20
# The User model's column: accounts made before the 20-character rule may be this long.
STORED_MAX_LENGTH = 150
# \Z rather than $: "$" would let a trailing newline through.
ALLOWED = re.compile(r"[A-Za-z0-9_-]+\Z")
# The word of a guest's generated name ("Guest-4821"), in the visitor's language. A username is
# ASCII letters: a translation that is not falls back to the English word.
GUEST_WORD = pgettext_lazy(
    "the first part of a guest's generated name, ASCII letters only", "Guest"
)
ENGLISH_GUEST_WORD = "Guest"
# After the guest word, characters that read as a separator or a digit.
_GUEST_TAIL = re.compile(r"[-_.0-9]")
_DIGIT_LOOK_ALIKES = str.maketrans("ilo|", "1100")


def guest_word(language: str | None = None) -> str:
    """The word of a guest's name in ``language`` (the active one by default)."""
    with translation.override(language or translation.get_language()):
        word = str(GUEST_WORD)
    return word if ALLOWED.match(word) else ENGLISH_GUEST_WORD


def guest_words() -> set[str]:
    """The guest word in every language of the site, folded."""
    return {fold(guest_word(code)) for code, _name in settings.LANGUAGES} | {
        fold(ENGLISH_GUEST_WORD)
    }


def looks_like_a_guest(name: str) -> bool:
    """Whether ``name`` reads as a guest's generated name in any of the site's languages: the
    guest word alone, or followed by a separator, a digit or what looks like digits."""
    folded = fold(name)
    for word in guest_words():
        if not folded.startswith(word):
            continue
        tail = folded[len(word) :]
        if not tail or _GUEST_TAIL.match(tail) or tail.translate(_DIGIT_LOOK_ALIKES).isdigit():
            return True
    return False


def validate_username(name: str) -> None:
    """:raises ValidationError: with a message saying what is wrong with ``name``: its length, its
    characters, or that it looks like a guest's."""
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
    refuse_unreadable(name)
    if not ALLOWED.match(name):
        raise ValidationError(
            _(
                "Use only the letters A–Z and a–z, the digits 0–9, “_” and “-”: "
                "no spaces, accents or other symbols."
            ),
            code="invalid_characters",
        )
    if looks_like_a_guest(name):
        raise ValidationError(
            _("Names like “%(example)s” are kept for guest accounts: choose another."),
            code="guest_name",
            params={"example": f"{guest_word()}-1234"},
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


def username_taken(name: str, *, by_other_than: int | None = None) -> bool:
    """Whether an account has ``name``, capital letters aside (other than the account
    ``by_other_than``, which is being renamed)."""
    accounts = get_user_model()._default_manager.filter(username__iexact=name)
    if by_other_than is not None:
        accounts = accounts.exclude(pk=by_other_than)
    return accounts.exists()
