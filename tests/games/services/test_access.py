"""Who may see a table, the way back to it, and the word sent when a moderator sees one only
their role lets them see (``access.note_watch``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from games.services import access

pytestmark = pytest.mark.django_db


@pytest.fixture
def told() -> Iterator[list[tuple]]:
    """What ``moderator_watched`` says, as (user, table, way)."""
    heard = []

    def hear(sender, user, table, way, **kwargs) -> None:
        heard.append((user, table, way))

    access.moderator_watched.connect(hear)
    yield heard
    access.moderator_watched.disconnect(hear)


@pytest.fixture
def private(make_table, bob):
    return make_table(players=[bob], start=True, turn_seconds=None, public=False)


def test_a_moderator_seeing_a_private_table_of_others_is_told_with_the_way(
    told, private, moderator
) -> None:
    access.note_watch(moderator, private, None, access.ON_THE_SOCKET)

    assert told == [(moderator, private, access.ON_THE_SOCKET)]


def test_a_moderator_who_holds_the_invite_or_sits_at_the_table_is_not_told_of(
    told, private, moderator, make_table
) -> None:
    own = make_table(host=moderator, start=False, public=False)

    access.note_watch(moderator, private, private.invite_token, access.ON_THE_PAGE)
    access.note_watch(moderator, own, None, access.ON_THE_PAGE)

    assert told == []


def test_nobody_is_told_of_a_public_table_nor_of_a_player(
    told, private, make_table, moderator, bob
) -> None:
    public = make_table(players=[bob], start=True)

    access.note_watch(moderator, public, None, access.ON_THE_PAGE)
    access.note_watch(bob, private, None, access.ON_THE_PAGE)
    access.note_watch(None, private, None, access.ON_THE_PAGE)

    assert told == []


def test_the_way_back_to_a_private_table_keeps_its_invite_when_it_is_the_tables(
    private, make_table
) -> None:
    public = make_table()
    page = f"/tables/{private.pk}/"

    assert access.page_for(private, private.invite_token) == f"{page}?invite={private.invite_token}"
    assert access.page_for(private, "someone-elses") == page
    assert access.page_for(private) == page
    assert access.page_for(public, public.invite_token) == f"/tables/{public.pk}/"
