"""services: opening, joining, leaving and starting tables."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import Sanction
from games.engine import GameState
from games.engine.bots import BOTS, LEVELS
from games.engine.cards import is_full_deck
from games.models import BOT_LEVELS, Game, Seat, Table
from games.services import history, starting, tables
from games.services.errors import ServiceError
from social import relations
from tests.play import unkeyed

pytestmark = pytest.mark.django_db

HANDS = [
    ["red:1", "red:3", "red:4", "blue:1", "blue:3", "blue:4", "green:1", "green:3"],
    ["red:6", "red:7", "red:8", "blue:6", "blue:7", "blue:8", "green:6", "green:7"],
    ["yellow:1", "yellow:3", "yellow:4", "yellow:6", "yellow:7", "yellow:8", "green:8", "red:9"],
]


def seats_of(table: Table) -> list[tuple[int, str, str]]:
    return [
        (seat.position, seat.user.username if seat.user else "", seat.bot)
        for seat in table.seats.order_by("position")
    ]


def test_it_opens_a_table_with_the_host_on_seat_zero_and_bots_on_the_last_seats(alice) -> None:
    table = tables.create_table(
        alice, name=" Friday game ", seat_count=4, bot_seats=2, bot_kind="random"
    )

    assert table.name == "Friday game"
    assert table.status == Table.Status.OPEN
    assert table.turn_seconds == 30
    assert seats_of(table) == [(0, "alice", ""), (1, "", ""), (2, "", "random"), (3, "", "random")]


@pytest.mark.parametrize(
    "options",
    [
        {"name": "", "seat_count": 4},
        {"name": "Solo", "seat_count": 1},
        {"name": "Crowd", "seat_count": 11},
        {"name": "Bots only", "seat_count": 3, "bot_seats": 3},
        {"name": "Robots", "seat_count": 3, "bot_seats": 1, "bot_kind": "clever"},
        {"name": "Hurry", "seat_count": 3, "turn_seconds": 0},
    ],
)
def test_it_refuses_a_table_that_cannot_be_played(alice, options) -> None:
    with pytest.raises(ServiceError) as caught:
        tables.create_table(alice, **options)

    assert caught.value.code == "bad_request"
    assert not Table.objects.exists()


def test_a_player_takes_the_first_empty_seat(alice, bob, make_table) -> None:
    table = make_table(seat_count=3)

    seat = tables.join_table(table.pk, bob)

    assert seat.position == 1
    assert seats_of(table) == [(0, "alice", ""), (1, "bob", ""), (2, "", "")]


def test_it_refuses_to_seat_a_player_twice(bob, make_table) -> None:
    table = make_table(seat_count=3, players=[bob])

    with pytest.raises(ServiceError) as caught:
        tables.join_table(table.pk, bob)

    assert caught.value.code == "forbidden"
    assert table.seats.filter(user=bob).count() == 1


def test_it_refuses_a_full_table(bob, carol, make_table) -> None:
    table = make_table(seat_count=3, bot_seats=1, players=[bob])

    with pytest.raises(ServiceError) as caught:
        tables.join_table(table.pk, carol)

    assert caught.value.code == "table_full"
    assert not table.seats.filter(user=carol).exists()


def test_someone_the_host_blocked_cannot_join_and_is_not_told_why(alice, bob, carol, make_table):
    table = make_table(seat_count=3)
    relations.block(alice, bob)

    with pytest.raises(ServiceError) as caught:
        tables.join_table(table.pk, bob)

    assert caught.value.message == "This table is not taking you."
    assert "block" not in caught.value.message.lower()
    assert not table.seats.filter(user=bob).exists()
    assert tables.join_table(table.pk, carol).position == 1


def test_the_blocker_may_still_join_the_table_of_someone_they_blocked(alice, bob, make_table):
    table = make_table(seat_count=3)
    relations.block(bob, alice)

    assert tables.join_table(table.pk, bob).position == 1


def test_it_refuses_an_unknown_table(bob) -> None:
    with pytest.raises(ServiceError) as caught:
        tables.join_table(999, bob)

    assert caught.value.code == "not_found"


def test_a_private_table_is_joined_by_its_link_only(bob, carol, make_table) -> None:
    table = make_table(seat_count=3, public=False)

    with pytest.raises(ServiceError) as caught:
        tables.join_table(table.pk, bob)
    assert caught.value.code == "forbidden"
    for forged in ("not-the-token", "ünïcödé"):  # compare_digest refuses non-ASCII str
        with pytest.raises(ServiceError) as caught:
            tables.join_table(table.pk, bob, invite=forged)
        assert caught.value.code == "forbidden"

    seat = tables.join_table(table.pk, carol, invite=table.invite_token)
    assert seat.user == carol
    assert not table.seats.filter(user=bob).exists()


def test_it_refuses_to_seat_anyone_once_the_game_started(bob, carol, make_table) -> None:
    table = make_table(seat_count=3, players=[bob], start=True)

    with pytest.raises(ServiceError) as caught:
        tables.join_table(table.pk, carol)

    assert caught.value.code == "forbidden"


def test_only_the_host_starts_the_game(bob, make_table) -> None:
    table = make_table(players=[bob])

    with pytest.raises(ServiceError) as caught:
        tables.start_game(table.pk, bob)

    assert caught.value.code == "forbidden"
    assert not Game.objects.exists()


def test_it_refuses_to_start_with_one_filled_seat(alice, make_table) -> None:
    table = make_table(seat_count=4)

    with pytest.raises(ServiceError) as caught:
        tables.start_game(table.pk, alice)

    assert caught.value.code == "forbidden"
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN


def test_it_refuses_to_start_a_game_twice(alice, bob, make_table) -> None:
    table = make_table(players=[bob], start=True)

    with pytest.raises(ServiceError) as caught:
        tables.start_game(table.pk, alice)

    assert caught.value.code == "forbidden"
    assert Game.objects.count() == 1


def test_starting_deals_a_full_deck_from_a_recorded_header(alice, bob, make_table) -> None:
    table = make_table(players=[bob])

    game = tables.start_game(table.pk, alice)

    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert game.players == ["alice", "bob"]
    assert is_full_deck(game.deck)
    assert len(game.seed) == 16 and int(game.seed, 16) >= 0
    assert game.first_player in (0, 1)
    assert game.version == 0
    # The snapshot is the header's deal (R4, R5): the record replays from it.
    header = GameState(game.deck, 2, game.first_player, game.seed, False)
    assert game.state == header.to_snapshot()
    assert history.verify_game(game)


def test_starting_drops_the_empty_seats_and_renumbers_the_rest(alice, bob, make_table) -> None:
    table = make_table(seat_count=6, bot_seats=1)
    tables.join_table(table.pk, bob)  # seat 1; seats 2, 3, 4 stay empty, 5 is a bot

    game = tables.start_game(table.pk, alice)

    table.refresh_from_db()
    assert table.seat_count == 3
    assert seats_of(table) == [(0, "alice", ""), (1, "bob", ""), (2, "", "greedy")]
    assert game.players == ["alice", "bob", "Greedy bot 3"]
    assert game.engine().players == 3


def test_a_deadline_is_set_for_a_person_and_a_short_pause_for_a_bot(alice, make_table) -> None:
    table = make_table(bot_seats=1, turn_seconds=15, start=True)
    game = table.game

    if game.first_player == 0:
        assert (game.turn_deadline - game.started_at).total_seconds() == pytest.approx(15, abs=1)
        assert game.next_due == game.turn_deadline
    else:
        assert game.turn_deadline is None
        assert (game.next_due - game.started_at).total_seconds() == pytest.approx(0.8, abs=0.5)


def test_leaving_before_the_start_frees_the_seat(bob, make_table) -> None:
    table = make_table(seat_count=3, players=[bob])

    tables.leave_table(table.pk, bob)

    assert seats_of(table) == [(0, "alice", ""), (1, "", ""), (2, "", "")]


def test_the_host_leaving_passes_the_table_to_the_next_person(alice, bob, make_table) -> None:
    table = make_table(seat_count=3, players=[bob])

    tables.leave_table(table.pk, alice)

    table.refresh_from_db()
    assert table.host == bob
    assert table.status == Table.Status.OPEN


def test_the_host_leaving_alone_closes_the_table(alice, make_table) -> None:
    table = make_table(seat_count=3, bot_seats=1)

    tables.leave_table(table.pk, alice)

    table.refresh_from_db()
    assert table.status == Table.Status.ABORTED
    assert table not in tables.lobby_tables()


def test_leaving_a_table_one_does_not_sit_at_is_refused(bob, make_table) -> None:
    table = make_table(seat_count=3)

    with pytest.raises(ServiceError) as caught:
        tables.leave_table(table.pk, bob)

    assert caught.value.code == "not_seated"


def test_leaving_a_running_game_gives_the_seat_to_a_bot(bob, carol, make_table, rig) -> None:
    table = make_table(seat_count=3, players=[bob, carol], start=True)
    rig(table, HANDS, first_player=1)

    tables.leave_table(table.pk, bob)

    seat = table.seats.get(position=1)
    assert (seat.user, seat.bot, seat.replaced_user) == (None, "greedy", bob)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    # It was bob's turn: the bot plays it after a short pause, with no deadline.
    game = Game.objects.get(table=table)
    assert game.turn_deadline is None
    assert (game.next_due - timezone.now()).total_seconds() == pytest.approx(0.8, abs=0.5)


def test_the_last_person_leaving_a_running_game_ends_it_as_abandoned(alice, make_table) -> None:
    table = make_table(bot_seats=1, start=True)

    tables.leave_table(table.pk, alice)

    table.refresh_from_db()
    assert table.status == Table.Status.ABANDONED
    assert Game.objects.get(table=table).next_due is None


def test_the_host_removes_a_seat_and_puts_a_bot_on_another(alice, bob, make_table) -> None:
    table = make_table(seat_count=3, players=[bob])

    tables.remove_seat(table.pk, alice, 1)
    tables.add_bot(table.pk, alice, 2, kind="random")

    assert seats_of(table) == [(0, "alice", ""), (1, "", ""), (2, "", "random")]


def test_only_the_host_changes_the_seats(bob, make_table) -> None:
    table = make_table(seat_count=3, players=[bob])

    with pytest.raises(ServiceError) as removing:
        tables.remove_seat(table.pk, bob, 0)
    with pytest.raises(ServiceError) as adding:
        tables.add_bot(table.pk, bob, 2)

    assert (removing.value.code, adding.value.code) == ("forbidden", "forbidden")
    assert seats_of(table) == [(0, "alice", ""), (1, "bob", ""), (2, "", "")]


def test_a_bot_goes_on_an_empty_seat_only(alice, bob, make_table) -> None:
    table = make_table(seat_count=3, players=[bob])

    with pytest.raises(ServiceError) as caught:
        tables.add_bot(table.pk, alice, 1)

    assert caught.value.code == "table_full"
    assert Seat.objects.get(table=table, position=1).user == bob


def test_playing_against_bots_starts_a_private_game_at_once(alice) -> None:
    table = tables.play_against_bots(alice)

    table.refresh_from_db()
    assert table.name == "alice vs bots"
    assert (table.public, table.turn_seconds, table.status) == (False, None, "playing")
    assert seats_of(table) == [(0, "alice", "")] + [(p, "", "greedy") for p in (1, 2, 3)]
    assert table.game.players == ["alice", "Greedy bot 2", "Greedy bot 3", "Greedy bot 4"]


def test_the_lobby_lists_the_open_public_tables_with_their_seats_taken(
    alice, bob, make_table
) -> None:
    waiting = make_table(name="Waiting", seat_count=4, bot_seats=1, players=[bob])
    make_table(name="Secret", public=False)
    make_table(name="Running", bot_seats=1, start=True)

    listed = tables.lobby_tables()

    assert listed == [waiting]
    assert listed[0].seats_taken == 3


def test_changes_reach_the_lobby_only_after_commit(
    alice, bob, told, django_capture_on_commit_callbacks
) -> None:

    with django_capture_on_commit_callbacks() as callbacks:
        table = tables.create_table(alice, name="Later", seat_count=2)
        tables.join_table(table.pk, bob)
        assert told.sent == []

    for callback in callbacks:
        callback()
    assert ("lobby", {"type": "lobby.update"}) in sent(told)
    assert (
        f"table-{table.pk}",
        {"type": "table.update", "table": table.pk, "version": None},
    ) in sent(told)


# ------------------------------------------------------------------ a play ban closes every door


def ban_from_play(user) -> None:
    Sanction.objects.create(user=user, kind="play_ban", reason="leaver")


def test_a_play_banned_host_cannot_start_the_table_they_opened_before(
    alice, bob, make_table
) -> None:
    table = make_table(players=[bob])
    ban_from_play(alice)

    with pytest.raises(ServiceError, match="banned you from playing") as caught:
        tables.start_game(table.pk, alice)

    assert caught.value.code == "forbidden"
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN
    assert not Game.objects.filter(table=table).exists()


def test_a_play_banned_player_cannot_play_against_bots(alice) -> None:
    ban_from_play(alice)

    with pytest.raises(ServiceError, match="banned you from playing"):
        tables.play_against_bots(alice)

    assert not Table.objects.exists()


def test_the_start_page_says_why_a_play_banned_host_is_refused(
    client, alice, bob, make_table
) -> None:
    table = make_table(players=[bob])
    ban_from_play(alice)
    client.force_login(alice)

    response = client.post(reverse("games:start", args=[table.pk]), follow=True)

    assert "A moderator has banned you from playing." in response.content.decode()
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN


# -------------------------------------------------------- games against bots, a few at once


def test_a_person_plays_a_few_games_against_bots_at_once_and_no_more(alice, settings) -> None:
    settings.BOT_GAMES_PER_PERSON = 3
    playing = [tables.play_against_bots(alice) for _ in range(3)]

    with pytest.raises(ServiceError, match="already play 3 games against bots") as caught:
        tables.play_against_bots(alice)

    assert caught.value.code == "too_many_games"
    assert Table.objects.count() == 3
    assert list(starting.unfinished_bot_games(alice)) == playing[::-1]


def test_a_finished_game_against_bots_frees_its_place(alice, settings) -> None:
    settings.BOT_GAMES_PER_PERSON = 1
    first = tables.play_against_bots(alice)
    tables.leave_table(first.pk, alice)  # the last person leaves: the game ends

    second = tables.play_against_bots(alice)

    assert second.status == Table.Status.PLAYING


def test_games_with_other_people_do_not_count_against_the_bot_games(
    alice, bob, make_table, settings
) -> None:
    settings.BOT_GAMES_PER_PERSON = 1
    make_table(players=[bob], start=True)

    assert tables.play_against_bots(alice).status == Table.Status.PLAYING


def test_a_host_alone_with_bots_cannot_start_one_game_too_many(alice, settings) -> None:
    settings.BOT_GAMES_PER_PERSON = 1
    tables.play_against_bots(alice)
    table = tables.create_table(alice, name="Practice", seat_count=3, bot_seats=2)

    with pytest.raises(ServiceError) as caught:
        tables.start_game(table.pk, alice)

    assert caught.value.code == "too_many_games"
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN


def test_the_site_offers_the_engines_levels_in_their_order_and_plays_every_seat_bot() -> None:
    assert [name for name, _label in BOT_LEVELS] == [level.name for level in LEVELS]
    assert set(BOTS) >= tables.SEAT_BOTS
    assert {"greedy", "random"} <= tables.SEAT_BOTS  # the names stored seats already hold


def test_the_people_at_a_table_are_who_sit_or_sat_there_but_the_one_asking(
    alice, bob, carol, make_table
) -> None:
    table = make_table(players=[bob, carol], seat_count=3, start=True)
    tables.leave_table(table.pk, carol)  # a bot takes her seat
    make_table(host=carol, players=[bob])  # another table: nobody from it counts here

    assert tables.people_at(table, alice) == [bob, carol]
    assert tables.people_at(table, carol) == [alice, bob]


def sent(told) -> list[tuple[str, dict]]:
    """What the services sent, each message without its random key."""
    return [(group, unkeyed(message)) for group, message in told.sent]
