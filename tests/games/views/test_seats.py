"""The host's seat controls before the start: remove a seat, put a bot on one."""

from django.test import Client
from django.urls import reverse


def test_it_rejects_get(client: Client, make_table, alice) -> None:
    table = make_table(seat_count=3)
    client.force_login(alice)

    assert client.get(reverse("games:add_bot", args=[table.pk, 1])).status_code == 405
    assert client.get(reverse("games:remove_seat", args=[table.pk, 1])).status_code == 405


def test_it_lets_the_host_put_a_bot_on_an_empty_seat(client: Client, make_table, alice) -> None:
    table = make_table(seat_count=3)
    client.force_login(alice)

    response = client.post(reverse("games:add_bot", args=[table.pk, 2]), follow=True)

    assert table.seats.get(position=2).bot == "greedy"
    assert "Greedy bot 3" in response.content.decode()


def test_it_lets_the_host_remove_a_player(client: Client, make_table, alice, bob) -> None:
    table = make_table(players=[bob])
    client.force_login(alice)

    client.post(reverse("games:remove_seat", args=[table.pk, 1]))

    assert table.seats.get(position=1).user is None


def test_it_refuses_a_guest(client: Client, make_table, bob) -> None:
    table = make_table(seat_count=3, players=[bob])
    client.force_login(bob)

    response = client.post(reverse("games:add_bot", args=[table.pk, 2]), follow=True)

    assert "Only the host can do that." in response.content.decode()
    assert table.seats.get(position=2).is_empty


def test_the_host_chooses_the_level_of_the_bot_put_on_a_seat(
    client: Client, make_table, alice
) -> None:
    table = make_table(seat_count=3)
    client.force_login(alice)

    response = client.post(
        reverse("games:add_bot", args=[table.pk, 1]), {"level": "expert"}, follow=True
    )

    assert table.seats.get(position=1).bot == "expert"
    assert "Expert bot 2" in response.content.decode()


def test_every_empty_seat_offers_the_levels_to_the_host(client: Client, make_table, alice) -> None:
    table = make_table(seat_count=3)
    client.force_login(alice)

    page = client.get(reverse("games:table", args=[table.pk])).content.decode()

    assert page.count('<select name="level"') == 2  # seats 2 and 3 are empty
    assert page.count('<option value="easy" selected>Easy bot</option>') == 2
    assert page.count('value="expert"') == 2


def test_a_bot_of_no_such_level_is_refused_and_the_seat_stays_empty(
    client: Client, make_table, alice
) -> None:
    table = make_table(seat_count=3)
    client.force_login(alice)

    response = client.post(
        reverse("games:add_bot", args=[table.pk, 1]), {"level": "grandmaster"}, follow=True
    )

    assert "There is no such bot." in response.content.decode()
    assert table.seats.get(position=1).is_empty
