from django.test import Client
from django.urls import reverse

from games.services import tables


def test_it_lists_open_public_tables_with_their_details(client: Client, make_table, bob) -> None:
    make_table(name="Friday game", seat_count=4, turn_seconds=15, tournament=True)
    make_table(name="Hidden game", public=False)

    page = client.get(reverse("games:home")).content.decode()

    assert "Friday game" in page
    assert "1 of 4" in page
    assert "Tournament" in page
    assert "15 s" in page
    assert "Hidden game" not in page


def test_it_hides_tables_that_have_started(client: Client, make_table, bob) -> None:
    make_table(name="Running game", players=[bob], start=True)

    page = client.get(reverse("games:home")).content.decode()
    lobby = page[page.index('<div id="lobby-tables">') :]

    assert "Running game" not in lobby  # listed with the games being played instead
    assert "No open tables right now" in lobby


def test_it_invites_anonymous_visitors_to_sign_up_or_log_in(client: Client, db) -> None:
    page = client.get(reverse("games:home")).content.decode()

    assert reverse("accounts:signup") in page
    assert reverse("accounts:login") in page
    assert "Play against bots" not in page


def test_it_offers_a_signed_in_player_bots_and_a_new_table(client: Client, alice) -> None:
    client.force_login(alice)

    page = client.get(reverse("games:home")).content.decode()

    assert f'action="{reverse("games:play_bots")}"' in page
    assert reverse("games:create_table") in page


def test_it_opens_the_lobby_socket(client: Client, db) -> None:
    page = client.get(reverse("games:home")).content.decode()

    assert 'hx-ext="ws" ws-connect="/ws/lobby/"' in page
    assert '<div id="lobby-tables">' in page


def test_it_keeps_the_site_title_and_loads_htmx_with_the_websocket_extension(
    client: Client, db
) -> None:
    page = client.get(reverse("games:home")).content.decode()

    assert "<title>Taki Online</title>" in page
    assert '<script src="/static/django_htmx/ext/hx-ws-2.min.js" defer></script>' in page


def test_it_shows_a_full_table_without_a_join_button(client: Client, make_table, bob) -> None:
    table = make_table(name="Full house", players=[bob])
    assert tables.lobby_tables()[0].seats_taken == 2

    page = client.get(reverse("games:home")).content.decode()

    assert "Full house" in page
    assert reverse("games:join", args=[table.pk]) not in page
