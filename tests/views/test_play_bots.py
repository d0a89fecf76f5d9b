from django.test import Client
from django.urls import reverse

from games.models import Table


def test_it_rejects_get(client: Client, alice) -> None:
    client.force_login(alice)

    assert client.get(reverse("games:play_bots")).status_code == 405


def test_it_requires_login(client: Client, db) -> None:
    response = client.post(reverse("games:play_bots"))

    assert response.url.startswith(reverse("accounts:login"))


def test_it_starts_a_game_against_three_bots_at_once(client: Client, alice) -> None:
    client.force_login(alice)

    response = client.post(reverse("games:play_bots"), {"opponents": "3"}, follow=True)

    table = Table.objects.get()
    assert table.status == Table.Status.PLAYING
    assert table.seat_count == 4
    assert table.seats.exclude(bot="").count() == 3
    page = response.content.decode()
    assert "Your hand: 8 cards" in page
    assert page.count("badge--bot") == 3
