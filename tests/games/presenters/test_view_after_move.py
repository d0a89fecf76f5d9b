"""A table is drawn from the change a move made (``taki-change/1``), not read back.

Each view built by ``presenters.view_after_move`` must be the very view ``read_table`` gives
after the same move, for every viewer, whether the change was handed over in the process that
stored the move or came from another process as JSON: or the sockets of one process would show
a table the others do not.
"""

from __future__ import annotations

import json
import random
from datetime import timedelta

from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from accounts import bots
from games import presenters
from games.engine import make_bot
from games.models import Game
from games.presenters import fragments as presenters_fragments
from games.services import moves
from games.services.changes import TableChange


def test_a_view_after_each_move_is_the_view_read_back(make_table, alice, bob, carol, states):
    table = make_table(seat_count=3, players=[bob], bot_seats=1, turn_seconds=None, start=True)
    viewers = [alice, bob, carol, AnonymousUser()]
    users = {seat.position: seat.user for seat in table.seats.select_related("user")}
    bot = make_bot("greedy", random.Random(3))
    previous = presenters.read_table(table.pk)
    handed = 0
    later = timezone.now()  # each server turn an hour after the last (a bot may play twice)
    for _ in range(400):
        game = Game.objects.get(table=table)
        if game.finished:
            break
        engine = game.engine()
        seat = engine.seats_to_act()[0]
        if users[seat] is None:  # the bot's seat: the clock's path
            later += timedelta(hours=1)
            moves.advance(game.pk, later)
        else:
            action = bot.choose(engine, seat).to_json()
            moves.submit_action(table.pk, users[seat], {**action, "version": game.version})
        # A bot may play several moves in one go (its TAKI run): each builds on the one before.
        for change in states[handed:]:
            sent = TableChange.from_json(json.loads(json.dumps(change.to_json())))
            built = presenters.view_after_move(change, previous)
            assert presenters.view_after_move(sent, previous) == built
            previous = built
        handed = len(states)
        read = presenters.read_table(table.pk)
        assert built == read
        for viewer in viewers:
            drawn = presenters.table_fragments(built, viewer)
            assert drawn == presenters.table_fragments(read, viewer)
    assert Game.objects.get(table=table).finished, "the game should have been played out"
    assert built.result is not None and built.engine is None


def play_one(table, bot, *people) -> None:
    """The person to act at ``table`` (one of ``people``) plays what ``bot`` would."""
    game = Game.objects.get(table=table)
    engine = game.engine()
    seat = engine.seats_to_act()[0]
    user_id = table.seats.get(position=seat).user_id
    user = next(person for person in people if person.pk == user_id)
    action = bot.choose(engine, seat).to_json()
    moves.submit_action(table.pk, user, {**action, "version": game.version})


def test_a_view_that_is_not_the_one_before_is_not_built_on(make_table, alice, bob, states):
    table = make_table(players=[bob], turn_seconds=None, start=True)
    before = presenters.read_table(table.pk)
    for _ in range(2):
        play_one(table, make_bot("greedy", random.Random(1)), alice, bob)
    # The second move's change does not follow the view from before the first: it must be read.
    assert presenters.view_after_move(states[1], before) is None
    assert presenters.view_after_move(states[1], None) is None


def test_a_view_read_after_the_move_was_stored_is_that_move_s_view(make_table, alice, bob, states):
    table = make_table(players=[bob], turn_seconds=None, start=True)
    play_one(table, make_bot("greedy", random.Random(1)), alice, bob)
    # Someone connected and read the table before this process's sockets handled the move.
    read = presenters.read_table(table.pk)

    assert presenters.view_after_move(states[0], read) is read


def test_a_view_as_of_now_counts_the_clock_again_and_who_is_online(make_table, alice, bob):
    table = make_table(players=[bob], turn_seconds=30, start=True)
    view = presenters.read_table(table.pk)
    mover = next(seat for seat in view.seats if seat.deadline is not None)
    later = replace_deadline(view, timezone.now() + timedelta(seconds=12))

    redrawn = presenters.as_of_now(later, online={alice.pk})

    assert redrawn.seconds_left in (11, 12)
    assert [seat.seconds_left for seat in redrawn.seats if seat.position == mover.position] == [
        redrawn.seconds_left
    ]
    assert [seat.connected for seat in redrawn.seats] == [
        seat.user_id == alice.pk for seat in view.seats
    ]
    assert (redrawn.version, redrawn.board, redrawn.recent_moves) == (
        view.version,
        view.board,
        view.recent_moves,
    )


def replace_deadline(view, deadline):
    from dataclasses import replace

    seats = tuple(
        replace(seat, deadline=deadline if seat.deadline is not None else None)
        for seat in view.seats
    )
    return replace(view, seats=seats, deadline=deadline)


def test_each_move_is_worded_once_along_the_views_built_one_from_another(
    make_table, alice, bob, states, monkeypatch
):
    table = make_table(players=[bob], turn_seconds=None, start=True)
    worded = []
    describe = presenters_fragments.describe_table_move

    def counted(move, names, announced):
        worded.append(move["seq"])
        return describe(move, names, announced)

    monkeypatch.setattr(presenters_fragments, "describe_table_move", counted)
    view = presenters.read_table(table.pk)
    bot = make_bot("greedy", random.Random(5))
    for _ in range(6):
        play_one(table, bot, alice, bob)
        view = presenters.view_after_move(states[-1], view)
        presenters.table_fragments(view, alice)

    assert worded == list(range(6))


def test_a_bot_account_s_seat_shows_the_bot_badge_before_and_after_a_move(
    make_table, alice, bob, states
):
    table = make_table(players=[bob], turn_seconds=None, start=True)
    bots.make_bot(bob)  # as the API seats a BOT account, which never sits through the browser
    read = presenters.read_table(table.pk)
    assert [seat.bot_account for seat in read.seats] == [False, True]
    assert presenters.table_fragments(read, alice).count("data-bot-account") == 1
    game = Game.objects.get(table=table)
    engine = game.engine()
    seat = engine.seats_to_act()[0]
    player = alice if seat == 0 else bob
    action = make_bot("greedy", random.Random(1)).choose(engine, seat).to_json()
    moves.submit_action(table.pk, player, {**action, "version": game.version})
    sent = TableChange.from_json(json.loads(json.dumps(states[-1].to_json())))
    built = presenters.view_after_move(sent, read)
    assert built == presenters.read_table(table.pk)
    assert [seat.bot_account for seat in built.seats] == [False, True]
    assert presenters.table_fragments(built, alice).count("data-bot-account") == 1
