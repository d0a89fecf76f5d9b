"""The site's template tags: a card's HTML, drawn once per language and card; a table's options
in words."""

from __future__ import annotations

from django.utils import translation

from games.templatetags.taki import card, game_kind, turn_time


def test_a_card_is_named_in_the_language_it_is_drawn_in() -> None:
    with translation.override("en"):
        english = card("blue:plus2")
    with translation.override("es"):
        spanish = card("blue:plus2")
    with translation.override("en"):
        again = card("blue:plus2")
    assert 'title="blue +2"' in english
    assert spanish != english and 'title="blue +2"' not in spanish
    assert again == english


def test_a_card_is_escaped_and_sized() -> None:
    html = card("red:taki", "small")
    assert 'class="card card--red card--small"' in html
    assert '<span class="card__word">TAKI</span>' in html


def test_a_game_is_a_tournament_or_standard_in_the_viewers_language() -> None:
    with translation.override("es"):
        assert game_kind(True) == "Torneo"
        assert game_kind(False) == "Estándar"
    assert game_kind(True) == "Tournament"


def test_a_turn_time_is_in_seconds_or_no_limit() -> None:
    assert turn_time(30) == "30 s"
    assert turn_time(None) == "No limit"
    with translation.override("es"):
        assert turn_time(0) == "Sin límite"
