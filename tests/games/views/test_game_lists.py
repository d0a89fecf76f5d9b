"""The lists of games — finished games, games being played, My games, a profile's recent games —
draw one partial, each with its own columns."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.services import tables
from tests.play import play_to_the_end

pytestmark = pytest.mark.django_db


def headers(page: str) -> list[str]:
    table = page[page.index("<thead>") : page.index("</thead>")]
    return re.findall(r'<th scope="col">([^<]*)</th>', table)


@pytest.fixture
def games(make_table, alice, bob):
    """A finished game of alice and bob, and one of theirs being played."""
    finished = play_to_the_end(make_table(players=[bob], start=True, turn_seconds=None))
    playing = make_table(players=[bob], start=True, name="Still going")
    return finished, playing


def test_each_list_of_games_has_its_own_columns(client: Client, alice, games) -> None:
    client.force_login(alice)

    finished = client.get(reverse("games:finished_games")).content.decode()
    watch = client.get(reverse("games:watch")).content.decode()
    mine = client.get(reverse("games:my_games")).content.decode()
    profile = client.get(reverse("games:profile", args=["alice"])).content.decode()

    assert headers(finished) == ["Table", "Players", "Winner", "Moves", "Finished"]
    assert headers(watch) == ["Table", "Players", "Game", "Turn time"]
    # The profile's ratings come first: its list of games is the recent games' table.
    recent = profile[profile.index('<table class="recent-games">') :]
    assert headers(mine) == headers(recent) == ["Table", "Players", "Result", "Finished"]
    assert '<table class="table-list">' in finished and '<table class="recent-games">' in profile
    assert "Watch Still going" in watch and "Standard" in watch and "30 s" in watch


def test_only_my_games_marks_a_private_game(client: Client, alice) -> None:
    play_to_the_end(tables.play_against_bots(alice, opponents=1))
    client.force_login(alice)

    mine = client.get(reverse("games:my_games")).content.decode()
    profile = client.get(reverse("games:profile", args=["alice"])).content.decode()

    assert '<span class="badge">Private</span>' in mine
    assert "alice vs bots" in profile and '<span class="badge">Private</span>' not in profile
