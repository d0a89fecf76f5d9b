"""Text that people choose and others read: names of players and tables, and chat lines.

A name is shown to other players, so it must not hide anything: a right-to-left override
(U+202E) can make "evil.exe" read as "exe.live", a zero-width space can make two names look
identical, and control characters can break the page's layout or logs. Such characters are
refused, never silently removed, so that what a player typed is what everyone sees.

A line must show something: one made only of blank-looking characters (the Hangul filler
U+3164, the blank Braille pattern U+2800, spaces of every width) reads as nothing, and a letter
under dozens of stacked combining marks ("Zalgo" text) spills over the lines around it. Both are
refused.

Words are compared by their *fold* (:func:`fold`), so that look-alikes do not pass for
different words: full-width and other compatibility forms become their plain letters (Unicode
NFKC), accents and other combining marks go, Cyrillic and Greek letters that look Latin become
Latin (the common part of Unicode's confusables skeleton, UTS #39), and case is folded.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

# Format (bidi overrides, zero-width characters), control, private-use, surrogate, and the line
# and paragraph separators, which break a line where none is expected.
INVISIBLE_CATEGORIES = frozenset({"Cf", "Cc", "Co", "Cs", "Zl", "Zp"})
# Characters that count as letters or symbols but draw nothing: the Hangul fillers and the blank
# Braille pattern (the usual ways to post an "empty" line or name).
BLANK_LOOKING = frozenset("\u115f\u1160\u3164\uffa0\u2800")
# Letters, digits, punctuation and symbols can be seen; marks alone, spaces and the rest cannot.
VISIBLE_CATEGORY_CLASSES = frozenset("LNPS")
# Combining marks on one letter: Vietnamese needs two ("ệ"), pointed Hebrew three; more is
# decoration that covers the lines around it.
MAX_MARKS_PER_CHARACTER = 4

# Letters of other scripts that look like Latin ones, after NFKC and before case folding (so
# that capital Cyrillic "Н" reads as "H" and small "н" as nothing else). The common part of
# Unicode's confusables (UTS #39) for the scripts people type on this site's keyboards.
CONFUSABLES = str.maketrans(
    {
        # Cyrillic capitals and small letters
        "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P",
        "С": "C", "Т": "T", "У": "Y", "Х": "X", "Ѕ": "S", "І": "I", "Ј": "J", "Ӏ": "l",
        "Ԛ": "Q", "Ԝ": "W", "Һ": "h",
        "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "ѕ": "s",
        "і": "i", "ј": "j", "һ": "h", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ӏ": "l", "ь": "b",
        # Greek capitals and small letters
        "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M",
        "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
        "α": "a", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t", "υ": "u",
        "χ": "x",
        # Latin letters that stand in for others
        "ı": "i", "ɑ": "a", "ɡ": "g", "ℓ": "l",
    }
)  # fmt: skip
_WORD = re.compile(r"\w+")


def has_invisible_characters(text: str) -> bool:
    """Whether ``text`` holds a character that is invisible or changes how the rest reads."""
    return any(unicodedata.category(character) in INVISIBLE_CATEGORIES for character in text)


def is_visible(character: str) -> bool:
    """Whether ``character`` draws something on its own: a letter, digit, punctuation or
    symbol that is not one of the blank-looking ones."""
    return (
        unicodedata.category(character)[0] in VISIBLE_CATEGORY_CLASSES
        and character not in BLANK_LOOKING
    )


def looks_blank(text: str) -> bool:
    """Whether ``text`` shows nothing: no visible character at all."""
    return not any(is_visible(character) for character in text)


def has_stacked_marks(text: str, limit: int = MAX_MARKS_PER_CHARACTER) -> bool:
    """Whether some character of ``text`` carries more than ``limit`` combining marks (counted
    with the accents of precomposed letters taken apart, NFD)."""
    run = 0
    for character in unicodedata.normalize("NFD", text):
        if unicodedata.category(character).startswith("M"):
            run += 1
            if run > limit:
                return True
        else:
            run = 0
    return False


def fold(text: str) -> str:
    """The form in which two look-alike texts are equal: NFKC, no combining marks, look-alike
    letters of other scripts made Latin, case folded. "ｂａｄ", "bаd" (Cyrillic "а"), "BÁD" and
    "b̸a̸d̸" all fold to "bad"."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.category(c).startswith("M"))
    text = text.translate(CONFUSABLES).casefold()
    return unicodedata.normalize("NFKC", text)


def folded_words(text: str) -> list[str]:
    """The words of ``text``, folded; the signs and spaces between them dropped."""
    return _WORD.findall(fold(text).replace("_", " "))


def _spelled_out(words: list[str]) -> Iterator[str]:
    """Runs of one-letter words joined, for words spelled out letter by letter ("b a d",
    "b.a.d", "b-a-d")."""
    run: list[str] = []
    for word in [*words, ""]:
        if len(word) == 1:
            run.append(word)
            continue
        if len(run) > 1:
            yield "".join(run)
        run = []


def contains_word(text: str, blocked: Iterable[str]) -> bool:
    """Whether ``text`` holds one of ``blocked`` as a whole word, or a blocked phrase as whole
    words in a row, compared by :func:`fold` and whatever separates the words; a word spelled
    out letter by letter counts too."""
    words = folded_words(text)
    line = f" {' '.join(words)} "
    spelled = list(_spelled_out(words))
    for entry in blocked:
        entry_words = folded_words(entry)
        if not entry_words:
            continue
        if f" {' '.join(entry_words)} " in line:
            return True
        if any("".join(entry_words) in run for run in spelled):
            return True
    return False


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


def refuse_unreadable(value: str) -> None:
    """A form or model validator for names others read: no invisible characters (as
    :func:`refuse_invisible_characters`), something visible, no stacked marks.

    :raises ValidationError: ``invisible_characters``, ``blank`` or ``stacked_marks``.
    """
    refuse_invisible_characters(value)
    if value and looks_blank(value):
        raise ValidationError(_("Write something visible."), code="blank")
    if has_stacked_marks(value):
        raise ValidationError(
            _("Put at most %(count)d accents or marks on one letter."),
            code="stacked_marks",
            params={"count": MAX_MARKS_PER_CHARACTER},
        )
