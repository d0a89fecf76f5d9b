"""What one person can make the site do: open tables, names, the lobby's length."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Table
from games.services import tables
from games.services.errors import ServiceError

pytestmark = pytest.mark.django_db


def test_a_host_may_keep_only_a_few_tables_open_at_once(alice) -> None:
    for number in range(tables.MAX_OPEN_TABLES_PER_HOST):
        tables.create_table(alice, name=f"Table {number}", seat_count=2)

    with pytest.raises(ServiceError) as caught:
        tables.create_table(alice, name="One too many", seat_count=2)

    assert caught.value.code == "forbidden"
    assert "start or close one first" in caught.value.message
    assert Table.objects.filter(host=alice).count() == tables.MAX_OPEN_TABLES_PER_HOST


def test_a_started_table_frees_its_place_and_bot_games_do_not_count(alice, bob) -> None:
    opened = [
        tables.create_table(alice, name=f"Table {n}", seat_count=2, bot_seats=1)
        for n in range(tables.MAX_OPEN_TABLES_PER_HOST)
    ]
    tables.play_against_bots(alice)

    tables.start_game(opened[0].pk, alice)

    assert tables.create_table(alice, name="Now there is room", seat_count=2)


@pytest.mark.parametrize("name", ["evil\u202eexe.txt", "a\u200bb", "tab\there", "line\u2028two"])
def test_a_table_name_with_invisible_characters_is_refused(alice, name) -> None:
    with pytest.raises(ServiceError) as caught:
        tables.create_table(alice, name=name, seat_count=2)

    assert caught.value.code == "bad_request"
    assert not Table.objects.exists()


def test_the_lobby_shows_the_newest_tables_a_page_at_a_time(
    client: Client, django_user_model, monkeypatch
) -> None:
    monkeypatch.setattr(tables, "LOBBY_ROWS", 3)
    hosts = [django_user_model.objects.create_user(f"host{n}", password="x") for n in range(7)]
    for host in hosts:
        tables.create_table(host, name=f"Table of {host.username}", seat_count=2)

    first = client.get(reverse("games:home")).content.decode()
    last = client.get(reverse("games:home") + "?page=3").content.decode()

    assert first.count("<tr data-table=") == 3
    assert "Table of host6" in first and "Table of host3" not in first
    assert "Page 1 of 3" in first and "ws-connect" in first
    assert last.count("<tr data-table=") == 1
    assert "Table of host0" in last
    assert "ws-connect" not in last  # only the first page is kept live
