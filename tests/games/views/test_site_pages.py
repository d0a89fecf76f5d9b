"""My games, the watch list, rules, replays, a bot's takeover in results, error pages."""

from __future__ import annotations

import random
import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.engine import GameState, make_bot
from games.engine.bots import LEVELS
from games.models import BOT_LEVELS, Game, Table
from games.presenters.rules_page import CARD_LEGEND, LEVEL_PLAY, LEVEL_STRENGTH
from games.services import moves, replays, stats, tables

pytestmark = pytest.mark.django_db


def play_bot_game(table: Table) -> Game:
    """Play a table to the end: the people's seats with a greedy bot's choices, the bots' by
    the server, each advance an hour later than the last (a bot may play twice running)."""
    bot = make_bot("greedy", random.Random(3))
    later = timezone.now()
    for _ in range(3000):
        game = Game.objects.get(table=table)
        if game.finished:
            return game
        people = dict(table.seats.values_list("position", "user"))
        engine = game.engine()
        seat = engine.seats_to_act()[0]
        if people.get(seat) is None:
            later += timedelta(hours=1)
            moves.advance(game.pk, later)
            continue
        action = bot.choose(engine, seat).to_json()
        user = table.seats.get(position=seat).user
        moves.submit_action(table.pk, user, {**action, "version": game.version})
    raise AssertionError("the game did not finish")


@pytest.fixture
def bot_game(alice):
    return play_bot_game(tables.play_against_bots(alice, opponents=2))


@pytest.fixture
def taken_over(make_table, bob, carol):
    """A game of alice, bob and carol that a bot finished in bob's seat."""
    table = make_table(seat_count=3, players=[bob, carol], start=True, turn_seconds=None)
    tables.leave_table(table.pk, bob)
    return play_bot_game(table)


def test_my_games_lists_the_players_private_bot_games_with_filters(
    client: Client, alice, bot_game, make_table, bob
) -> None:
    people = play_bot_game(make_table(players=[bob], start=True, turn_seconds=None))
    client.force_login(alice)
    url = reverse("games:my_games")

    everything = client.get(url).content.decode()
    with_bots = client.get(url + "?with=bots").content.decode()
    with_people = client.get(url + "?with=people").content.decode()
    won = client.get(url + "?result=won").content.decode()
    lost = client.get(url + "?result=lost").content.decode()

    assert f'data-game="{bot_game.pk}"' in everything and f'data-game="{people.pk}"' in everything
    assert '<a href="/players/bob/">bob</a>' in everything
    assert f'data-game="{bot_game.pk}"' in with_bots and f'data-game="{people.pk}"' not in with_bots
    assert (
        f'data-game="{people.pk}"' in with_people
        and f'data-game="{bot_game.pk}"' not in with_people
    )
    alice_won = {game.pk for game in (bot_game, people) if game.winner == 0}
    assert {int(pk) for pk in re.findall(r'data-game="(\d+)"', won)} == alice_won
    assert {int(pk) for pk in re.findall(r'data-game="(\d+)"', lost)} == {
        bot_game.pk,
        people.pk,
    } - alice_won


def test_my_games_is_for_the_logged_in_only(client: Client) -> None:
    response = client.get(reverse("games:my_games"))

    assert response.status_code == 302 and "/accounts/login/" in response.url


def test_a_seat_a_bot_took_over_is_the_bots_on_the_page_and_left_in_the_stats(
    client: Client, taken_over, bob
) -> None:
    page = client.get(reverse("games:finished_game", args=[taken_over.pk])).content.decode()
    bob_stats = stats.player_stats(bob, viewer=bob)
    client.force_login(bob)
    left = client.get(reverse("games:my_games") + "?result=left").content.decode()

    assert '<a href="/players/bob/">Bot (for bob)</a>' in page
    assert "bob left; a bot plays for them" in page
    if taken_over.winner == 1:
        assert "Bot (for bob) won." in page
        assert "bob won." not in page
    assert bob_stats["won"] == 0 and bob_stats["left"] == 1 and bob_stats["played"] == 1
    assert bob_stats["recent"][0]["left"] is True
    assert f'data-game="{taken_over.pk}"' in left


def test_the_profile_says_left_for_a_game_a_bot_finished(client: Client, taken_over) -> None:
    page = client.get(reverse("games:profile", args=["bob"])).content.decode()

    assert 'data-stat="left">1<' in page
    assert 'data-result="left"' in page
    assert '<a href="/players/carol/">carol</a>' in page


def test_bot_names_and_bot_table_names_are_drawn_in_the_viewers_language(
    client: Client, alice, bot_game
) -> None:
    client.force_login(alice)
    url = reverse("games:finished_game", args=[bot_game.pk])

    spanish = client.get(url, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    esperanto = client.get(url, HTTP_ACCEPT_LANGUAGE="eo").content.decode()

    assert "Bot codicioso 2" in spanish and "Greedy bot" not in spanish
    assert "<h1>alice vs bots</h1>" not in spanish
    assert "Avida roboto 2" in esperanto
    assert bot_game.players[1] == "Greedy bot 2"  # the record keeps the names as at the start


def test_the_watch_list_shows_public_games_being_played_only(
    client: Client, alice, make_table, bob
) -> None:
    public = make_table(players=[bob], start=True)
    private = make_table(players=[bob], start=True, public=False, name="Secret")
    waiting = make_table(name="Waiting")
    bots = tables.play_against_bots(alice)

    page = client.get(reverse("games:watch")).content.decode()

    shown = {int(pk) for pk in re.findall(r'data-table="(\d+)"', page)}
    assert shown == {public.pk}
    assert {private.pk, waiting.pk, bots.pk}.isdisjoint(shown)
    assert '<a href="/players/bob/">bob</a>' in page


def test_the_rules_show_every_kind_of_card_as_the_table_draws_it(client: Client) -> None:
    page = client.get(reverse("games:rules")).content.decode()

    for code, rule, _text in CARD_LEGEND:
        color = code.partition(":")[0] if ":" in code else "wild"
        assert f'class="card card--{color}"' in page
        assert f'<tr data-rule="{rule}">' in page
        assert f"({rule})" not in page  # a rule's number means nothing to a player
    assert page.count('role="img"') >= len(CARD_LEGEND) + 4  # the legend and the colours


def test_the_rules_show_each_bot_level_and_its_measured_strength(client: Client) -> None:
    page = client.get(reverse("games:rules")).content.decode()

    assert '<h2 id="bots">Bots</h2>' in page
    for name, label in BOT_LEVELS:
        assert f'<tr data-level="{name}"><th scope="row">{label}</th>' in page
    assert "Wins 56% of two-player games against the Easy bot (400 games)." in page
    assert "Wins 98% of two-player games against the Beginner bot (400 games)." in page
    four = "Wins 34% of four-player games against the Easy bot in the other three seats"
    assert f"{four} (1,600 games)." in page


def test_the_rules_have_words_for_every_level_the_engine_offers() -> None:
    assert set(LEVEL_PLAY) == {level.name for level in LEVELS}
    assert set(LEVEL_STRENGTH) < set(LEVEL_PLAY)


def test_the_rules_word_the_bots_strength_in_the_visitors_language(client: Client) -> None:
    page = client.get(reverse("games:rules"), HTTP_ACCEPT_LANGUAGE="es").content.decode()

    assert "Gana el 57% de las partidas a dos contra el Bot intermedio (400 partidas)." in page
    assert "Gana el 34% de las partidas a cuatro contra el Bot fácil en los otros tres" in page
    assert "(1\xa0600 partidas)" in page  # grouped as Spanish writes it
    assert "Measured strength" not in page


@pytest.mark.parametrize(
    ("language", "heading"),
    [("es", "Cómo se juega al TAKI"), ("id", "Cara bermain TAKI"), ("eo", "Kiel ludi TAKI")],
)
def test_the_rules_are_in_the_visitors_language(client: Client, language, heading) -> None:
    page = client.get(reverse("games:rules"), HTTP_ACCEPT_LANGUAGE=language).content.decode()

    assert f"<h1>{heading}</h1>" in page
    assert "What each card does" not in page


def test_the_home_page_and_the_nav_link_the_rules_watch_and_guests(client: Client) -> None:
    page = client.get(reverse("games:home")).content.decode()

    assert f'href="{reverse("games:rules")}"' in page
    assert f'href="{reverse("games:watch")}"' in page
    assert f'action="{reverse("games:guest")}"' in page


def test_a_replay_step_asked_by_htmx_is_the_replay_fragment_with_every_hand(
    client: Client, bot_game
) -> None:
    url = reverse("games:finished_game", args=[bot_game.pk])
    client.force_login(bot_game.table.host)

    fragment = client.get(url + "?move=0", HTTP_HX_REQUEST="true").content.decode()

    assert fragment.lstrip().startswith('<section id="replay"')
    assert "<html" not in fragment
    assert "After move 0 of" in fragment
    assert fragment.count('class="card ') >= 3 * 8 + 1  # three hands of eight and the pile
    assert 'data-step="next"' in fragment and 'data-step="last"' in fragment


def test_a_replay_step_applies_at_most_a_snapshots_worth_of_moves(bot_game, monkeypatch) -> None:
    # A bot game's length is chance: the snapshots are spaced so that any game is four of them long.
    monkeypatch.setattr(replays, "SNAPSHOT_EVERY", max(2, bot_game.version // 4))
    applied = []
    original = GameState.apply
    monkeypatch.setattr(
        GameState, "apply", lambda self, action: applied.append(1) or original(self, action)
    )
    replays.engine_at(bot_game, 0)  # builds the snapshots: the one pass over the game
    assert bot_game.version > replays.SNAPSHOT_EVERY * 2  # several snapshots to step between

    for step in (bot_game.version, bot_game.version - 1, replays.SNAPSHOT_EVERY * 2 + 1):
        applied.clear()
        engine = replays.engine_at(bot_game, step)
        assert len(applied) < replays.SNAPSHOT_EVERY
        assert engine.moves == step
    assert replays.engine_at(bot_game, bot_game.version).to_snapshot() == bot_game.state


def test_the_record_link_downloads_a_named_file(client: Client, alice, bot_game) -> None:
    client.force_login(alice)

    response = client.get(reverse("games:record_json", args=[bot_game.pk]))

    assert response["Content-Disposition"] == (
        f'attachment; filename="taki-game-{bot_game.pk}.json"'
    )


def test_a_missing_page_is_styled_and_translated(client: Client) -> None:
    response = client.get("/no-such-page/", HTTP_ACCEPT_LANGUAGE="es")

    assert response.status_code == 404
    page = response.content.decode()
    assert "<h1>Página no encontrada</h1>" in page
    assert 'class="site-header"' in page


def test_a_forbidden_page_is_styled(client: Client, make_table, bob, carol) -> None:
    table = make_table(players=[bob], public=False)
    client.force_login(carol)

    response = client.get(reverse("games:table", args=[table.pk]))

    assert response.status_code == 403
    assert "You may not see this page" in response.content.decode()


def test_the_500_page_needs_no_request_nor_database(django_assert_num_queries) -> None:
    from django.template import loader
    from django.utils import translation

    with translation.override("id"), django_assert_num_queries(0):
        page = loader.get_template("500.html").render()

    assert "<h1>Terjadi kesalahan</h1>" in page
    assert 'lang="id"' in page


def test_the_favicon_is_served(client: Client) -> None:
    response = client.get("/favicon.ico")

    assert response.status_code == 302  # its name follows its contents (STORAGES)
    icon = Path(settings.BASE_DIR) / "static" / "favicon.ico"
    assert icon.read_bytes()[:4] == b"\x00\x00\x01\x00"  # an ICO header
    assert response.url.endswith("favicon.ico")


def test_phones_keep_every_column_of_the_lists() -> None:
    stylesheets = sorted((Path(settings.BASE_DIR) / "static" / "css").glob("*.css"))
    css = "\n".join(stylesheet.read_text() for stylesheet in stylesheets)

    assert not re.search(r"\.table-list t[hd]:nth-child\(\d\)[^{]*\{\s*display:\s*none", css)


def test_the_language_menu_changes_at_once_with_a_script_of_the_site(client: Client) -> None:
    page = client.get(reverse("games:home")).content.decode()
    script = (Path(settings.BASE_DIR) / "static" / "js" / "language.js").read_text()

    assert '<script src="/static/js/language.js" defer></script>' in page
    assert 'class="language-form__button"' in page  # without JavaScript, the button
    assert "requestSubmit" in script and '"change"' in script


def test_a_private_bot_table_is_not_watchable_by_strangers(client: Client, alice, carol) -> None:
    table = tables.play_against_bots(alice)
    client.force_login(carol)

    assert client.get(reverse("games:table", args=[table.pk])).status_code == 403
    assert Table.objects.get(pk=table.pk).against_bots
