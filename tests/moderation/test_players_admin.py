"""The moderators' players screen: /admin/auth/user/."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games.services import broadcast
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


def test_it_finds_players_by_name(mod_client: Client, dana, ben) -> None:
    response = mod_client.get(CHANGELIST, {"q": "dan"})

    assert list(response.context["cl"].result_list) == [dana]


def test_it_filters_banned_players(mod_client: Client, dana, ben) -> None:
    ben.is_active = False
    ben.save()

    response = mod_client.get(CHANGELIST, {"is_active__exact": "0"})

    assert list(response.context["cl"].result_list) == [ben]


def test_it_refuses_to_add_a_player_whose_name_differs_only_in_case(
    mod_client: Client, dana
) -> None:
    response = mod_client.post(
        reverse("admin:auth_user_add"),
        {
            "username": "DANA",
            "usable_password": "true",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )

    assert "is taken" in response.content.decode()
    assert User.objects.filter(username__iexact="dana").count() == 1


def test_it_refuses_to_rename_a_player_to_a_look_alike(mod_client: Client, dana, ben) -> None:
    response = mod_client.post(
        reverse("admin:auth_user_change", args=[ben.pk]),
        {"username": "d\u0430na", "date_joined_0": "2025-01-01", "date_joined_1": "00:00:00"},
    )

    assert "Use only the letters" in response.content.decode()
    assert User.objects.get(pk=ben.pk).username == "ben"


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
