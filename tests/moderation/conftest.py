"""Fixtures of the moderation tests: a moderator as the site makes one (staff in the Moderators
group, not a superuser), logged in."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, Group
from django.test import Client


@pytest.fixture
def mod(db) -> AbstractBaseUser:
    """A moderator: staff in the Moderators group, not a superuser."""
    user = get_user_model().objects.create_user("mia", password="mia-password-1", is_staff=True)
    user.groups.add(Group.objects.get(name="Moderators"))
    return user


@pytest.fixture
def mod_client(mod) -> Client:
    client = Client()
    client.force_login(mod)
    return client
