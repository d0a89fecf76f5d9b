from datetime import timedelta

from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Sanction
from games.models import Game


def url(table) -> str:
    return reverse("games:table", args=[table.pk])


def test_it_shows_an_open_table_with_its_seats(client: Client, make_table) -> None:
    table = make_table(name="Friday game", seat_count=3, bot_seats=1)

    page = client.get(url(table)).content.decode()

    assert "Friday game" in page
    assert "Waiting for players" in page
    assert "alice" in page
    assert "Empty seat" in page
    assert "Greedy bot 3" in page
    assert "Log in to play" in page


def test_it_offers_the_host_start_remove_and_add_bot(
    client: Client, make_table, alice, bob
) -> None:
    table = make_table(seat_count=3, players=[bob])
    client.force_login(alice)

    page = client.get(url(table)).content.decode()

    assert reverse("games:start", args=[table.pk]) in page
    assert reverse("games:remove_seat", args=[table.pk, 1]) in page
    assert reverse("games:add_bot", args=[table.pk, 2]) in page
    assert reverse("games:remove_seat", args=[table.pk, 0]) not in page


def test_it_opens_one_websocket_for_the_page(client: Client, make_table) -> None:
    table = make_table()

    page = client.get(url(table)).content.decode()

    assert page.count("ws-connect=") == 1
    assert f'ws-connect="/ws/tables/{table.pk}/"' in page


def test_it_shows_a_player_their_own_hand_only(client: Client, make_table, alice, bob) -> None:
    table = make_table(players=[bob], start=True)
    game = Game.objects.get(table=table)
    client.force_login(alice)

    page = client.get(url(table)).content.decode()

    own, other = game.state["hands"]
    for code in own:
        assert f'data-card="{code}"' in page
    for code in set(other) - set(own):
        assert f'data-card="{code}"' not in page
    assert 'id="table-hand"' in page and "Your hand" in page


def test_it_shows_a_spectator_no_hand(client: Client, make_table, bob) -> None:
    table = make_table(players=[bob], start=True)

    page = client.get(url(table)).content.decode()

    assert "data-card=" not in page
    assert "8 cards" in page


def test_it_hides_a_private_table_from_strangers(client: Client, make_table, carol) -> None:
    table = make_table(public=False)
    client.force_login(carol)

    assert client.get(url(table)).status_code == 403


def test_it_shows_a_private_table_to_whoever_has_the_invite(
    client: Client, make_table, carol
) -> None:
    table = make_table(public=False)
    client.force_login(carol)

    page = client.get(url(table) + f"?invite={table.invite_token}").content.decode()

    assert f'name="invite" value="{table.invite_token}"' in page
    assert f"/ws/tables/{table.pk}/?invite={table.invite_token}" in page


def test_it_gives_the_private_tables_host_the_invite_link(
    client: Client, make_table, alice
) -> None:
    table = make_table(public=False)
    client.force_login(alice)

    page = client.get(url(table)).content.decode()

    assert f"?invite={table.invite_token}" in page


def test_it_answers_404_for_a_missing_table(client: Client, db) -> None:
    assert client.get("/tables/999/").status_code == 404


def test_a_player_seated_before_the_start_has_leave_and_sound_drawn_for_when_it_starts(
    client: Client, make_table, bob, carol
) -> None:
    """Drawn with the page, shown by the stylesheet once the pushed board says the game runs:
    the page is not loaded again when the host starts."""
    table = make_table(seat_count=3, players=[bob])
    client.force_login(bob)
    seated = client.get(url(table)).content.decode()
    client.force_login(carol)
    watching = client.get(url(table)).content.decode()

    assert 'id="turn-sound"' in seated and "Yes, leave the game" in seated
    assert 'id="turn-sound"' not in watching and "Yes, leave the game" not in watching


def test_a_player_a_moderator_muted_reads_the_mute_and_its_end_in_place_of_the_chat_box(
    client: Client, make_table, alice, bob
) -> None:
    table = make_table(players=[bob], start=True)
    ends = timezone.now() + timedelta(hours=2)
    Sanction.objects.create(user=bob, kind=Sanction.Kind.CHAT_MUTE, reason="x", ends_at=ends)
    client.force_login(bob)
    muted = client.get(url(table)).content.decode()
    client.force_login(alice)
    free = client.get(url(table)).content.decode()

    assert "A moderator has muted your chat until " in muted
    assert "until then you can read it, not write in it." in muted and ".." not in muted
    assert "data-chat-form" not in muted
    assert "data-chat-form" in free and "muted your chat" not in free
