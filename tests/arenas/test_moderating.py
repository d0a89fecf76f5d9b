"""Moderators and arenas: a player removed (points kept or voided), an arena cancelled, each in
the moderation log; the arenas' admin screens and its schedules."""

from __future__ import annotations

import pytest
from django.urls import reverse

from arenas.models import Arena, ArenaPlayer, ArenaSchedule
from arenas.services import moderating, players, waves
from games.services.errors import ServiceError
from moderation.models import ModerationLog

pytestmark = pytest.mark.django_db


def test_a_removed_player_keeps_their_points_on_record_but_leaves_the_standings(
    make_arena, alice, moderator
) -> None:
    arena = make_arena()
    place = players.join(arena.pk, alice)
    ArenaPlayer.objects.filter(pk=place.pk).update(points=7)
    moderating.remove_player(moderator, place, "Sandbagging", void=False)
    place.refresh_from_db()
    assert place.state == ArenaPlayer.State.REMOVED and place.points == 7
    assert place.waiting_since is None
    entry = ModerationLog.objects.get()
    assert entry.action == ModerationLog.Action.ARENA_REMOVE and entry.target == alice
    assert "points kept" in entry.reason
    with pytest.raises(ServiceError) as refused:
        players.join(arena.pk, alice)
    assert refused.value.code == "forbidden"


def test_a_removed_player_s_points_voided(make_arena, alice, moderator) -> None:
    arena = make_arena()
    place = players.join(arena.pk, alice)
    ArenaPlayer.objects.filter(pk=place.pk).update(points=7, streak=3)
    moderating.remove_player(moderator, place, "Cheating", void=True)
    place.refresh_from_db()
    assert place.points == 0 and place.streak == 0
    assert "points voided" in ModerationLog.objects.get().reason


def test_only_moderators_with_a_reason(make_arena, alice, bob, moderator) -> None:
    arena = make_arena()
    place = players.join(arena.pk, alice)
    with pytest.raises(ServiceError):
        moderating.remove_player(bob, place, "No", void=False)
    with pytest.raises(ServiceError):
        moderating.cancel(moderator, arena, "  ")
    assert not ModerationLog.objects.exists()


def test_a_cancelled_arena_pairs_nobody_and_has_no_podium(
    make_arena, alice, bob, moderator
) -> None:
    arena = make_arena()
    players.join(arena.pk, alice)
    players.join(arena.pk, bob)
    assert moderating.cancel(moderator, arena, "Server trouble")
    arena.refresh_from_db()
    assert arena.status == Arena.Status.CANCELLED
    assert waves.wave(arena) == []
    assert not ArenaPlayer.objects.filter(rank__isnull=False).exists()
    assert ModerationLog.objects.get().action == ModerationLog.Action.ARENA_CANCEL
    assert not moderating.cancel(moderator, arena, "Again")


def test_moderators_create_a_site_arena_and_a_schedule_in_the_admin(client, moderator) -> None:
    client.force_login(moderator)
    made = client.post(
        reverse("admin:arenas_arena_add"),
        {
            "name": "Sunday party",
            "starts_at_0": "2030-01-06",
            "starts_at_1": "20:00:00",
            "minutes": "45",
            "seats": "4",
            "turn_seconds": "30",
            "rated": "on",
            "players-TOTAL_FORMS": "0",
            "players-INITIAL_FORMS": "0",
        },
    )
    assert made.status_code == 302, made.content.decode()[:2000]
    arena = Arena.objects.get()
    assert (arena.ends_at - arena.starts_at).total_seconds() == 45 * 60
    assert arena.created_by == moderator and not arena.private
    scheduled = client.post(
        reverse("admin:arenas_arenaschedule_add"),
        {
            "name": "Hourly duels",
            "every": "hourly",
            "next_start_0": "2030-01-06",
            "next_start_1": "21:00:00",
            "minutes": "20",
            "seats": "2",
            "turn_seconds": "15",
            "active": "on",
        },
    )
    assert scheduled.status_code == 302
    assert ArenaSchedule.objects.get().every == ArenaSchedule.Every.HOUR


def test_an_arena_ban_is_a_sanction_moderators_impose_and_lift(
    make_arena, alice, moderator
) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from accounts.models import Sanction
    from moderation import actions

    arena = make_arena()
    sanction = actions.impose_sanction(
        moderator, alice, Sanction.Kind.ARENA_BAN, "Arena no-shows", timezone.now() + timedelta(1)
    )
    assert ModerationLog.objects.get().action == ModerationLog.Action.SANCTION
    with pytest.raises(ServiceError) as refused:
        players.join(arena.pk, alice)
    assert "banned you from arenas until" in refused.value.message
    actions.lift_sanction(moderator, sanction, "Appeal granted")
    assert players.join(arena.pk, alice).state == ArenaPlayer.State.ACTIVE
