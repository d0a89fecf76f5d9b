from django.test import Client
from django.urls import reverse

from games.models import BOT_LEVELS, Table


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


def test_the_home_page_offers_every_level_with_easy_chosen(client: Client, alice) -> None:
    client.force_login(alice)

    page = client.get(reverse("games:home")).content.decode()

    assert '<select id="bots-level" name="level">' in page
    for name, label in BOT_LEVELS:
        assert f'value="{name}"' in page
        assert str(label) in page
    assert '<option value="easy" selected>Easy bot</option>' in page


def test_the_chosen_level_takes_every_bot_seat_and_names_it(client: Client, alice) -> None:
    client.force_login(alice)

    response = client.post(
        reverse("games:play_bots"), {"opponents": "3", "level": "hard"}, follow=True
    )

    table = Table.objects.get()
    assert list(table.seats.exclude(bot="").values_list("bot", flat=True)) == ["hard"] * 3
    page = response.content.decode()
    for position in (2, 3, 4):
        assert f"Hard bot {position}" in page


def test_an_unknown_level_is_refused_with_words_and_opens_nothing(client: Client, alice) -> None:
    client.force_login(alice)

    response = client.post(
        reverse("games:play_bots"), {"opponents": "3", "level": "grandmaster"}, follow=True
    )

    assert response.redirect_chain[-1][0] == reverse("games:home")
    assert "There is no such bot." in response.content.decode()
    assert not Table.objects.exists()
