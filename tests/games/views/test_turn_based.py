"""The turn-based pages: the table form's days per move, a challenge of days per move, the
header's and home page's "Your move in N games", the list of my turn-based games, vacations."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Challenge, Game, Table, Vacation
from games.presenters import site as fragments

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_table_form_opens_a_turn_based_table(alice) -> None:
    response = signed_in(alice).post(
        reverse("games:create_table"),
        {
            "name": "Slow game",
            "seat_count": "3",
            "mode": "standard",
            "turn_seconds": "30",
            "turn_days": "3",
            "bot_seats": "0",
            "visibility": "public",
        },
    )
    table = Table.objects.get(name="Slow game")
    assert response.status_code == 302
    assert (table.turn_days, table.turn_seconds) == (3, None)


def test_the_table_form_refuses_days_not_offered(alice) -> None:
    response = signed_in(alice).post(
        reverse("games:create_table"),
        {
            "name": "Slow",
            "seat_count": "2",
            "mode": "standard",
            "turn_days": "4",
            "bot_seats": "0",
            "visibility": "public",
        },
    )
    assert response.status_code == 200 and not Table.objects.exists()
    assert "turn_days" in response.context["form"].errors


def test_a_challenge_of_days_per_move_starts_a_turn_based_table(alice, bob) -> None:
    signed_in(alice).post(
        reverse("games:new_challenge"),
        {
            "players": "bob",
            "seat_count": "2",
            "mode": "standard",
            "turn_days": "1",
            "rated": "casual",
            "empty_seats": "",
        },
    )
    challenge = Challenge.objects.get()
    assert challenge.turn_days == 1
    signed_in(bob).post(
        reverse("games:challenge_answer", args=[challenge.pk]), {"answer": "accept"}
    )
    challenge.refresh_from_db()
    assert challenge.table is not None and challenge.table.turn_days == 1
    assert challenge.table.status == Table.Status.PLAYING


def your_move(html: str) -> str:
    found = re.search(r'<a id="your-move"[^>]*>([^<]*)</a>', html)
    return found.group(1) if found else ""


def test_the_header_and_home_page_say_your_move(alice, bob, make_table) -> None:
    make_table(players=[bob], start=True, turn_days=2)
    to_act = Game.objects.get().to_act[0]
    mover, other = (alice, bob) if to_act == 0 else (bob, alice)

    home = signed_in(mover).get(reverse("games:home")).content.decode()
    assert your_move(home) == "Your move in 1 game"
    assert "your-move-prompt" in home
    assert your_move(signed_in(other).get(reverse("games:home")).content.decode()) == ""
    assert your_move(fragments.your_move_fragment(3)) == "Your move in 3 games"


def test_the_list_shows_my_move_first(alice, bob, carol, make_table) -> None:
    mine = make_table(name="Mine to play", players=[bob], start=True, turn_days=2)
    theirs = make_table(name="Theirs to play", players=[carol], start=True, turn_days=2)
    Game.objects.filter(table=mine).update(to_act=[0])
    Game.objects.filter(table=theirs).update(to_act=[1])
    html = signed_in(alice).get(reverse("games:turn_based")).content.decode()
    assert html.index("Mine to play") < html.index("Theirs to play")
    assert "Your move in 1 game." in html


def test_a_vacation_is_taken_from_the_list_page(alice) -> None:
    client = signed_in(alice)
    response = client.post(reverse("games:take_vacation"), {"days": "5"})
    assert response.status_code == 302
    assert Vacation.objects.get(user=alice).days == 5
    page = client.get(reverse("games:turn_based")).content.decode()
    assert "25 days left this year" in page
    refused = client.post(reverse("games:take_vacation"), {"days": "3"}, follow=True)
    assert "You are already on vacation then." in refused.content.decode()
    assert Vacation.objects.filter(user=alice).count() == 1


def test_the_table_and_the_lobby_show_days_per_move_and_hours_left(alice, bob, make_table):
    table = make_table(players=[bob], start=True, turn_days=2)
    to_act = Game.objects.get().to_act[0]
    mover = alice if to_act == 0 else bob
    page = signed_in(mover).get(reverse("games:table", args=[table.pk])).content.decode()
    assert "2 days a move" in page
    assert re.search(r"4[78] h left", page)
    assert "data-seconds-left" not in page  # no countdown of 172,800 seconds
    waiting = make_table(name="Slow lobby", turn_days=5, host=bob)
    lobby = Client().get(reverse("games:home")).content.decode()
    row = lobby[lobby.index(f'data-table="{waiting.pk}"') :]
    assert "5 days a move" in row[: row.index("</tr>")]
