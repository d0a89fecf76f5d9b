"""BOT accounts: made through the API from an account with no game, for good; badged on their
profile, kept off the leaderboards, never seated by the browser, and their games against each
other limited per day (``accounts.bots``, ``api.bot_accounts``)."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import bots, guests
from api import bot_accounts
from games.models import Challenge, Rating, RatingMode
from games.services import challenges, quickmatch, tables
from games.services.errors import ServiceError

pytestmark = pytest.mark.django_db


def upgrade(api_client, bearer, user):
    return api_client(bearer(user, "bot:play")).post(
        "/api/bot/account/upgrade", data="{}", content_type="application/json"
    )


def test_an_account_with_no_game_becomes_a_bot_for_good(alice, api_client, bearer):
    answer = upgrade(api_client, bearer, alice)
    assert answer.status_code == 200 and answer.json()["bot"] is True
    assert bots.is_bot(alice)
    info = api_client(bearer(alice, "read:profile")).get("/api/account").json()
    assert info["bot"] is True


def test_an_account_that_has_sat_at_a_table_cannot(alice, bob, make_table, api_client, bearer):
    make_table(players=[bob])
    answer = upgrade(api_client, bearer, bob)
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "forbidden"
    assert not bots.is_bot(bob)


def test_a_guest_cannot(api_client):
    guest = guests.create_guest()
    with pytest.raises(ServiceError) as refusal:
        bot_accounts.upgrade(guest)
    assert refusal.value.code == "guest"
    assert not bots.is_bot(guest)


def test_a_bot_shows_its_badge_and_stays_off_the_leaderboards(alice, bob):
    bots.make_bot(alice)
    for user in (alice, bob):
        Rating.objects.create(
            user=user, mode=RatingMode.DUEL, mu=30, sigma=4, games=12, updated_at=timezone.now()
        )
    client = Client()
    assert "data-bot-account" in client.get("/players/alice/").content.decode()
    assert "data-bot-account" not in client.get("/players/bob/").content.decode()
    board = client.get(reverse("games:leaderboards")).content.decode()
    assert ">bob<" in board and ">alice<" not in board


def test_a_bot_opens_no_table_sits_at_none_and_enters_no_pool(alice, bob, make_table):
    table = make_table()
    bots.make_bot(bob)
    refused = [
        lambda: tables.create_table(bob, name="mine", seat_count=2),
        lambda: tables.join_table(table.pk, bob, invite=table.invite_token),
        lambda: tables.play_against_bots(bob),
        lambda: quickmatch.enter(bob, "duel-untimed"),
    ]
    for attempt in refused:
        with pytest.raises(ServiceError) as refusal:
            attempt()
        assert refusal.value.code == "bot_account"
    assert table.seats.filter(user=bob).count() == 0


def test_a_bot_accepts_a_person_s_challenge_and_plays(alice, bob, api_client, bearer):
    bots.make_bot(bob)
    made = challenges.create_challenge(alice, [bob], seat_count=2)
    client = api_client(bearer(bob, "bot:play"))
    answer = client.post(
        f"/api/challenge/{made.pk}/accept", data="{}", content_type="application/json"
    )
    assert answer.json()["status"] == "accepted"
    assert answer.json()["invited"][0]["bot"] is True


def test_bots_play_each_other_so_many_times_a_day(alice, bob, api_client, bearer, monkeypatch):
    bots.make_bot(alice)
    bots.make_bot(bob)
    monkeypatch.setattr(bot_accounts, "BOT_GAMES_PER_DAY", 1)
    alice_client = api_client(bearer(alice, "challenge:write", "bot:play"))
    bob_client = api_client(bearer(bob, "challenge:write", "bot:play"))
    made = alice_client.post(
        "/api/challenge/bob", data=json.dumps({"seats": 2}), content_type="application/json"
    ).json()
    bob_client.post(
        f"/api/challenge/{made['id']}/accept", data="{}", content_type="application/json"
    )
    tables.abort_table(Challenge.objects.get(pk=made["id"]).table_id)
    again = alice_client.post(
        "/api/challenge/bob", data=json.dumps({"seats": 2}), content_type="application/json"
    )
    assert again.status_code == 429
    assert again.json()["error"]["code"] == "too_many_bot_games"
