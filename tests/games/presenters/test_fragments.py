"""A table as each viewer is shown it: "last card" said with a play and logged for all (R20),
the R20 penalty in an alert for everyone, timeouts marked in the log (R23), spectators labelled
as watching and sent one drawing, bots named in each viewer's language."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone, translation

from accounts.guests import create_guest
from games import presenters
from games.models import Game, Table
from games.presenters import fragments as presenters_fragments
from games.services import moves, tables
from tests.games.presenters.helpers import RUN, pushed_to, seen_by
from tests.play import play_to_the_end

pytestmark = pytest.mark.django_db


def play(table: Table, user, **action) -> None:
    version = Game.objects.get(table=table).version
    moves.submit_action(table.pk, user, {**action, "version": version})


@pytest.fixture
def run_table(alice, bob, make_table, rig) -> Table:
    table = make_table(players=[bob], start=True)
    rig(table, RUN, leading="red:9")
    for code in ["red:taki", "red:1", "red:3", "red:4", "red:5", "red:6"]:
        play(table, alice, type="play", card=code)
    return table


def test_r20_the_prompt_shows_while_the_next_play_leaves_one_card(run_table, alice) -> None:
    controls = seen_by(run_table, alice)["controls"]
    assert controls["say_with_play"] and not controls["announce"]
    html = pushed_to(run_table, alice)
    # The "Last card!" control comes before every card of the hand.
    assert html.index('id="say-last-card"') < html.index('class="hand"')


def test_r20_last_card_said_on_a_play_is_logged_for_everyone(run_table, alice, bob) -> None:
    play(run_table, alice, type="play", card="red:7", last_card=True)

    for viewer in (bob, AnonymousUser()):
        text = seen_by(run_table, viewer)["recent"][0]["text"]
        assert text == "alice played red 7 — alice: last card!"
    # Said once: closing the run asks for it no more.
    assert not seen_by(run_table, alice)["controls"]["say_with_play"]


def test_r20_a_flag_on_a_play_that_leaves_more_cards_is_not_logged(
    alice, bob, make_table, rig
) -> None:
    table = make_table(players=[bob], start=True)
    rig(table, RUN, leading="red:9")
    # A forged flag seven cards early: the engine ignores it, and so does the log.
    play(table, alice, type="play", card="red:taki", last_card=True)

    assert seen_by(table, bob)["recent"][0]["text"] == (
        "alice played red TAKI — alice opens a red TAKI run"
    )


def test_r20_the_penalty_is_an_alert_for_everyone(run_table, alice, bob, carol) -> None:
    play(run_table, alice, type="play", card="red:7")
    play(run_table, alice, type="close_taki")

    assert seen_by(run_table, bob)["penalty"] == {"seat": 0, "name": "alice", "count": 4}
    assert seen_by(run_table, alice)["penalised_me"] is True
    assert seen_by(run_table, bob)["penalised_me"] is False
    mine = pushed_to(run_table, alice)
    assert "You did not say “last card”: you draw 4 cards!" in mine
    for viewer in (bob, carol):
        html = pushed_to(run_table, viewer)
        assert "alice did not say “last card” and draws 4 cards!" in html
        assert 'role="alert"' in html


def test_r23_a_timeout_is_marked_in_the_log(alice, bob, make_table, rig) -> None:
    table = make_table(players=[bob], start=True, turn_seconds=15)
    rig(table, RUN, leading="red:9")
    game = Game.objects.get(table=table)
    past = timezone.now() - timedelta(seconds=1)
    Game.objects.filter(pk=game.pk).update(next_due=past, turn_deadline=past)

    moves.advance(game.pk, timezone.now())

    text = seen_by(table, bob)["recent"][0]["text"]
    assert text.startswith("alice ran out of time; the server played for them: alice draws")


def test_a_spectator_is_labelled_as_watching(run_table, carol) -> None:
    for viewer in (carol, AnonymousUser()):
        context = seen_by(run_table, viewer)
        assert context["watching"] is True
        assert "You are watching this game." in pushed_to(run_table, viewer)


def test_it_is_your_turn_only_for_the_player_to_act(run_table, alice, bob) -> None:
    assert seen_by(run_table, alice)["your_turn"] is True
    assert seen_by(run_table, bob)["your_turn"] is False
    assert "data-your-turn" in pushed_to(run_table, alice)
    assert "data-your-turn" not in pushed_to(run_table, bob)


@pytest.mark.parametrize(
    ("language", "prompt", "penalty"),
    [
        ("es", "¡Última carta!", "¡alice no dijo «última carta» y roba 4 cartas!"),
        ("id", "Kartu terakhir!", "alice tidak mengatakan “kartu terakhir” dan mengambil 4 kartu!"),
        ("eo", "Lasta karto!", "alice ne diris “lasta karto” kaj tiras 4 kartojn!"),
    ],
)
def test_the_last_card_prompt_and_penalty_are_translated(
    run_table, alice, bob, language, prompt, penalty
) -> None:
    with translation.override(language):
        assert prompt in pushed_to(run_table, alice)
        play(run_table, alice, type="play", card="red:7")
        play(run_table, alice, type="close_taki")
        assert penalty in pushed_to(run_table, bob)


def test_everyone_watching_a_game_in_play_is_sent_one_drawing(
    table, alice, carol, monkeypatch
) -> None:
    view = presenters.read_table(table.pk)
    drawings = []
    live = presenters_fragments._live
    monkeypatch.setattr(
        presenters_fragments, "_live", lambda *args: drawings.append(args[0]) or live(*args)
    )

    first = presenters.table_fragments(view, carol)
    again = presenters.table_fragments(view, AnonymousUser())
    refused = presenters.table_fragments(view, carol, flash="Only players can do that.")
    player = presenters.table_fragments(view, alice)

    assert first == again and drawings.count("games/live/table_private.html") == 3
    assert "Only players can do that." in refused and "Only players can do that." not in first
    assert "data-card=" not in first and "data-card=" in player
    with translation.override("es"):
        assert presenters.table_fragments(view, carol) != first  # each language its own


def test_a_table_read_once_names_its_bots_in_each_viewers_language(alice, make_table) -> None:
    table = make_table(bot_seats=1, start=True)
    with translation.override("en"):
        view = presenters.read_table(table.pk)

    with translation.override("es"):
        spanish = presenters.table_fragments(view, alice)
    english = presenters.table_fragments(view, alice)

    assert "Greedy bot 2" in english and "Greedy bot 2" not in spanish
    with translation.override("es"):
        assert translation.gettext("Greedy bot") + " 2" in spanish


def test_a_player_whose_game_ended_is_drawn_the_way_to_keep_a_guests_games(alice) -> None:
    """Drawn for every player and shown to a guest only: a push asks no one whether they are a
    guest (the page marks a guest's table, see tests/games/views/test_guest.py)."""
    guest = create_guest()
    table = tables.play_against_bots(guest, opponents=1)
    playing = pushed_to(table, guest)
    play_to_the_end(table)

    assert "Keep your games" not in playing
    ended = pushed_to(table, guest)
    assert '<p class="result__keep">' in ended and "/accounts/claim/" in ended
    assert "Keep your games: choose a name" in ended
    assert "result__keep" not in pushed_to(table, AnonymousUser())


def test_r20_a_form_includes_the_last_card_box_only_when_the_box_is_drawn(run_table, alice) -> None:
    play(run_table, alice, type="play", card="red:7")  # one card left, the run still open

    controls = seen_by(run_table, alice)["controls"]
    html = pushed_to(run_table, alice)

    assert controls["announce"] and controls["close_taki"]
    assert 'id="say-last-card"' not in html
    assert "#say-last-card" not in html  # htmx would look for it in vain
