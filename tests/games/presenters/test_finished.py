"""A finished game's page and its replay: the players (a seat a bot took over says so), the moves
in words, and the table after any move."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts import bots
from games import presenters
from games.models import Game
from games.services import tables
from tests.play import play_to_the_end

pytestmark = pytest.mark.django_db


@pytest.fixture
def taken_over(make_table, bob, carol) -> Game:
    """A game of alice, bob and carol that a bot finished in bob's seat."""
    table = make_table(seat_count=3, players=[bob, carol], start=True, turn_seconds=None)
    tables.leave_table(table.pk, bob)
    return play_to_the_end(table)


def test_a_seat_a_bot_took_over_is_named_for_its_player(taken_over) -> None:
    context = presenters.finished_game_context(taken_over, None)

    bot = context["players"][1]
    assert (bot.name, bot.username) == ("Bot (for bob)", "bob")
    assert bot.is_bot and bot.took_over
    assert [player.name for player in context["players"]] == ["alice", "Bot (for bob)", "carol"]
    numbered = [line for line in context["moves"] if line["number"] is not None]
    assert context["move_count"] == taken_over.version == len(numbered)
    assert context["step"] == context["last_step"] == taken_over.version
    assert context["winner"] == context["players"][taken_over.winner]


def test_a_replay_step_is_kept_between_the_deal_and_the_last_move(taken_over) -> None:
    before = presenters.replay_context(taken_over, -5)
    after = presenters.replay_context(taken_over, taken_over.version + 5)
    first = presenters.replay_context(taken_over, 1)

    assert (before["step"], before["previous_step"], before["step_move"]) == (0, None, None)
    assert (after["step"], after["next_step"]) == (taken_over.version, None)
    assert (first["previous_step"], first["next_step"]) == (0, 2) and first["step_move"]
    # The deal: eight cards in every hand (R4).
    assert [len(seat["hand"]) for seat in before["replay_seats"]] == [8, 8, 8]


def test_after_the_last_move_the_replay_says_who_won_and_nobody_is_to_play(taken_over) -> None:
    last = presenters.replay_context(taken_over, taken_over.version)
    before_last = presenters.replay_context(taken_over, taken_over.version - 1)

    winner = last["replay_seats"][taken_over.winner]["player"].name
    assert last["replay_over"] and last["replay_winner"] == winner
    assert not any(seat["is_turn"] for seat in last["replay_seats"])
    assert not before_last["replay_over"] and before_last["replay_winner"] is None
    assert sum(seat["is_turn"] for seat in before_last["replay_seats"]) == 1


def test_a_bot_account_is_badged_on_its_finished_game_s_page_and_in_the_lists(
    make_table, alice, bob
) -> None:
    table = make_table(players=[bob], start=True, turn_seconds=None)
    bots.make_bot(bob)  # as the API seats a BOT account, which never sits through the browser
    game = play_to_the_end(table)
    badged = '>bob</a> <span class="badge badge--bot" data-bot-account>BOT</span>'
    client = Client()
    client.force_login(alice)
    for page in (f"/games/{game.pk}/", "/games/", "/games/mine/"):
        html = client.get(page).content.decode()
        assert badged in html, page
        assert '>alice</a> <span class="badge badge--bot"' not in html, page
