"""Names and lines people write may not hide characters, show nothing or pass look-alikes for
other words: lib.unicode."""

import unicodedata

import pytest
from django.core.exceptions import ValidationError

from lib.unicode import (
    MAX_MARKS_PER_CHARACTER,
    contains_word,
    fold,
    has_invisible_characters,
    has_stacked_marks,
    looks_blank,
    refuse_invisible_characters,
    refuse_unreadable,
)

HIDDEN = [
    "\u202e",  # right-to-left override (Cf)
    "\u200b",  # zero-width space (Cf)
    "\u2066",  # left-to-right isolate (Cf)
    "\ufeff",  # zero-width no-break space / BOM (Cf)
    "\x00",  # NUL (Cc)
    "\n",  # line feed (Cc)
    "\x1b",  # escape (Cc)
    "\x85",  # next line (Cc)
    "\ue000",  # private use (Co)
    "\ud800",  # a lone surrogate (Cs)
    "\u2028",  # line separator (Zl)
    "\u2029",  # paragraph separator (Zp)
]


@pytest.mark.parametrize("character", HIDDEN)
def test_it_finds_an_invisible_character_anywhere_in_a_name(character: str) -> None:
    assert has_invisible_characters(f"Dana{character}s table")
    with pytest.raises(ValidationError) as raised:
        refuse_invisible_characters(f"{character}Dana")
    assert raised.value.code == "invisible_characters"


@pytest.mark.parametrize("name", ["Dana's table", "שולחן של דנה", "Café ☕ 7", "", "a b"])
def test_it_accepts_visible_text_in_any_script(name: str) -> None:
    assert not has_invisible_characters(name)
    refuse_invisible_characters(name)


# ------------------------------------------------------------------ lines that show nothing


@pytest.mark.parametrize(
    "line",
    [
        "\u3164",  # Hangul filler
        "\u3164\u3164 \u3164",
        "\u2800\u2800",  # blank Braille pattern
        "\u115f\u1160",  # Hangul choseong and jungseong fillers
        "\uffa0",  # half-width Hangul filler
        "\u3000\u2003 ",  # ideographic and em spaces
        "\u0301\u0301\u0301",  # marks with nothing under them
    ],
)
def test_a_line_of_blank_looking_characters_shows_nothing(line: str) -> None:
    assert looks_blank(line)
    with pytest.raises(ValidationError) as raised:
        refuse_unreadable(line)
    assert raised.value.code == "blank"


@pytest.mark.parametrize("line", ["a", "\u3164a", "…", "☕", "7", "שלום", "日本"])
def test_a_line_with_one_visible_character_shows_something(line: str) -> None:
    assert not looks_blank(line)
    refuse_unreadable(line)


def test_forty_marks_stacked_on_one_letter_are_too_many() -> None:
    zalgo = "a" + "\u0301\u0316\u0332\u0345" * 10 + "b"

    assert has_stacked_marks(zalgo)
    with pytest.raises(ValidationError) as raised:
        refuse_unreadable(zalgo)
    assert raised.value.code == "stacked_marks"


@pytest.mark.parametrize(
    "word",
    [
        "Việt Nam",  # two marks on one letter, precomposed
        unicodedata.normalize("NFD", "Việt Nam"),  # and taken apart
        "בְּרֵאשִׁית",  # pointed Hebrew
        "a" + "\u0301" * MAX_MARKS_PER_CHARACTER,
    ],
)
def test_the_accents_of_real_writing_are_not_too_many(word: str) -> None:
    assert not has_stacked_marks(word)
    refuse_unreadable(word)


# ------------------------------------------------------------------ look-alikes fold together


@pytest.mark.parametrize(
    "look_alike",
    [
        "ｂａｄ",  # full-width
        "b\u0430d",  # Cyrillic a
        "BAD",
        "B\u0410D",  # Cyrillic capital A
        "b\u0301a\u0308d\u0323",  # combining marks
        "bád",
        "𝐛𝐚𝐝",  # mathematical bold
        "ⓑⓐⓓ",  # circled
    ],
)
def test_look_alikes_fold_to_the_plain_word(look_alike: str) -> None:
    assert fold(look_alike) == "bad"


@pytest.mark.parametrize(
    "line",
    [
        "you are bad",
        "you are ｂａｄ",
        "you are b\u0430d",
        "you are b a d",
        "you are b.a.d!",
        "you are b-a-d",
        "you are b_a_d",
        "you are B\u0301A\u0301D\u0301",
        "so a b a d move",  # spelled out among other single letters
    ],
)
def test_a_blocked_word_is_found_however_it_is_disguised(line: str) -> None:
    assert contains_word(line, ["bad"])


@pytest.mark.parametrize("line", ["a badge", "badly", "b a", "the ba d"])
def test_a_blocked_word_inside_another_word_is_not_found(line: str) -> None:
    assert not contains_word(line, ["bad"])


def test_a_blocked_phrase_is_found_as_words_in_a_row() -> None:
    assert contains_word("buy   ｃｈｅａｐ, coins!", ["cheap coins"])
    assert not contains_word("cheap and coins", ["cheap coins"])
