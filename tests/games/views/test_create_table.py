from django.test import Client
from django.urls import reverse

from games.models import Table

URL = "/tables/new/"
VALID = {
    "name": "Evening TAKI",
    "seat_count": "4",
    "mode": "tournament",
    "turn_seconds": "60",
    "bot_seats": "2",
    "visibility": "private",
}


def test_it_requires_login(client: Client, db) -> None:
    response = client.get(URL)

    assert response.status_code == 302
    assert response.url.startswith(reverse("accounts:login"))


def test_it_shows_the_form(client: Client, alice) -> None:
    client.force_login(alice)

    page = client.get(URL).content.decode()

    assert 'name="seat_count"' in page
    assert 'value="tournament"' in page
    assert "No limit" in page
    assert 'name="bot_seats"' in page


def test_it_opens_the_table_and_goes_to_it(client: Client, alice) -> None:
    client.force_login(alice)

    response = client.post(URL, VALID)

    table = Table.objects.get(name="Evening TAKI")
    assert response.status_code == 302
    assert response.url == reverse("games:table", args=[table.pk])
    assert (table.seat_count, table.tournament, table.turn_seconds, table.public) == (
        4,
        True,
        60,
        False,
    )
    assert [seat.bot for seat in table.seats.order_by("position")] == ["", "", "greedy", "greedy"]
    assert table.seats.get(position=0).user == alice


def test_it_takes_no_limit_as_no_turn_time(client: Client, alice) -> None:
    client.force_login(alice)

    client.post(URL, {**VALID, "turn_seconds": ""})

    assert Table.objects.get().turn_seconds is None


def test_it_refuses_as_many_bots_as_seats(client: Client, alice) -> None:
    client.force_login(alice)

    response = client.post(URL, {**VALID, "seat_count": "3", "bot_seats": "3"})

    assert response.status_code == 200
    assert "at most 2 bots" in response.content.decode()
    assert not Table.objects.exists()


def test_it_says_bot_in_the_singular_for_one(client: Client, alice) -> None:
    client.force_login(alice)

    response = client.post(URL, {**VALID, "seat_count": "2", "bot_seats": "2"})

    assert "at most 1 bot." in response.content.decode()
    assert not Table.objects.exists()


def test_it_seats_bots_of_the_chosen_level(client: Client, alice) -> None:
    client.force_login(alice)

    client.post(URL, {**VALID, "bot_kind": "medium"})

    table = Table.objects.get()
    assert list(table.seats.exclude(bot="").values_list("bot", flat=True)) == ["medium"] * 2


def test_it_offers_the_levels_with_easy_chosen(client: Client, alice) -> None:
    client.force_login(alice)

    page = client.get(URL).content.decode()

    assert 'name="bot_kind"' in page
    assert '<option value="easy" selected>Easy bot</option>' in page


def test_it_refuses_a_level_that_does_not_exist(client: Client, alice) -> None:
    client.force_login(alice)

    response = client.post(URL, {**VALID, "bot_kind": "greedy"})

    assert response.status_code == 200
    assert "bot_kind" in response.context["form"].errors
    assert not Table.objects.exists()
