"""Every message of the site is translated in every language it offers (locale/*/django.po),
so that no page shows English to a visitor who chose another language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from jinja2.ext import GETTEXT_FUNCTIONS, babel_extract

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


def jinja_messages() -> list[tuple[str, str, str | None]]:
    """The messages of the table's live partials (Jinja2, games/jinja2/), which Django's
    makemessages does not read: (template, msgid, msgid_plural)."""
    found = []
    for path in sorted((Path(settings.BASE_DIR) / "games" / "jinja2").rglob("*.html")):
        with path.open("rb") as source:
            for _line, _function, message, _comments in babel_extract(
                source, GETTEXT_FUNCTIONS, [], {"extensions": "jinja2.ext.i18n"}
            ):
                singular, plural = (
                    (message[0], message[1])
                    if isinstance(message, tuple)
                    else (
                        message,
                        None,
                    )
                )
                found.append((path.name, singular, plural))
    return found


def test_the_live_partials_are_read_for_their_messages() -> None:
    messages = {(name, msgid) for name, msgid, _plural in jinja_messages()}

    assert ("table_hand.html", "Your hand: %(counter)s card") in messages
    assert ("table_waiting.html", "Take a seat") in messages


@pytest.mark.parametrize("language", ["es", "id", "eo"])
def test_every_message_of_the_live_partials_is_in_the_catalogue(language: str) -> None:
    po = Path(settings.BASE_DIR) / "locale" / language / "LC_MESSAGES" / "django.po"
    translated = {entry["msgid"] for entry in read_po(po.read_text()) if all(entry["msgstr"])}

    missing = [
        (name, msgid)
        for name, msgid, _plural in jinja_messages()
        if po_quoted(msgid) not in translated
    ]

    assert missing == []


def po_quoted(text: str) -> str:
    """``text`` as a .po file writes it between quotes."""
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
