import pytest
from django.test import Client
from django.urls import reverse

from games.engine import replay_text
from tests.play import play_to_the_end


@pytest.fixture
def finished(make_table, bob):
    table = make_table(players=[bob], start=True, turn_seconds=None)
    return play_to_the_end(table)


def test_it_exports_a_record_that_replays_to_the_same_winner(client: Client, finished) -> None:
    response = client.get(reverse("games:record_json", args=[finished.pk]))

    assert response["Content-Type"] == "application/json"
    record = response.json()
    assert record["format"] == "taki-record/1"
    assert len(record["actions"]) == finished.version
    result = replay_text(response.content)
    assert result.ok and result.game.winner == finished.winner


def test_it_refuses_while_the_game_runs(client: Client, make_table, bob) -> None:
    table = make_table(players=[bob], start=True)

    response = client.get(reverse("games:record_json", args=[table.game.pk]))

    assert response.status_code == 404
    assert "deck" not in response.content.decode()


def test_it_hides_a_private_game_from_strangers(client: Client, make_table, bob, carol) -> None:
    table = make_table(players=[bob], start=True, turn_seconds=None, public=False)
    game = play_to_the_end(table)
    client.force_login(carol)

    assert client.get(reverse("games:record_json", args=[game.pk])).status_code == 403
    client.force_login(bob)
    assert client.get(reverse("games:record_json", args=[game.pk])).status_code == 200
