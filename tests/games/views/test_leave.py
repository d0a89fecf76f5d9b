from django.test import Client
from django.urls import reverse


def test_it_rejects_get(client: Client, make_table, bob) -> None:
    table = make_table(players=[bob])
    client.force_login(bob)

    assert client.get(reverse("games:leave", args=[table.pk])).status_code == 405


def test_it_frees_the_seat_and_returns_to_the_lobby(client: Client, make_table, bob) -> None:
    table = make_table(players=[bob])
    client.force_login(bob)

    response = client.post(reverse("games:leave", args=[table.pk]))

    assert response.url == reverse("games:home")
    assert table.seats.get(position=1).user is None


def test_it_gives_a_running_games_seat_to_a_bot(client: Client, make_table, bob, carol) -> None:
    table = make_table(seat_count=3, players=[bob, carol], start=True)
    client.force_login(bob)

    client.post(reverse("games:leave", args=[table.pk]))

    seat = table.seats.get(replaced_user=bob)
    assert seat.bot == "greedy"


def test_it_explains_leaving_a_table_one_does_not_sit_at(client: Client, make_table, carol) -> None:
    table = make_table()
    client.force_login(carol)

    response = client.post(reverse("games:leave", args=[table.pk]), follow=True)

    assert "You do not sit at this table." in response.content.decode()


def test_the_lobby_says_a_bot_plays_the_seat_of_a_player_who_left_the_game(
    client: Client, make_table, bob, carol
) -> None:
    table = make_table(name="Friday game", seat_count=3, players=[bob, carol], start=True)
    client.force_login(bob)

    lobby = client.post(reverse("games:leave", args=[table.pk]), follow=True).content.decode()

    assert "You left the game at Friday game: a bot plays your seat until it ends." in lobby


def test_the_lobby_says_the_player_left_a_table_before_its_game(
    client: Client, make_table, bob
) -> None:
    table = make_table(name="Friday game", players=[bob])
    client.force_login(bob)

    lobby = client.post(reverse("games:leave", args=[table.pk]), follow=True).content.decode()

    assert "You left the table Friday game." in lobby
