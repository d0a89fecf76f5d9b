"""Arenas through their services: joining, withdrawing and pausing, the waves that seat the
pool, the points as games end, leavers and no-shows, the start and the end, and the races."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import Sanction
from arenas.models import Arena, ArenaPlayer, ArenaResult, ArenaTable
from arenas.services import events, players, results, waves
from games.models import Game, Seat, Table
from games.services import finish, presence, tables
from games.services.errors import ServiceError
from tests.play import WINNING_RUN, play_to_the_end

State = ArenaPlayer.State


def later(seconds: float = 10.0):
    return timezone.now() + timedelta(seconds=seconds)


def joined(arena, *people):
    return [players.join(arena.pk, person) for person in people]


def seat_all(arena, seconds: float = 10.0) -> list[Table]:
    """One wave, ``seconds`` from now (past the pool's few seconds)."""
    Arena.objects.filter(pk=arena.pk).update(last_wave_at=None)
    return waves.wave(arena, later(seconds))


def won_by_seat_zero(table: Table, rig) -> None:
    """Seat 0 empties their hand in eight moves (WINNING_RUN), the table's game ends."""
    rig(table, WINNING_RUN, leading="red:9")
    play_to_the_end(table)


# ------------------------------------------------------------------ joining


def test_joining_a_running_arena_puts_the_player_in_its_pool(make_arena, alice) -> None:
    arena = make_arena()
    [place] = joined(arena, alice)
    assert place.state == State.ACTIVE and place.waiting_since is not None
    assert place.rating == 1500


def test_joining_before_the_start_waits_for_it(make_arena, alice) -> None:
    arena = make_arena(starts_in=600)
    [place] = joined(arena, alice)
    assert place.waiting_since is None


def test_an_arena_ban_is_refused_at_joining_with_words(make_arena, alice, moderator) -> None:
    arena = make_arena()
    Sanction.objects.create(
        user=alice, kind=Sanction.Kind.ARENA_BAN, reason="spam", created_by=moderator
    )
    with pytest.raises(ServiceError) as refused:
        players.join(arena.pk, alice)
    assert refused.value.code == "forbidden"
    assert "banned you from arenas" in refused.value.message
    assert not ArenaPlayer.objects.exists()


def test_a_private_arena_needs_its_link(make_arena, alice, bob) -> None:
    arena = make_arena(private=True)
    with pytest.raises(ServiceError) as refused:
        players.join(arena.pk, bob)
    assert refused.value.code == "not_found"
    assert players.join(arena.pk, bob, invite=arena.invite_token).state == State.ACTIVE


def test_joining_at_the_last_second_of_an_arena_is_refused(make_arena, alice) -> None:
    arena = make_arena(starts_in=-60, minutes=1)
    with pytest.raises(ServiceError) as refused:
        players.join(arena.pk, alice, now=arena.ends_at)
    assert refused.value.code == "over"
    assert players.join(arena.pk, alice, now=arena.ends_at - timedelta(seconds=1))


def test_a_private_arena_is_for_people_with_enough_finished_games(alice) -> None:
    with pytest.raises(ServiceError) as refused:
        players.create_private(
            alice,
            name="Friends",
            starts_at=timezone.now(),
            minutes=30,
            seats=2,
            turn_seconds=30,
        )
    assert refused.value.code == "forbidden" and "10 games" in refused.value.message


def test_withdrawing_and_pausing_take_the_player_out_of_the_pool(make_arena, alice, bob) -> None:
    arena = make_arena()
    joined(arena, alice, bob)
    players.withdraw(arena.pk, alice)
    players.pause(arena.pk, bob)
    assert seat_all(arena) == []
    places = {p.user_id: p for p in ArenaPlayer.objects.all()}
    assert places[alice.pk].state == State.WITHDRAWN and places[alice.pk].waiting_since is None
    assert places[bob.pk].state == State.PAUSED
    players.resume(arena.pk, bob)
    players.join(arena.pk, alice)  # back, with the points they had
    assert len(seat_all(arena)) == 1


# ------------------------------------------------------------------ the waves


def test_a_wave_seats_the_pool_at_started_tables_and_sends_people_there(
    make_arena, people, told, django_capture_on_commit_callbacks
) -> None:
    arena = make_arena(seats=3)
    group = people(6)
    joined(arena, *group)
    with django_capture_on_commit_callbacks(execute=True):
        seated = seat_all(arena)
    assert len(seated) == 2
    for table in seated:
        table.refresh_from_db()
        assert table.status == Table.Status.PLAYING and table.seat_count == 3
        assert ArenaTable.objects.get(table=table).game == Game.objects.get(table=table)
    assert not ArenaPlayer.objects.filter(waiting_since__isnull=False).exists()
    sent = {m["table"] for m in told.messages() if m["type"] == "site.go"}
    assert sent == {table.pk for table in seated}


def test_a_player_waits_a_few_seconds_in_the_pool_first(make_arena, alice, bob) -> None:
    arena = make_arena()
    joined(arena, alice, bob)
    assert waves.wave(arena, timezone.now()) == []
    assert len(seat_all(arena, waves.POOL_SECONDS + 1)) == 1


def test_one_wave_at_a_time_per_arena(make_arena, people) -> None:
    arena = make_arena()
    joined(arena, *people(4))
    moment = later()
    assert waves.claim_wave(arena.pk, moment)
    assert not waves.claim_wave(arena.pk, moment)  # a second clock at the same moment
    assert waves.claim_wave(arena.pk, moment + timedelta(seconds=waves.WAVE_SECONDS))


def test_an_arena_ban_is_refused_at_pairing(make_arena, alice, bob, moderator) -> None:
    arena = make_arena()
    joined(arena, alice, bob)
    Sanction.objects.create(
        user=alice, kind=Sanction.Kind.ARENA_BAN, reason="spam", created_by=moderator
    )
    assert seat_all(arena) == []
    assert ArenaPlayer.objects.get(user=alice).state == State.PAUSED
    assert ArenaPlayer.objects.get(user=bob).waiting_since is not None


def test_withdrawing_while_being_paired_is_never_seated(make_arena, alice, bob, carol) -> None:
    arena = make_arena()
    joined(arena, alice, bob)
    now = later()
    [group] = waves.pairing.pair(waves.waiting_in(arena, now), 2)
    players.withdraw(arena.pk, alice)  # between the wave's read and its table
    assert waves.seat(arena, group, now) is None
    assert not Table.objects.exists()
    assert ArenaPlayer.objects.get(user=bob).waiting_since is not None


def test_a_player_whose_game_ends_as_the_wave_runs_is_seated_once(make_arena, people) -> None:
    arena = make_arena()
    a, b, c, d = people(4)
    joined(arena, a, b, c, d)
    now = later()
    waiting = waves.waiting_in(arena, now)
    groups = waves.pairing.pair(waiting, 2)
    # Two waves with the same read (two clocks, or the pool read before a game's end put a
    # player back): the second finds its players gone and seats nobody.
    assert waves.seat(arena, groups[0], now) is not None
    assert waves.seat(arena, groups[0], now) is None
    assert Seat.objects.filter(user__isnull=False).count() == 2


# ------------------------------------------------------------------ points as games end


def test_the_winner_scores_and_everyone_goes_back_to_the_pool(
    make_arena, alice, bob, rig, django_capture_on_commit_callbacks
) -> None:
    arena = make_arena()
    joined(arena, alice, bob)
    [table] = seat_all(arena)
    with django_capture_on_commit_callbacks(execute=True):
        won_by_seat_zero(table, rig)
    winner = Seat.objects.get(table=table, position=0).user_id
    places = {p.user_id: p for p in ArenaPlayer.objects.all()}
    assert places[winner].points == 1 and places[winner].games == 1
    loser = next(p for u, p in places.items() if u != winner)
    assert loser.points == 0 and loser.games == 1
    assert all(p.waiting_since is not None for p in places.values())
    assert places[winner].apart == [loser.pk]
    # Scored once: the signal heard again changes nothing.
    assert not results.game_ended(table.pk, finish.Ending.WON, 0)
    assert ArenaResult.objects.count() == 2


def test_leavers_score_zero_and_are_paused(
    make_arena, alice, bob, carol, rig, django_capture_on_commit_callbacks
) -> None:
    arena = make_arena(seats=3)
    joined(arena, alice, bob, carol)
    [table] = seat_all(arena)
    leaver = Seat.objects.get(table=table, position=2).user
    tables.leave_table(table.pk, leaver)
    assert results.pause_leavers() == 1  # at once, as the clock looks
    assert results.pause_leavers() == 0  # once
    place = ArenaPlayer.objects.get(user=leaver)
    assert place.points == 0 and place.state == State.PAUSED and place.waiting_since is None
    assert place.games == 1 and ArenaResult.objects.get(player=place).left
    players.resume(arena.pk, leaver)  # back while the game goes on without them
    with django_capture_on_commit_callbacks(execute=True):
        play_to_the_end(table)
    place.refresh_from_db()
    assert place.state == State.ACTIVE and place.waiting_since is not None
    assert ArenaResult.objects.filter(player=place).count() == 1 and place.games == 1
    assert ArenaResult.objects.count() == 3


def test_the_streak_doubles_the_third_win_in_a_row(
    make_arena, alice, bob, rig, django_capture_on_commit_callbacks
) -> None:
    arena = make_arena()
    joined(arena, alice, bob)
    for _round in range(3):
        [table] = seat_all(arena, 60)  # nobody else came: the same duel again
        # The same person wins each time: alice, wherever she sits.
        hands = WINNING_RUN if table.seats.get(position=0).user == alice else WINNING_RUN[::-1]
        rig(table, hands, leading="red:9")
        with django_capture_on_commit_callbacks(execute=True):
            play_to_the_end(table)
    place = ArenaPlayer.objects.get(user=alice)
    assert place.points == 1 + 1 + 2 and place.streak == 3
    assert list(ArenaResult.objects.filter(player=place).values_list("doubled", flat=True)) == [
        False,
        False,
        True,
    ]


def test_a_game_that_ends_after_the_arena_counts_for_nothing(
    make_arena, alice, bob, rig, django_capture_on_commit_callbacks
) -> None:
    arena = make_arena()
    joined(arena, alice, bob)
    [table] = seat_all(arena)
    events.finish_arena(arena.pk, timezone.now())
    with django_capture_on_commit_callbacks(execute=True):
        won_by_seat_zero(table, rig)
    assert not ArenaResult.objects.exists()
    assert not ArenaPlayer.objects.filter(waiting_since__isnull=False).exists()


# ------------------------------------------------------------------ no-shows


@pytest.mark.usefixtures("nobody_connected")
def test_a_no_show_scores_zero_and_is_paused_then_withdrawn_the_second_time(
    make_arena, alice, bob
) -> None:
    arena = make_arena()
    joined(arena, alice, bob)
    for time in (1, 2):
        [table] = seat_all(arena, 10 * time)
        presence.socket_opened(table.pk, alice)
        sweep = table.created_at + results.NO_SHOW_AFTER + timedelta(seconds=1)
        assert results.sweep_no_shows(sweep) == [table.pk]
        table.refresh_from_db()
        assert table.status == Table.Status.ABORTED and table.no_show == bob
        place = ArenaPlayer.objects.get(user=bob)
        assert place.points == 0 and place.no_shows == time
        assert place.state == (State.PAUSED if time == 1 else State.WITHDRAWN)
        came = ArenaPlayer.objects.get(user=alice)
        seated_at = ArenaTable.objects.get(table=table).created_at
        assert came.state == State.ACTIVE and came.waiting_since == seated_at
        assert ArenaResult.objects.filter(player=place, absent=True).count() == time
        if time == 1:
            players.resume(arena.pk, bob)


# ------------------------------------------------------------------ start and end


def test_at_the_start_joined_people_online_go_to_the_pool_the_others_are_paused(
    make_arena, alice, bob
) -> None:
    from games.services import online

    arena = make_arena(starts_in=60)
    joined(arena, alice, bob)
    online.page_opened(alice)
    events.start_due(arena.starts_at)
    arena.refresh_from_db()
    assert arena.status == Arena.Status.RUNNING
    assert ArenaPlayer.objects.get(user=alice).waiting_since is not None
    assert ArenaPlayer.objects.get(user=bob).state == State.PAUSED


def test_the_end_gives_the_final_places_and_the_podium(
    make_arena, people, rig, django_capture_on_commit_callbacks
) -> None:
    arena = make_arena()
    group = people(4)
    joined(arena, *group)
    for table in seat_all(arena):
        with django_capture_on_commit_callbacks(execute=True):
            won_by_seat_zero(table, rig)
    assert events.finish_due(arena.ends_at) == [arena]
    ranked = list(ArenaPlayer.objects.order_by("rank").values_list("rank", "points"))
    assert ranked == [(1, 1), (2, 1), (3, 0), (4, 0)]
    assert not events.finish_arena(arena.pk, arena.ends_at)  # once


def test_a_schedule_makes_its_next_arena_ahead_of_time(db) -> None:
    from arenas.models import ArenaSchedule

    start = timezone.now() + timedelta(minutes=30)
    schedule = ArenaSchedule.objects.create(
        name="Hourly blitz", every=ArenaSchedule.Every.HOUR, next_start=start, minutes=20
    )
    [made] = events.make_scheduled(timezone.now())
    assert made.starts_at == start and made.schedule == schedule and made.minutes == 20
    schedule.refresh_from_db()
    assert schedule.next_start == start + timedelta(hours=1)
    assert events.make_scheduled(timezone.now()) == []


def test_a_reminder_a_few_minutes_before_the_start_once(make_arena, alice) -> None:
    from social.models import Notification

    arena = make_arena(starts_in=240)
    joined(arena, alice)
    assert events.remind(timezone.now()) == 1
    assert events.remind(timezone.now()) == 0
    note = Notification.objects.get(recipient=alice)
    assert note.kind == Notification.Kind.ARENA_STARTING and note.data["url"] == arena.page_url()


def test_a_private_arena_by_someone_with_enough_finished_games_is_reached_by_its_link(
    alice, bob
) -> None:
    for number in range(players.GAMES_TO_CREATE):
        table = Table.objects.create(
            name=f"Old {number}", host=alice, seat_count=2, status=Table.Status.FINISHED
        )
        Seat.objects.create(table=table, position=0, user=alice)
        Seat.objects.create(table=table, position=1, user=bob)
    arena = players.create_private(
        alice,
        name="Friday friends",
        starts_at=timezone.now() + timedelta(hours=1),
        minutes=30,
        seats=3,
        turn_seconds=None,
    )
    assert arena.private and arena.created_by == alice and arena.seats == 3
    assert ArenaPlayer.objects.get(arena=arena).user == alice  # its creator joined it
    assert arena.page_url().endswith(f"?invite={arena.invite_token}")
    with pytest.raises(ServiceError) as refused:
        players.create_private(
            alice, name="Too long", starts_at=timezone.now(), minutes=5, seats=2, turn_seconds=30
        )
    assert refused.value.code == "bad_request"


def test_people_are_told_of_their_first_table_only(
    make_arena, alice, bob, rig, django_capture_on_commit_callbacks
) -> None:
    from social.models import Notification

    arena = make_arena()
    joined(arena, alice, bob)
    [table] = seat_all(arena)
    tables_told = Notification.objects.filter(kind=Notification.Kind.ARENA_TABLE)
    assert sorted(tables_told.values_list("recipient", flat=True)) == sorted([alice.pk, bob.pk])
    assert {note.data["url"] for note in tables_told} == {table.page_url()}
    with django_capture_on_commit_callbacks(execute=True):
        won_by_seat_zero(table, rig)
    seat_all(arena, 60)
    assert tables_told.count() == 2


def test_a_schedule_whose_start_has_passed_moves_to_the_next_one_to_come(db) -> None:
    from arenas.models import ArenaSchedule

    now = timezone.now()
    schedule = ArenaSchedule.objects.create(
        name="Daily", every=ArenaSchedule.Every.DAY, next_start=now - timedelta(days=3, hours=2)
    )
    [made] = events.make_scheduled(now)
    assert now < made.starts_at <= now + timedelta(days=1)
    schedule.refresh_from_db()
    assert schedule.next_start == made.starts_at + timedelta(days=1)


@pytest.mark.usefixtures("nobody_connected")
def test_a_no_show_s_table_is_scored_once_though_its_end_is_heard_after(
    make_arena, alice, bob, django_capture_on_commit_callbacks
) -> None:
    arena = make_arena()
    joined(arena, alice, bob)
    [table] = seat_all(arena)
    presence.socket_opened(table.pk, alice)
    with django_capture_on_commit_callbacks(execute=True):  # the abort's game_ended heard too
        results.sweep_no_shows(table.created_at + results.NO_SHOW_AFTER + timedelta(seconds=1))
    assert ArenaResult.objects.count() == 1
    assert not results.game_ended(table.pk, finish.Ending.ABORTED, None)
    assert ArenaPlayer.objects.get(user=alice).waiting_since is not None
