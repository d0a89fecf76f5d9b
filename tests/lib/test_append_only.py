"""Append-only tables (``lib.append_only``): the move log's rows, written once, never changed."""

from __future__ import annotations

import pytest

from games.models import Game, Move, MoveLogError
from lib.append_only import AppendOnlyError

pytestmark = pytest.mark.django_db


@pytest.fixture
def logged(game_table) -> Move:
    return Move.objects.create(
        game=Game.objects.get(table=game_table), seq=0, seat=0, action={}, digest="0" * 64
    )


def test_a_stored_row_is_never_saved_again(logged) -> None:
    logged.seat = 1

    with pytest.raises(MoveLogError, match="only ever added"):
        logged.save()

    assert Move.objects.get(pk=logged.pk).seat == 0


def test_a_stored_row_is_never_deleted(logged) -> None:
    with pytest.raises(AppendOnlyError):
        logged.delete()

    assert Move.objects.filter(pk=logged.pk).exists()
