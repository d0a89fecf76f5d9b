"""The lobby's open tables and the games being played: read once for every lobby socket, drawn
once per language and once for visitors and once for the signed-in."""

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

    assert drawn.count("games/partials/lobby_tables.html") == 3
    assert visitor == again and player == other_player
    assert "Open one" in visitor and "Log in to play" in visitor
    assert "Log in to play" not in player and ">Join</button>" in player
    assert spanish != visitor


def test_a_page_past_the_last_is_the_last(make_table) -> None:
    make_table(name="Open one")

    context = presenters.lobby_context(page=9)

    assert (context["lobby_page"], context["lobby_pages"]) == (1, 1)
    assert [table.name for table in context["lobby_tables"]] == ["Open one"]


def test_the_lobby_s_push_carries_the_games_being_played_and_none_of_their_cards(
    make_table, alice, bob, carol
) -> None:
    running = make_table(name="Running one", host=carol, players=[bob], start=True)
    make_table(name="Open one")

    pushed = presenters.lobby_fragment(presenters.read_lobby(), AnonymousUser())

    playing = pushed[pushed.index('<div id="playing-now"') :]
    assert 'data-playing="1"' in playing
    assert f'href="/tables/{running.pk}/">Watch Running one</a>' in playing
    assert "Open one" not in playing
    assert 'role="img"' not in pushed and "data-card" not in pushed
