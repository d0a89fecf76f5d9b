"""Other apps hear a game start and end through games.services.lifecycle, once its transaction
has committed, whichever way it started or ended."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.db import transaction

from games.models import Game, Table
from games.services import finish, lifecycle, moves
from moderation import actions
from tests.play import WINNING_RUN

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("nobody_connected"),
]


@pytest.fixture
def heard() -> Iterator[list[tuple[str, dict]]]:
    calls: list[tuple[str, dict]] = []

    def on_started(sender, signal, **kwargs) -> None:
        calls.append(("started", kwargs))

    def on_ended(sender, signal, **kwargs) -> None:
        calls.append(("ended", kwargs))

    lifecycle.game_started.connect(on_started, weak=False)
    lifecycle.game_ended.connect(on_ended, weak=False)
    yield calls
    lifecycle.game_started.disconnect(on_started)
    lifecycle.game_ended.disconnect(on_ended)


def test_a_game_started_and_won_is_heard_with_its_people_and_winner(
    heard, alice, bob, make_table, rig
) -> None:
    table = make_table(players=[bob], start=True, turn_seconds=None)
    game = Game.objects.get(table=table)
    assert heard == [
        ("started", {"table_id": table.pk, "game_id": game.pk, "user_ids": (alice.pk, bob.pk)})
    ]
    rig(table, WINNING_RUN, leading="red:9")
    for card in WINNING_RUN[0]:
        version = Game.objects.get(table=table).version
        moves.submit_action(
            table.pk, alice, {"type": "play", "card": card, "version": version, "last_card": True}
        )
    assert heard[1] == (
        "ended",
        {
            "table_id": table.pk,
            "game_id": game.pk,
            "ending": finish.Ending.WON.value,
            "winner": 0,
            "user_ids": (alice.pk, bob.pk),
        },
    )


def test_nothing_is_heard_of_a_transaction_that_rolled_back(heard, alice, bob, make_table):
    table = make_table(players=[bob], start=True, turn_seconds=None)
    del heard[:]

    with pytest.raises(RuntimeError), transaction.atomic():
        locked = Table.objects.select_for_update().get(pk=table.pk)
        finish.finish(locked, finish.Ending.ABORTED, now=Game.objects.get(table=table).started_at)
        raise RuntimeError

    assert heard == []
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING


def test_a_game_a_moderator_aborts_is_heard_as_aborted(
    heard, alice, bob, make_table, moderator
) -> None:
    table = make_table(players=[bob], start=True, turn_seconds=None)
    del heard[:]

    assert actions.abort(moderator, table, reason="a test of the signal")

    assert [(kind, kwargs["ending"], kwargs["winner"]) for kind, kwargs in heard] == [
        ("ended", finish.Ending.ABORTED.value, None)
    ]
