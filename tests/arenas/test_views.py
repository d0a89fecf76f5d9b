"""The arenas' pages: the list, an arena's page and its buttons, a private arena's form, the
games' export."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from arenas.models import ArenaPlayer, ArenaTable
from arenas.services import events, players, waves
from tests.play import WINNING_RUN, play_to_the_end

pytestmark = pytest.mark.django_db


def test_the_list_shows_site_arenas_not_private_ones(client, make_arena) -> None:
    make_arena(name="Open blitz")
    make_arena(name="Friends only", private=True)
    page = client.get(reverse("arenas:list")).content.decode()
    assert "Open blitz" in page and "Friends only" not in page


def test_a_private_arena_s_page_needs_its_link(client, make_arena) -> None:
    arena = make_arena(private=True)
    assert client.get(reverse("arenas:arena", args=[arena.pk])).status_code == 404
    page = client.get(arena.page_url())
    assert page.status_code == 200 and "Standings: 0 players" in page.content.decode()


def test_join_pause_come_back_and_withdraw_by_the_page_s_buttons(client, make_arena, alice) -> None:
    arena = make_arena()
    client.force_login(alice)
    url = reverse("arenas:arena", args=[arena.pk])
    assert "Join the arena" in client.get(url).content.decode()
    client.post(reverse("arenas:join", args=[arena.pk]))
    page = client.get(url).content.decode()
    assert "Pause" in page and 'data-player="alice" aria-current="true"' in page
    client.post(reverse("arenas:pause", args=[arena.pk]))
    assert ArenaPlayer.objects.get(user=alice).state == ArenaPlayer.State.PAUSED
    assert "Come back" in client.get(url).content.decode()
    client.post(reverse("arenas:resume", args=[arena.pk]))
    client.post(reverse("arenas:withdraw", args=[arena.pk]))
    assert ArenaPlayer.objects.get(user=alice).state == ArenaPlayer.State.WITHDRAWN


def test_a_refusal_is_said_on_the_page(client, make_arena, alice) -> None:
    from accounts.models import Sanction

    arena = make_arena()
    Sanction.objects.create(user=alice, kind=Sanction.Kind.ARENA_BAN, reason="x")
    client.force_login(alice)
    page = client.post(reverse("arenas:join", args=[arena.pk]), follow=True).content.decode()
    assert "banned you from arenas" in page
    assert not ArenaPlayer.objects.exists()


def test_the_form_refuses_a_newcomer_with_words(client, alice) -> None:
    client.force_login(alice)
    page = client.post(
        reverse("arenas:new"),
        {"name": "Friends", "starts_at": "2030-01-01 20:00", "minutes": 30, "seats": 2},
        follow=True,
    ).content.decode()
    assert "Finish 10 games before creating an arena" in page


def test_the_finished_arena_s_games_are_exported_one_record_a_line(
    client, make_arena, alice, bob, rig, django_capture_on_commit_callbacks
) -> None:
    from datetime import timedelta

    from django.utils import timezone

    arena = make_arena()
    players.join(arena.pk, alice)
    players.join(arena.pk, bob)
    [table] = waves.wave(arena, timezone.now() + timedelta(seconds=10))
    rig(table, WINNING_RUN, leading="red:9")
    with django_capture_on_commit_callbacks(execute=True):
        game = play_to_the_end(table)
    events.finish_arena(arena.pk, timezone.now())
    page = client.get(reverse("arenas:arena", args=[arena.pk])).content.decode()
    assert "Podium" in page and 'data-podium="1"' in page
    export = client.get(reverse("arenas:games", args=[arena.pk]))
    lines = export.content.decode().splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["game_id"] == game.pk
    assert ArenaTable.objects.get().game_id == game.pk


def test_the_podium_s_trophies_are_on_the_winners_profiles(client, make_arena, alice, bob) -> None:
    from django.utils import timezone

    arena = make_arena(name="Winter cup")
    ArenaPlayer.objects.create(arena=arena, user=alice, points=5, games=3)
    ArenaPlayer.objects.create(arena=arena, user=bob, points=2, games=3)
    profile = reverse("games:profile", args=["alice"])
    assert "Arena trophies" not in client.get(profile).content.decode()
    events.finish_arena(arena.pk, timezone.now())
    page = client.get(profile).content.decode()
    assert 'data-trophy="1">First · <a href="/arenas/' in page and "Winter cup" in page
    assert (
        'data-trophy="2">Second'
        in client.get(reverse("games:profile", args=["bob"])).content.decode()
    )


@pytest.mark.parametrize(
    ("language", "words"),
    [("es", "Unirse a la arena"), ("id", "Ikuti arena"), ("eo", "Aliĝi al la areno")],
)
def test_the_arena_page_speaks_the_visitor_s_language(
    client, make_arena, alice, language, words
) -> None:
    arena = make_arena()
    client.force_login(alice)
    client.cookies["django_language"] = language
    assert words in client.get(reverse("arenas:arena", args=[arena.pk])).content.decode()
