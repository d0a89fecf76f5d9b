"""Names people choose may not hide characters: taki_site.text."""

import pytest
from django.core.exceptions import ValidationError

from taki_site.text import has_invisible_characters, refuse_invisible_characters

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
