"""A table's name is shown to everyone in the lobby: it may not hide characters."""

import pytest

from games.forms import TableForm

VALID = {
    "name": "Evening TAKI",
    "seat_count": "4",
    "mode": "standard",
    "turn_seconds": "30",
    "bot_seats": "0",
    "visibility": "public",
}


@pytest.mark.parametrize(
    "name",
    ["Fun\u202eelbat", "Dana\u200bs table", "bell\x07", "two\u2028lines", "private\ue000"],
)
def test_it_refuses_a_table_name_with_invisible_characters(name: str) -> None:
    form = TableForm({**VALID, "name": name})

    assert not form.is_valid()
    assert form.errors["name"] == [
        "Use only visible characters: no control characters, zero-width spaces or "
        "text-direction marks."
    ]


@pytest.mark.parametrize("name", ["Evening TAKI", "שולחן של דנה", "Café ☕ 7"])
def test_it_accepts_a_table_name_in_any_script(name: str) -> None:
    form = TableForm({**VALID, "name": name})

    assert form.is_valid(), form.errors
    assert form.cleaned_data["name"] == name
