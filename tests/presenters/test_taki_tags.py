"""The card tag: one card's HTML, drawn once per language and card."""

from __future__ import annotations

from django.utils import translation

from games.templatetags.taki import card


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
