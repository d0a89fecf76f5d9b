"""The lobby's open tables: read once for every lobby socket, drawn once per language and once
for visitors and once for the signed-in."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import translation

from games import presenters
from games.presenters import lobby

pytestmark = pytest.mark.django_db


def test_the_lobby_is_drawn_once_per_language_and_for_visitors_and_players_apart(
    make_table, bob, carol, monkeypatch
) -> None:
    make_table(name="Open one")
    view = presenters.read_lobby()
    drawn = []
    draw = lobby.render_to_string
    monkeypatch.setattr(
        lobby, "render_to_string", lambda *args: drawn.append(args[0]) or draw(*args)
    )

    visitor = presenters.lobby_fragment(view, AnonymousUser())
    again = presenters.lobby_fragment(view, AnonymousUser())
    player = presenters.lobby_fragment(view, bob)
    other_player = presenters.lobby_fragment(view, carol)
    with translation.override("es"):
        spanish = presenters.lobby_fragment(view, AnonymousUser())

    assert len(drawn) == 3
    assert visitor == again and player == other_player
    assert "Open one" in visitor and "Log in to play" in visitor
    assert "Log in to play" not in player and ">Join</button>" in player
    assert spanish != visitor


def test_a_page_past_the_last_is_the_last(make_table) -> None:
    make_table(name="Open one")

    context = presenters.lobby_context(page=9)

    assert (context["lobby_page"], context["lobby_pages"]) == (1, 1)
    assert [table.name for table in context["lobby_tables"]] == ["Open one"]
