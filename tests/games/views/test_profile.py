from __future__ import annotations

import random
from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client
from django.urls import reverse

from games.engine import GameState, shuffled_deck
from games.models import Game, Seat, Table
from tests.accounts.conftest import PASSWORD

pytestmark = pytest.mark.django_db

User = get_user_model()


@pytest.fixture
def dana(db) -> AbstractBaseUser:
    return User.objects.create_user("Dana", "dana@example.com", PASSWORD)


@pytest.fixture
def ben(db) -> AbstractBaseUser:
    return User.objects.create_user("ben", "", PASSWORD)


FinishGame = Callable[..., Game]


@pytest.fixture
def finish_game(db) -> FinishGame:
    """Make a finished game: ``finish_game(dana, ben, winner=dana, finished_at=…)``.

    Each player is a user, or a ``(bot_name, replaced_user)`` pair for a seat a bot took over.
    """
    count = 0

    def make(*players, winner, finished_at: datetime | None = None) -> Game:
        nonlocal count
        count += 1
        host = next(p for p in players if isinstance(p, User))
        table = Table.objects.create(
            name=f"Table {count}", host=host, seat_count=len(players), status="finished"
        )
        names, winner_position = [], None
        for position, player in enumerate(players):
            if isinstance(player, tuple):
                bot, replaced = player
                Seat.objects.create(table=table, position=position, bot=bot, replaced_user=replaced)
                names.append(replaced.get_username())
                person = replaced
            else:
                Seat.objects.create(table=table, position=position, user=player)
                names.append(player.get_username())
                person = player
            if person == winner:
                winner_position = position
        deck = shuffled_deck(random.Random(count))
        return Game.objects.create(
            table=table,
            seed=str(count),
            players=names,
            deck=deck,
            first_player=0,
            state=GameState(deck, len(players)).to_snapshot(),
            winner=winner_position,
            finished_at=finished_at or datetime(2025, 1, count, 12, 0, tzinfo=UTC),
        )

    return make


def url(username: str) -> str:
    return reverse("games:profile", args=[username])


def stat(page: str, name: str) -> str:
    marker = f'data-stat="{name}">'
    start = page.index(marker) + len(marker)
    return page[start : page.index("</dd>", start)]


def test_it_is_at_players_slash_the_username() -> None:
    assert url("Dana") == "/players/Dana/"


def test_it_shows_a_new_player_with_no_games(client: Client, dana) -> None:
    response = client.get(url("Dana"))

    page = response.content.decode()
    assert response.status_code == 200
    assert response.templates[0].name == "games/profile.html"
    assert "<h1>Dana</h1>" in page
    assert stat(page, "played") == "0"
    assert stat(page, "won") == "0"
    assert stat(page, "win-rate") == "–"
    assert "No finished games yet." in page


def test_it_counts_games_played_and_won_and_the_win_rate(
    client: Client, dana, ben, finish_game
) -> None:
    carol = User.objects.create_user("carol", "", "x")
    finish_game(dana, ben, winner=dana)
    finish_game(ben, dana, carol, winner=ben)
    finish_game(carol, dana, winner=dana)
    finish_game(ben, carol, winner=carol)  # not Dana's

    page = client.get(url("Dana")).content.decode()

    assert stat(page, "played") == "3"
    assert stat(page, "won") == "2"
    assert stat(page, "win-rate") == "67&nbsp;%"


def test_it_counts_a_game_left_to_a_bot_as_played_but_not_won(
    client: Client, dana, ben, finish_game
) -> None:
    finish_game(dana, ben, winner=dana)
    finish_game(("greedy", dana), ben, winner=dana)  # the bot that took Dana's seat won
    finish_game(ben, ("greedy", dana), winner=ben)

    page = client.get(url("Dana")).content.decode()

    assert stat(page, "played") == "3"
    assert stat(page, "won") == "1"
    assert stat(page, "win-rate") == "33&nbsp;%"


def test_it_leaves_out_games_still_running(client: Client, dana, ben, finish_game) -> None:
    running = finish_game(dana, ben, winner=dana)
    running.winner = None
    running.finished_at = None
    running.save()

    page = client.get(url("Dana")).content.decode()

    assert stat(page, "played") == "0"


def test_it_lists_recent_games_newest_first(client: Client, dana, ben, finish_game) -> None:
    finish_game(dana, ben, winner=ben, finished_at=datetime(2025, 3, 1, tzinfo=UTC))
    finish_game(dana, ben, winner=dana, finished_at=datetime(2025, 3, 9, tzinfo=UTC))
    finish_game(ben, dana, winner=ben, finished_at=datetime(2025, 3, 5, tzinfo=UTC))

    recent = client.get(url("Dana")).context["stats"]["recent"]

    assert [played["table_name"] for played in recent] == ["Table 2", "Table 3", "Table 1"]
    assert [played["won"] for played in recent] == [True, False, False]


def test_it_links_each_recent_game_to_its_page(client: Client, dana, ben, finish_game) -> None:
    game = finish_game(dana, ben, winner=dana)
    game_url = reverse("games:finished_game", args=[game.pk])

    page = client.get(url("Dana")).content.decode()

    assert f'<a href="{game_url}">Table 1</a>' in page


def test_it_finds_the_player_in_any_case_and_redirects_to_their_name(client: Client, dana) -> None:
    response = client.get(url("dANA"))

    assert response.status_code == 301
    assert response.url == url("Dana")


def test_it_is_404_for_an_unknown_player(client: Client) -> None:
    assert client.get(url("nobody")).status_code == 404


def test_it_offers_a_password_change_on_your_own_profile_only(client: Client, dana, ben) -> None:
    client.force_login(dana)
    change = reverse("accounts:password_change")

    assert change in client.get(url("Dana")).content.decode()
    assert change not in client.get(url("ben")).content.decode()


def test_a_private_game_is_listed_only_for_its_own_players(
    client: Client, dana, ben, finish_game
) -> None:
    game = finish_game(dana, ben, winner=dana)
    game.table.name = "Secret table"
    game.table.public = False
    game.table.save()
    stranger = User.objects.create_user("stranger", password="x")

    visitor_page = client.get(url("Dana")).content.decode()
    client.force_login(stranger)
    stranger_page = client.get(url("Dana")).content.decode()
    client.force_login(ben)
    ben_page = client.get(url("Dana")).content.decode()
    client.force_login(dana)
    own_page = client.get(url("Dana")).content.decode()

    for page in (visitor_page, stranger_page):
        assert "Secret table" not in page and "ben" not in page  # nor its co-player
        assert stat(page, "played") == "1"  # counted, but not shown
    assert "Secret table" in ben_page
    assert "Secret table" in own_page
