"""Text that people choose and others read: names of players and tables.

A name is shown to other players, so it must not hide anything: a right-to-left override
(U+202E) can make "evil.exe" read as "exe.live", a zero-width space can make two names look
identical, and control characters can break the page's layout or logs. Such characters are
refused, never silently removed, so that what a player typed is what everyone sees.
"""

from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

# Format (bidi overrides, zero-width characters), control, private-use, surrogate, and the line
# and paragraph separators, which break a line where none is expected.
INVISIBLE_CATEGORIES = frozenset({"Cf", "Cc", "Co", "Cs", "Zl", "Zp"})


def has_invisible_characters(text: str) -> bool:
    """Whether ``text`` holds a character that is invisible or changes how the rest reads."""
    return any(unicodedata.category(character) in INVISIBLE_CATEGORIES for character in text)


def refuse_invisible_characters(value: str) -> None:
    """A form or model validator for names.

    :raises ValidationError: when ``value`` holds an invisible or control character.
    """
    if has_invisible_characters(value):
        raise ValidationError(
            _(
                "Use only visible characters: no control characters, zero-width spaces or "
                "text-direction marks."
            ),
            code="invisible_characters",
        )
