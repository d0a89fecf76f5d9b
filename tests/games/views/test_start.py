from django.test import Client
from django.urls import reverse

from games.models import Game, Table


def test_it_rejects_get(client: Client, make_table, alice, bob) -> None:
    table = make_table(players=[bob])
    client.force_login(alice)

    assert client.get(reverse("games:start", args=[table.pk])).status_code == 405


def test_it_lets_the_host_start_and_shows_the_game(client: Client, make_table, alice, bob) -> None:
    table = make_table(players=[bob])
    client.force_login(alice)

    response = client.post(reverse("games:start", args=[table.pk]), follow=True)

    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert Game.objects.filter(table=table).exists()
    assert "Your hand" in response.content.decode()


def test_it_refuses_anyone_but_the_host(client: Client, make_table, bob) -> None:
    table = make_table(players=[bob])
    client.force_login(bob)

    response = client.post(reverse("games:start", args=[table.pk]), follow=True)

    assert "Only the host can do that." in response.content.decode()
    assert not Game.objects.filter(table=table).exists()


def test_it_needs_two_filled_seats(client: Client, make_table, alice) -> None:
    table = make_table(seat_count=3)
    client.force_login(alice)

    response = client.post(reverse("games:start", args=[table.pk]), follow=True)

    assert "At least two seats must be filled to start." in response.content.decode()
