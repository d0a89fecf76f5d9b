"""The games pages and the game's words in Spanish, Indonesian and Esperanto (locale/)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.presenters import narration


@pytest.fixture(autouse=True)
def compiled_translations() -> None:
    for code in ("es", "id", "eo"):
        mo = Path(settings.BASE_DIR) / "locale" / code / "LC_MESSAGES" / "django.mo"
        assert mo.exists(), f"{mo} is missing: run `make messages` (needs gettext's msgfmt)"


@pytest.mark.parametrize(
    ("language", "heading", "button"),
    [
        ("es", "Mesas abiertas", "Jugar contra bots"),
        ("id", "Meja terbuka", "Bermain melawan bot"),
        ("eo", "Malfermitaj tabloj", "Ludi kontraŭ robotoj"),
    ],
)
def test_the_lobby_is_in_the_visitors_language(
    client: Client, alice, language: str, heading: str, button: str
) -> None:
    client.force_login(alice)

    page = client.get(reverse("games:home"), HTTP_ACCEPT_LANGUAGE=language).content.decode()

    assert f"<h2>{heading}</h2>" in page
    assert f">{button}</button>" in page
    assert "Open tables" not in page
    assert "Play against bots" not in page


def test_the_games_events_are_worded_in_spanish() -> None:
    names = ["ana", "beto"]

    with translation.override("es"):
        played = narration.describe_event({"kind": "played", "seat": 0, "card": "red:stop"}, names)
        drew = narration.describe_event(
            {"kind": "drew", "seat": 1, "count": 4, "reason": "plus2"}, names
        )
        named = narration.describe_event(
            {"kind": "played", "seat": 1, "card": "change-color", "color": "blue"}, names
        )
        announced = narration.describe_event({"kind": "announced", "seat": 0}, names)

    assert played == "ana jugó el Stop rojo"
    assert drew == "beto roba 4 por la pila de +2"
    assert named == "beto jugó el Cambio de color y eligió el azul"
    assert announced == "ana dice «última carta»"


LEVELS = ("beginner", "easy", "medium", "hard", "expert")


@pytest.mark.parametrize(
    ("language", "names"),
    [
        ("en", ["Beginner bot 2", "Easy bot 2", "Medium bot 2", "Hard bot 2", "Expert bot 2"]),
        (
            "es",
            [
                "Bot principiante 2",
                "Bot fácil 2",
                "Bot intermedio 2",
                "Bot difícil 2",
                "Bot experto 2",
            ],
        ),
        ("id", ["Bot pemula 2", "Bot mudah 2", "Bot sedang 2", "Bot sulit 2", "Bot ahli 2"]),
        (
            "eo",
            [
                "Komencanta roboto 2",
                "Facila roboto 2",
                "Meza roboto 2",
                "Malfacila roboto 2",
                "Sperta roboto 2",
            ],
        ),
    ],
)
def test_a_bots_seat_names_its_level_in_the_visitors_language(
    client: Client, alice, settings, language: str, names: list[str]
) -> None:
    settings.BOT_GAMES_PER_PERSON = len(LEVELS)
    client.force_login(alice)

    for level, name in zip(LEVELS, names, strict=True):
        response = client.post(
            reverse("games:play_bots"),
            {"opponents": "1", "level": level},
            HTTP_ACCEPT_LANGUAGE=language,
            follow=True,
        )

        page = response.content.decode()
        assert name in page
        if language != "en":
            assert " bot 2" not in page
