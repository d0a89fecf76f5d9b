import pytest
from django.test import Client
from django.urls import reverse

from games.services import tables
from tests.play import play_to_the_end


@pytest.fixture
def finished(make_table, bob):
    table = make_table(players=[bob], start=True, turn_seconds=None)
    return play_to_the_end(table)


def test_it_shows_players_result_length_and_moves_in_words(client: Client, finished) -> None:
    page = client.get(reverse("games:finished_game", args=[finished.pk])).content.decode()

    winner = finished.players[finished.winner]
    assert f"{winner} won." in page
    assert '<a href="/players/alice/">alice</a>, <a href="/players/bob/">bob</a>' in page
    assert f"{finished.version} moves" in page
    assert page.count('"><a href="?move=') == finished.version
    assert f"{winner} wins the game" in page
    assert reverse("games:record_json", args=[finished.pk]) in page


def test_it_replays_the_public_table_after_a_chosen_move(client: Client, finished) -> None:
    page = client.get(reverse("games:finished_game", args=[finished.pk]) + "?move=0").content

    page = page.decode()
    assert "After move 0 of" in page
    assert page.count("8 cards") == 2
    assert "data-card=" not in page


def test_it_lists_the_game_among_the_finished_games(client: Client, finished) -> None:
    page = client.get(reverse("games:finished_games")).content.decode()

    assert reverse("games:finished_game", args=[finished.pk]) in page
    assert "Friday game" in page


def test_it_answers_404_while_the_game_runs(client: Client, make_table, bob) -> None:
    table = make_table(players=[bob], start=True)

    response = client.get(reverse("games:finished_game", args=[table.game.pk]))

    assert response.status_code == 404


def test_a_player_whose_seat_a_bot_took_still_sees_the_private_table_and_its_game(
    client: Client, make_table, bob, carol
) -> None:
    table = make_table(
        seat_count=3, players=[bob, carol], public=False, start=True, turn_seconds=None
    )
    tables.leave_table(table.pk, bob)
    client.force_login(bob)

    assert client.get(reverse("games:table", args=[table.pk])).status_code == 200
    game = play_to_the_end(table)
    assert client.get(reverse("games:finished_game", args=[game.pk])).status_code == 200
    assert client.get(reverse("games:record_json", args=[game.pk])).status_code == 200


def test_a_stranger_sees_neither_the_private_table_nor_its_game(
    client: Client, make_table, bob, carol
) -> None:
    table = make_table(players=[bob], public=False, start=True, turn_seconds=None)
    client.force_login(carol)

    assert client.get(reverse("games:table", args=[table.pk])).status_code == 403
    game = play_to_the_end(table)
    assert client.get(reverse("games:finished_game", args=[game.pk])).status_code == 403
    assert client.get(reverse("games:record_json", args=[game.pk])).status_code == 403


def test_its_last_board_says_who_won_and_an_earlier_one_whose_turn_it_was(
    client: Client, finished
) -> None:
    url = reverse("games:finished_game", args=[finished.pk])
    last = client.get(url).content.decode()
    first = client.get(url + "?move=1").content.decode()

    winner = finished.players[finished.winner]
    assert "Turn: <strong>" not in last
    assert f'<span class="replay__winner"><strong>{winner} won.</strong></span>' in last
    assert "Turn: <strong>" in first and "replay__winner" not in first


def test_a_replay_step_asked_by_htmx_is_the_replay_alone(client: Client, finished) -> None:
    url = reverse("games:finished_game", args=[finished.pk]) + "?move=3"

    response = client.get(url, headers={"HX-Request": "true"})

    page = response.content.decode()
    assert page.lstrip().startswith('<section id="replay"')
    assert "After move 3 of" in page
    assert "site-header" not in page and "Players' chat" not in page


def test_a_replay_step_restored_from_the_history_is_the_whole_page(
    client: Client, finished
) -> None:
    # Past the ten pages htmx keeps, Back asks the server again, and htmx puts the answer in
    # place of the page's whole body.
    url = reverse("games:finished_game", args=[finished.pk]) + "?move=3"
    headers = {"HX-Request": "true", "HX-History-Restore-Request": "true"}

    page = client.get(url, headers=headers).content.decode()

    assert page.lstrip().startswith("<!DOCTYPE html>")
    assert '<header class="site-header">' in page
    assert "After move 3 of" in page
    assert "Players' chat" in page and '<ol class="moves">' in page


def test_a_finished_game_s_answers_vary_with_the_htmx_headers(client: Client, finished) -> None:
    url = reverse("games:finished_game", args=[finished.pk]) + "?move=3"
    restore = {"HX-Request": "true", "HX-History-Restore-Request": "true"}

    for headers in ({}, {"HX-Request": "true"}, restore):
        vary = client.get(url, headers=headers)["Vary"]
        named = {name.strip().lower() for name in vary.split(",")}
        assert {"hx-request", "hx-history-restore-request"} <= named, vary
