"""Every message of the site is translated in every language it offers (locale/*/django.po),
so that no page shows English to a visitor who chose another language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings

QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"')


def read_po(text: str) -> list[dict[str, object]]:
    """The entries of a .po file: ``msgid``, ``msgstr`` (a list: one per plural form) and
    ``fuzzy``; the header and obsolete entries left out."""
    entries = []
    for block in re.split(r"\n\s*\n", text):
        fields: dict[str, str] = {}
        key = None
        fuzzy = False
        for line in block.splitlines():
            if line.startswith("#,") and "fuzzy" in line:
                fuzzy = True
            if line.startswith("#"):
                continue
            match = re.match(r"(msgid|msgid_plural|msgstr(?:\[\d\])?) ", line)
            if match:
                key = match.group(1)
                fields[key] = ""
            if key is not None:
                fields[key] += "".join(QUOTED.findall(line))
        if fields.get("msgid"):
            strings = [value for name, value in fields.items() if name.startswith("msgstr")]
            entries.append({"msgid": fields["msgid"], "msgstr": strings, "fuzzy": fuzzy})
    return entries


def test_the_reader_sees_a_missing_plural_and_a_fuzzy_entry() -> None:
    po = (
        'msgid ""\nmsgstr "Language: es\\n"\n\n'
        '#, fuzzy\nmsgid "Lobby"\nmsgstr "Sala"\n\n'
        'msgid "%(n)s card"\nmsgid_plural "%(n)s cards"\nmsgstr[0] "%(n)s carta"\nmsgstr[1] ""\n'
    )

    entries = read_po(po)

    assert [entry["fuzzy"] for entry in entries] == [True, False]
    assert entries[1]["msgstr"] == ["%(n)s carta", ""]


@pytest.mark.parametrize("language", ["es", "id", "eo"])
def test_every_message_is_translated_and_none_is_fuzzy(language: str) -> None:
    po = Path(settings.BASE_DIR) / "locale" / language / "LC_MESSAGES" / "django.po"

    entries = read_po(po.read_text())

    assert len(entries) > 300
    assert [e["msgid"] for e in entries if not all(e["msgstr"]) or not e["msgstr"]] == []
    assert [e["msgid"] for e in entries if e["fuzzy"]] == []
