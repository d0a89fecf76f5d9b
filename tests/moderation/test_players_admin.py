"""The moderators' players screen: /admin/auth/user/, accounts' screen of players with the
moderators' actions."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from accounts.admin import PlayerAdmin
from games.services import broadcast
from moderation.admin.players import ModeratedPlayerAdmin
from tests.accounts.conftest import PASSWORD

pytestmark = pytest.mark.django_db

User = get_user_model()
CHANGELIST = reverse("admin:auth_user_changelist")


@pytest.fixture
def dana(db):
    return User.objects.create_user("Dana", "dana@example.com", PASSWORD)


@pytest.fixture
def ben(db):
    return User.objects.create_user("ben", "", PASSWORD)


@pytest.fixture
def moderator(db):
    return User.objects.create_superuser("mod", "mod@example.com", PASSWORD)


@pytest.fixture
def mod_client(client: Client, moderator) -> Client:
    client.force_login(moderator)
    return client


def act(client: Client, action: str, *users, reason: str = "spam"):
    return client.post(
        CHANGELIST,
        {"action": action, "_selected_action": [user.pk for user in users], "reason": reason},
        follow=True,
    )


def test_it_bans_the_selected_players(mod_client: Client, dana, ben) -> None:
    response = act(mod_client, "ban", dana, ben)

    assert "2 players banned." in response.content.decode()
    assert not User.objects.get(pk=dana.pk).is_active
    assert not User.objects.get(pk=ben.pk).is_active


def test_it_unbans_the_selected_players(mod_client: Client, dana) -> None:
    dana.is_active = False
    dana.save()

    act(mod_client, "unban", dana)

    assert User.objects.get(pk=dana.pk).is_active


def test_a_banned_player_cannot_log_in(mod_client: Client, dana) -> None:
    act(mod_client, "ban", dana)

    response = Client().post(reverse("accounts:login"), {"username": "dana", "password": PASSWORD})

    assert "This account has been banned" in response.content.decode()


def test_it_does_not_let_a_moderator_ban_themselves(mod_client: Client, moderator) -> None:
    response = act(mod_client, "ban", moderator)

    assert "You cannot act on yourself." in response.content.decode()
    assert User.objects.get(pk=moderator.pk).is_active


def test_deactivating_a_player_by_hand_closes_their_sockets(
    mod_client: Client, dana, monkeypatch
) -> None:
    ended = []
    monkeypatch.setattr(broadcast, "sessions_ended", ended.append)
    fields = {"username": "Dana", "date_joined_0": "2025-01-01", "date_joined_1": "00:00:00"}
    url = reverse("admin:auth_user_change", args=[dana.pk])

    mod_client.post(url, {**fields, "is_active": "on", "first_name": "D"})
    assert User.objects.get(pk=dana.pk).first_name == "D"
    assert ended == []  # saved for another reason
    mod_client.post(url, fields)  # "active" unticked

    assert not User.objects.get(pk=dana.pk).is_active
    assert ended == [dana.pk]


def test_the_players_screen_is_accounts_one_with_the_moderators_actions() -> None:
    screen = admin.site.get_model_admin(User)

    assert type(screen) is ModeratedPlayerAdmin
    assert isinstance(screen, PlayerAdmin)
