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


def test_one_game_too_many_is_refused_with_links_to_the_games_going_on(
    client: Client, alice, settings
) -> None:
    settings.BOT_GAMES_PER_PERSON = 2
    client.force_login(alice)
    for _ in range(2):
        client.post(reverse("games:play_bots"))

    response = client.post(reverse("games:play_bots"), follow=True)

    assert response.redirect_chain[-1][0] == reverse("games:home")
    page = response.content.decode()
    assert "You already play 2 games against bots: finish or leave one first." in page
    for table in Table.objects.all():
        assert f'<a href="{reverse("games:table", args=[table.pk])}">alice vs bots</a>' in page
    assert Table.objects.count() == 2
