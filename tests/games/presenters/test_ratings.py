"""Ratings where people look: beside each name at a rated table, and the changes on the end
screen, alike in a page and in the push after the last move."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import presenters
from games.models import Game
from games.presenters.ratings import chart, player_ratings, signed
from games.services import moves
from tests.play import WINNING_RUN

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("nobody_connected")]


def test_a_change_is_signed_with_a_true_minus() -> None:
    assert (signed(14), signed(-9), signed(0)) == ("+14", "\u22129", "\u00b10")


def test_the_seats_of_a_rated_table_show_each_rating_provisional_at_first(make_table, bob) -> None:
    table = make_table(players=[bob], start=True, turn_seconds=None)

    view = presenters.read_table(table.pk)

    assert [seat.rating.label for seat in view.seats] == ["1500?", "1500?"]
    html = presenters.table_fragments(view, bob)
    assert '<span class="seat__rating" title="rating">1500?</span>' in html


def test_a_casual_table_shows_no_rating(make_table, bob) -> None:
    table = make_table(players=[bob], start=True, turn_seconds=None, rated=False)
    view = presenters.read_table(table.pk)
    assert [seat.rating for seat in view.seats] == [None, None]
    assert "seat__rating" not in presenters.table_fragments(view, bob)


def test_the_end_screen_shows_each_change_in_the_push_as_in_the_page(
    make_table, alice, bob, rig
) -> None:
    table = make_table(players=[bob], start=True, turn_seconds=None)
    rig(table, WINNING_RUN, leading="red:9")
    for card in WINNING_RUN[0][:7]:
        version = Game.objects.get(table=table).version
        moves.submit_action(table.pk, alice, {"type": "play", "card": card, "version": version})
    before = presenters.read_table(table.pk)
    game = Game.objects.get(table=table)
    moves.submit_action(table.pk, alice, {"type": "play", "card": "red:8", "version": game.version})
    game.refresh_from_db()
    won, lost = (game.rating_changes.get(user=user) for user in (alice, bob))

    page = presenters.read_table(table.pk)
    assert [seat.rating.change for seat in page.seats] == [won.delta, lost.delta]
    html = presenters.table_fragments(page, bob)
    assert f"alice: +{won.delta}, now {won.shown_after}?" in html
    assert f"bob: \u2212{-lost.delta}, now {lost.shown_after}?" in html
    assert before.seats[0].rating.change is None


def test_the_chart_is_an_svg_without_inline_style() -> None:
    svg = chart([1500, 1540, 1520], "Duel")
    assert svg.startswith("<svg") and "polyline" in svg
    assert "style=" not in svg
    assert chart([], "Duel") == ""


def test_the_profile_chart_of_one_game_is_a_line_from_the_rating_before_it(
    make_table, alice, bob, rig
) -> None:
    table = make_table(players=[bob], start=True, turn_seconds=None)
    rig(table, WINNING_RUN, leading="red:9")
    for card in WINNING_RUN[0]:
        version = Game.objects.get(table=table).version
        moves.submit_action(
            table.pk, alice, {"type": "play", "card": card, "version": version, "last_card": True}
        )
    change = Game.objects.get(table=table).rating_changes.get(user=alice)

    (duel,) = player_ratings(alice)

    points = re.search(r'<polyline points="([^"]+)"', duel.chart).group(1).split()
    assert len(points) == 2  # 1500, then the rating after the game
    assert duel.chart.count("<circle") == 1  # a dot for the game
    assert f">{change.shown_after + 10}</text>" in duel.chart  # the top of the scale
    assert ">1490</text>" in duel.chart  # its bottom, under the newcomer's 1500


def test_the_push_after_the_last_move_of_a_rated_game_shows_the_changes_without_a_query(
    make_table, alice, bob, rig, states
) -> None:
    """The socket's hub builds the view after a move without the database, in its event loop:
    the move that ends a rated game hands it the rating changes it wrote."""
    table = make_table(players=[bob], start=True, turn_seconds=None)
    rig(table, WINNING_RUN, leading="red:9")
    for card in WINNING_RUN[0][:6]:
        version = Game.objects.get(table=table).version
        moves.submit_action(table.pk, alice, {"type": "play", "card": card, "version": version})
    previous = presenters.read_table(table.pk)
    for card in WINNING_RUN[0][6:]:
        version = Game.objects.get(table=table).version
        moves.submit_action(table.pk, alice, {"type": "play", "card": card, "version": version})
        previous_view = presenters.view_after_move(states[-1], previous)
        if states[-1].winner is None:
            assert previous_view is not None  # a move before the last one reads nothing
            assert previous_view.seats[0].rating.label == "1500?"
            previous = previous_view
    assert states[-1].winner is not None
    with CaptureQueriesContext(connection) as queries:
        pushed = presenters.view_after_move(states[-1], previous)
    assert len(queries) == 0
    game = Game.objects.get(table=table)
    assert [seat.rating.change for seat in pushed.seats] == [
        game.rating_changes.get(user=user).delta for user in (alice, bob)
    ]
