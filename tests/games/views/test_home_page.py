"""The home page as the site's front door: Play now and the people a person knows, or TAKI in
one look for a visitor; and for both the signs that people play."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Rating
from games.presenters.front import LEADERS_SHOWN, PLAYING_SHOWN, SAMPLE_CARDS
from games.services import online, tables
from social import relations

pytestmark = pytest.mark.django_db

User = get_user_model()


def home(client: Client) -> str:
    return client.get(reverse("games:home")).content.decode()


def section(page: str, css_class: str) -> str:
    start = page.index(f'class="{css_class}')
    return page[start : page.index("</section>", start)]


def primary_buttons(page: str) -> list[str]:
    main = page[page.index("<main") :]
    return re.findall(r'<(?:button|a)[^>]*class="[^"]*button--primary[^"]*"[^>]*>([^<]*)', main)


def rated(user, mode: str, mu: float) -> Rating:
    return Rating.objects.create(
        user=user, mode=mode, mu=mu, sigma=5.0, games=12, updated_at=timezone.now()
    )


def test_a_visitor_sees_real_cards_a_sentence_and_one_primary_button(client: Client) -> None:
    page = home(client)

    door = section(page, "front-door")
    assert door.count('class="card card--') == len(SAMPLE_CARDS)
    assert 'aria-label="blue +2"' in door
    assert "first to play your whole hand" in door
    assert primary_buttons(page) == ["Try a game against bots"]
    assert f'action="{reverse("games:guest")}"' in door
    assert f'href="{reverse("accounts:signup")}"' in door


def test_a_signed_in_player_s_one_primary_button_is_play_now(client: Client, alice) -> None:
    client.force_login(alice)

    page = home(client)

    assert "front-door" not in page
    assert len(primary_buttons(page)) == 1
    start = page.index('<form class="play-now')
    form = page[start : page.index("</form>", start)]
    assert "button--primary" in form
    assert 'id="friends-panel"' in page
    assert 'id="open-challenges"' in page


def test_the_games_being_played_are_listed_with_a_link_to_watch_public_ones_only(
    client: Client, make_table, alice, bob, carol
) -> None:
    public = make_table(name="Running game", players=[bob], start=True)
    make_table(name="Secret game", host=carol, players=[], public=False)

    playing = section(home(client), "site-life__playing")

    assert f'href="{reverse("games:table", args=[public.pk])}">Watch Running game</a>' in playing
    assert "alice" in playing
    assert "bob" in playing
    assert "Secret game" not in playing
    assert 'data-playing="1"' in playing
    assert "1 game being played" in playing


def test_the_count_of_games_being_played_is_all_of_them_though_few_are_listed(
    client: Client, make_table, bob
) -> None:
    for number in range(PLAYING_SHOWN + 2):
        make_table(name=f"Game {number}", players=[bob], start=True)

    playing = section(home(client), "site-life__playing")

    assert playing.count("<tr data-table=") == PLAYING_SHOWN
    assert f'data-playing="{PLAYING_SHOWN + 2}"' in playing
    assert f'href="{reverse("games:watch")}"' in playing


def test_it_says_how_many_people_are_online(client: Client, alice, bob, carol) -> None:
    online.process_people("a-process", [alice.pk, bob.pk])

    playing = section(home(client), "site-life__playing")

    assert 'data-online="2"' in playing
    assert "2 people online" in playing

    client.force_login(carol)  # the page being drawn is hers: she is online
    assert 'data-online="3"' in section(home(client), "site-life__playing")
    client.force_login(bob)
    assert 'data-online="2"' in section(home(client), "site-life__playing")


def test_a_quiet_site_says_nobody_plays_rather_than_counting_zeros(client: Client) -> None:
    playing = section(home(client), "site-life__playing")

    assert "No public game is being played right now." in playing
    assert "0 people" not in playing
    assert "0 games" not in playing


def test_it_shows_the_top_of_each_leaderboard_and_links_them_all(client: Client, db) -> None:
    for number in range(LEADERS_SHOWN + 2):
        rated(User.objects.create_user(f"duelist{number}"), "duel", 30.0 + number)

    leaders = section(home(client), "site-life__leaders")

    duel = leaders[leaders.index('data-board="duel"') : leaders.index("</ol>")]
    names = re.findall(r">(duelist\d+)</a>", duel)
    assert names == [f"duelist{number}" for number in range(LEADERS_SHOWN + 1, 1, -1)]
    assert f'href="{reverse("games:leaderboards")}"' in leaders
    assert leaders.count("Nobody yet.") == 3  # the party, tournament and turn-based boards


def test_empty_leaderboards_say_so_once(client: Client, db) -> None:
    leaders = section(home(client), "site-life__leaders")

    assert leaders.count("Nobody yet.") == 1
    assert "<h3" not in leaders


def test_nothing_on_the_home_page_carries_a_hand_s_cards(
    client: Client, make_table, rig, alice, bob, carol
) -> None:
    table = make_table(name="Running game", players=[bob], start=True)
    hands = [
        ["red:9", "red:8", "red:7", "red:6", "red:4", "red:3", "red:1", "king"],
        ["green:plus2", "green:9", "green:8", "green:7", "green:6", "green:4", "green:3", "plus3"],
    ]
    rig(table, hands, leading="yellow:5")
    relations.follow(carol, alice)
    relations.follow(alice, carol)

    for viewer in (None, carol, bob):
        if viewer is not None:
            client.force_login(viewer)
        page = home(client)
        main = page[page.index("<main") :]
        shown = re.findall(r'aria-label="([^"]*)" role="img"', main)
        # A visitor sees the sample cards only; a signed-in person none.
        assert len(shown) == (0 if viewer else len(SAMPLE_CARDS))
        for card_label in ("red 9", "red 8", "King", "green +2", "green 9", "+3"):
            assert card_label not in shown
        assert "data-card" not in main


def test_the_home_page_s_queries_do_not_grow_with_the_games_being_played(
    client: Client, make_table, django_assert_max_num_queries, alice
) -> None:
    people = [User.objects.create_user(f"player{number}") for number in range(30)]
    for number, person in enumerate(people):
        relations.follow(alice, person)
        relations.follow(person, alice)
        if number % 2 == 0:
            host = people[number + 1]
            make_table(name=f"Game {number}", host=host, players=[person], start=True)
    for number in range(LEADERS_SHOWN):
        rated(people[number], "party", 30.0 + number)
    client.force_login(alice)

    # The session, the user, the bell, the lobby, the games being played, the leaderboards, the
    # friends panel and the open challenges: a few queries each, none per game nor per friend.
    with django_assert_max_num_queries(20):
        page = home(client)

    assert page.count("<tr data-table=") == PLAYING_SHOWN
    assert page.count('data-state="playing"') == len(people)


def test_tables_the_lobby_lists_open_are_not_the_games_being_played(
    client: Client, make_table, bob
) -> None:
    waiting = make_table(name="Waiting game")
    running = make_table(name="Running game", host=bob, start=False)
    tables.join_table(running.pk, waiting.host, invite=running.invite_token)
    tables.start_game(running.pk, bob)

    page = home(client)
    lobby = page[page.index('<div id="lobby-tables">') :]

    assert "Waiting game" in lobby
    assert "Running game" not in lobby
    assert "Running game" in section(page, "site-life__playing")


def test_a_friend_playing_is_shown_with_a_link_to_watch_where_the_table_allows_it(
    client: Client, make_table, alice, bob, carol
) -> None:
    for friend in (bob, carol):
        relations.follow(alice, friend)
        relations.follow(friend, alice)
    public = make_table(name="Open game", host=bob, players=[User.objects.create_user("dan")])
    tables.start_game(public.pk, bob)
    private = make_table(name="Own game", host=carol, public=False)
    tables.join_table(private.pk, User.objects.create_user("eve"), invite=private.invite_token)
    tables.start_game(private.pk, carol)
    client.force_login(alice)

    panel = section(home(client), "friends prompt")

    bob_entry = panel[panel.index('data-friend="bob"') : panel.index("</li>", panel.index("bob"))]
    carol_entry = panel[panel.index('data-friend="carol"') :]
    carol_entry = carol_entry[: carol_entry.index("</li>")]
    assert 'data-state="playing"' in bob_entry
    assert f'href="{reverse("games:table", args=[public.pk])}">Watch' in bob_entry
    assert 'data-state="playing"' in carol_entry
    assert "Watch" not in carol_entry
