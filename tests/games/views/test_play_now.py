""" "Play now": entering a pool from the lobby, the pool page, and cancelling."""

from __future__ import annotations

from datetime import timedelta

from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import guests
from accounts.models import Sanction
from games.models import PoolEntry
from games.services import quickmatch
from tests.play import matched


def test_the_lobby_offers_every_pool_to_a_signed_up_player(client: Client, alice) -> None:
    client.force_login(alice)

    page = client.get(reverse("games:home")).content.decode()

    assert f'action="{reverse("games:play_now")}"' in page
    for key in quickmatch.POOLS:
        assert f'name="pool" value="{key}"' in page
    assert 'name="bots"' in page


def test_the_lobby_offers_no_pool_to_a_visitor(client: Client, db) -> None:
    assert 'name="pool"' not in client.get(reverse("games:home")).content.decode()


def test_it_rejects_get(client: Client, alice) -> None:
    client.force_login(alice)

    assert client.get(reverse("games:play_now")).status_code == 405


def test_it_requires_login(client: Client, db) -> None:
    response = client.post(reverse("games:play_now"), {"pool": "duel-15"})

    assert response.url.startswith(reverse("accounts:login"))
    assert not PoolEntry.objects.exists()


def test_one_click_enters_the_pool_and_shows_the_pool_page(client: Client, alice) -> None:
    client.force_login(alice)

    response = client.post(
        reverse("games:play_now"), {"pool": "party-30", "bots": "on"}, follow=True
    )

    entry = PoolEntry.objects.get(user=alice)
    assert (entry.pool, entry.bots_wanted) == ("party-30", True)
    page = response.content.decode()
    assert response.redirect_chain[-1][0] == reverse("games:pool")
    assert "4 players, 30 s turns" in page
    assert 'ws-connect="/ws/pool/"' in page
    assert "1 person waiting in this pool" in page
    assert 'data-waited-seconds="0"' in page
    assert f'action="{reverse("games:pool_cancel")}"' in page
    assert "Bots fill the empty seats after 20 seconds" in page


def test_the_pool_page_shows_how_long_the_person_has_waited(client: Client, alice) -> None:
    quickmatch.enter(alice, "duel-15", now=timezone.now() - timedelta(seconds=75))
    client.force_login(alice)

    page = client.get(reverse("games:pool")).content.decode()

    assert 'data-waited-seconds="75"' in page
    assert ">1:15<" in page


def test_an_unknown_pool_is_refused_with_a_message(client: Client, alice) -> None:
    client.force_login(alice)

    response = client.post(reverse("games:play_now"), {"pool": "blitz"}, follow=True)

    assert "There is no such pool." in response.content.decode()
    assert not PoolEntry.objects.exists()


def test_a_play_banned_player_is_refused(client: Client, alice) -> None:
    Sanction.objects.create(user=alice, kind="play_ban", reason="leaver")
    client.force_login(alice)

    response = client.post(reverse("games:play_now"), {"pool": "duel-15"}, follow=True)

    assert response.redirect_chain[-1][0] == reverse("games:home")
    assert "A moderator has banned you from playing." in response.content.decode()
    assert not PoolEntry.objects.exists()


def test_a_guest_is_refused(client: Client, db) -> None:
    guest = guests.create_guest()
    client.force_login(guest)

    response = client.post(reverse("games:play_now"), {"pool": "duel-15"}, follow=True)

    assert "Keep your account to play with people." in response.content.decode()
    assert not PoolEntry.objects.exists()


def test_a_seated_player_is_sent_to_their_table_with_a_message(
    client: Client, alice, make_table
) -> None:
    table = make_table()
    client.force_login(alice)

    response = client.post(reverse("games:play_now"), {"pool": "duel-15"}, follow=True)

    assert response.redirect_chain[-1][0] == reverse("games:table", args=[table.pk])
    assert "You already sit at a table: finish or leave it first." in response.content.decode()
    assert not PoolEntry.objects.exists()


def test_cancelling_leaves_the_pool_for_the_lobby(client: Client, alice) -> None:
    quickmatch.enter(alice, "duel-15")
    client.force_login(alice)

    response = client.post(reverse("games:pool_cancel"), follow=True)

    assert response.redirect_chain[-1][0] == reverse("games:home")
    assert "You left the pool." in response.content.decode()
    assert not PoolEntry.objects.exists()


def test_the_pool_page_reloaded_after_the_match_goes_to_the_table(
    client: Client, alice, bob
) -> None:
    table = matched(alice, bob, pool="duel-15")
    client.force_login(alice)

    response = client.get(reverse("games:pool"))

    assert response.url == reverse("games:table", args=[table.pk])


def test_the_pushed_element_asking_where_to_go_is_sent_to_the_table(
    client: Client, alice, bob
) -> None:
    table = matched(alice, bob, pool="duel-15")
    client.force_login(alice)

    response = client.get(reverse("games:pool"), headers={"HX-Request": "true"})

    assert response["HX-Redirect"] == reverse("games:table", args=[table.pk])


def test_the_pool_page_out_of_every_pool_goes_to_the_lobby(client: Client, alice) -> None:
    client.force_login(alice)

    response = client.get(reverse("games:pool"), follow=True)

    assert response.redirect_chain[-1][0] == reverse("games:home")
    assert "You are not searching for a game." in response.content.decode()


def test_the_pushed_element_of_a_page_out_of_every_pool_goes_to_the_lobby_quietly(
    client: Client, alice
) -> None:
    client.force_login(alice)

    response = client.get(reverse("games:pool"), headers={"HX-Request": "true"})

    assert response["HX-Redirect"] == reverse("games:home")
    assert "You are not searching" not in client.get(reverse("games:home")).content.decode()
