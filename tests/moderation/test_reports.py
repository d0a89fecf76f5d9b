"""Reports from a table or a profile, and the automatic end of sanctions."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Sanction
from games.services import chat
from moderation.models import Report

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(make_table, bob):
    return make_table(players=[bob], start=True, turn_seconds=None)


def test_a_report_from_the_table_attaches_the_game_and_recent_chat(
    client: Client, table, alice, bob
) -> None:
    chat.post_message(table.pk, bob, "players", "you are an idiot")
    client.force_login(alice)

    response = client.post(
        reverse("moderation:report", args=[table.pk]),
        {"target": bob.pk, "category": "abusive_chat", "comment": "insults"},
        follow=True,
    )

    assert "Report received" in response.content.decode()
    report = Report.objects.get()
    assert (report.filer, report.target, report.table, report.status) == (alice, bob, table, "open")
    assert [line["text"] for line in report.chat_snapshot] == ["you are an idiot"]


def test_one_open_report_per_filer_target_and_category(client: Client, table, alice, bob) -> None:
    client.force_login(alice)
    url = reverse("moderation:report", args=[table.pk])
    data = {"target": bob.pk, "category": "leaving", "comment": ""}

    client.post(url, data)
    again = client.post(url, data)
    other = client.post(url, {**data, "category": "other"})

    assert "already reported this player" in again.content.decode()
    assert other.status_code == 302
    assert Report.objects.count() == 2


def test_only_people_at_the_table_can_be_reported_from_it(client: Client, table, alice) -> None:
    stranger = get_user_model().objects.create_user("zed", password="zed-password-1")
    client.force_login(alice)

    response = client.post(
        reverse("moderation:report", args=[table.pk]),
        {"target": stranger.pk, "category": "other"},
    )

    assert response.status_code == 200 and not Report.objects.exists()


def test_a_report_from_a_private_table_goes_back_to_it_with_its_invite(
    client: Client, make_table, alice, bob
) -> None:
    private = make_table(players=[bob], start=True, turn_seconds=None, public=False)
    client.force_login(bob)
    url = reverse("moderation:report", args=[private.pk]) + f"?invite={private.invite_token}"

    response = client.post(url, {"target": alice.pk, "category": "other"})

    assert response["Location"] == f"/tables/{private.pk}/?invite={private.invite_token}"
    assert Report.objects.get().table == private


def test_nobody_reports_from_a_private_table_they_may_not_see(client: Client, make_table, bob):
    private = make_table(players=[bob], start=True, turn_seconds=None, public=False)
    client.force_login(get_user_model().objects.create_user("zed", password="zed-password-1"))

    page = client.get(reverse("moderation:report", args=[private.pk]))

    assert page.status_code == 403


def test_a_report_from_a_profile(client: Client, alice, bob) -> None:
    client.force_login(alice)

    response = client.post(
        reverse("moderation:report_player", args=["bob"]),
        {"target": bob.pk, "category": "offensive_name", "comment": ""},
        follow=True,
    )

    assert "Report received" in response.content.decode()
    assert Report.objects.get().category == "offensive_name"


def test_a_timed_account_ban_ends_by_itself(client: Client, bob, moderator) -> None:
    from moderation import actions as moderation

    moderation.impose_sanction(
        moderator, bob, "account_ban", "cool off", timezone.now() + timedelta(hours=1)
    )
    refused = client.post(
        reverse("accounts:login"), {"username": "bob", "password": "bob-password-1"}
    )
    Sanction.objects.update(ends_at=timezone.now() - timedelta(seconds=1))
    allowed = client.post(
        reverse("accounts:login"), {"username": "bob", "password": "bob-password-1"}
    )

    assert "This account has been banned" in refused.content.decode()
    assert allowed.status_code == 302
    assert get_user_model().objects.get(pk=bob.pk).is_active


def test_the_profile_shows_the_games_left(client: Client, alice, bob, make_table) -> None:
    from games.services import tables

    table = make_table(players=[bob], seat_count=3, start=True)
    tables.leave_table(table.pk, bob)

    page = client.get(reverse("games:profile", args=["bob"])).content.decode()

    assert '<dd data-stat="left">1</dd>' in page


def test_leaver_statistics_tell_leaving_from_timing_out_and_count_aborted_games(
    alice, bob, carol, make_table
) -> None:
    from games.models import Game, Seat
    from games.services import moves, stats, tables

    left = make_table(players=[bob], seat_count=3, start=True)
    tables.leave_table(left.pk, bob)
    # R23: three turns timed out in a row and a bot takes the seat.
    slow = make_table(host=carol, players=[bob], start=True, turn_seconds=15)
    game = Game.objects.get(table=slow)
    now = timezone.now()
    while Seat.objects.filter(table=slow, user=bob).exists():
        now += timedelta(seconds=16)
        moves.advance(game.pk, now=now)
    aborted = make_table(players=[bob], start=True)
    tables.abort_table(aborted.pk)

    assert stats.leaver_stats(bob) == {"left": 1, "timeouts": 1, "aborted": 1}
