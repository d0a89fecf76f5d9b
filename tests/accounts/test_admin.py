"""Accounts' screen of players in the admin (/admin/auth/user/): finding and filtering players,
the forms that keep names unique and readable, and who edits a player's page."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.http import HttpRequest
from django.test import Client, RequestFactory
from django.urls import reverse

from accounts.admin import PlayerAdmin
from tests.accounts.conftest import PASSWORD

pytestmark = pytest.mark.django_db

User = get_user_model()
CHANGELIST = reverse("admin:auth_user_changelist")


@pytest.fixture
def root(db):
    return User.objects.create_superuser("root", "root@example.com", PASSWORD)


@pytest.fixture
def root_client(client: Client, root) -> Client:
    client.force_login(root)
    return client


@pytest.fixture
def reader(db):
    """Staff allowed to change users, not a superuser."""
    user = User.objects.create_user("stan", password=PASSWORD, is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="change_user"))
    return user


def asking(user) -> HttpRequest:
    request = RequestFactory().get(CHANGELIST)
    request.user = user
    return request


def test_it_finds_players_by_name(root_client: Client, dana, ben) -> None:
    response = root_client.get(CHANGELIST, {"q": "dan"})

    assert list(response.context["cl"].result_list) == [dana]


def test_it_filters_banned_players(root_client: Client, dana, ben) -> None:
    ben.is_active = False
    ben.save()

    response = root_client.get(CHANGELIST, {"is_active__exact": "0"})

    assert list(response.context["cl"].result_list) == [ben]


def test_it_refuses_to_add_a_player_whose_name_differs_only_in_case(
    root_client: Client, dana
) -> None:
    response = root_client.post(
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


def test_it_refuses_to_rename_a_player_to_a_look_alike(root_client: Client, dana, ben) -> None:
    response = root_client.post(
        reverse("admin:auth_user_change", args=[ben.pk]),
        {"username": "d\u0430na", "date_joined_0": "2025-01-01", "date_joined_1": "00:00:00"},
    )

    assert "Use only the letters" in response.content.decode()
    assert User.objects.get(pk=ben.pk).username == "ben"


def test_only_a_superuser_edits_a_players_page(reader, root, dana) -> None:
    screen = PlayerAdmin(User, admin.site)

    assert screen.has_change_permission(asking(reader))  # the list, and its actions
    assert not screen.has_change_permission(asking(reader), dana)
    assert screen.has_change_permission(asking(root), dana)


def test_staff_who_read_a_players_page_see_no_password_groups_or_permissions(
    reader, root, dana
) -> None:
    screen = PlayerAdmin(User, admin.site)

    def fields(user) -> set[str]:
        fieldsets = screen.get_fieldsets(asking(user), dana)
        return {field for _name, options in fieldsets for field in options["fields"]}

    assert fields(reader) == {
        "username",
        "email",
        "is_active",
        "is_staff",
        "last_login",
        "date_joined",
    }
    assert {"password", "groups", "user_permissions", "is_superuser"} <= fields(root)
