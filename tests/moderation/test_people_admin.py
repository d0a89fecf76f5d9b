"""Challenges, follows and blocks in the admin: moderators read them and change nothing."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse

from games.services import challenges
from social import relations

pytestmark = pytest.mark.django_db


def test_a_moderator_reads_a_challenge_and_its_answers(mod_client, alice, bob, carol) -> None:
    challenge = challenges.create_challenge(alice, [bob, carol], seat_count=3)
    challenges.decline_challenge(challenge.pk, carol)

    listed = mod_client.get(reverse("admin:games_challenge_changelist")).content.decode()
    shown = mod_client.get(
        reverse("admin:games_challenge_change", args=[challenge.pk])
    ).content.decode()

    assert "bob (Not answered yet), carol (Declined)" in listed
    assert "alice" in shown and "Declined" in shown
    assert 'name="_save"' not in shown


def test_a_moderator_reads_who_blocks_and_follows_whom(mod_client, alice, bob, carol) -> None:
    relations.follow(carol, alice)
    relations.block(alice, bob)

    blocks = mod_client.get(reverse("admin:social_block_changelist")).content.decode()
    follows = mod_client.get(reverse("admin:social_follow_changelist")).content.decode()

    assert "alice" in blocks and "bob" in blocks
    assert "carol" in follows


def test_nothing_is_changed_there(mod_client, alice, bob) -> None:
    relations.block(alice, bob)

    assert mod_client.get(reverse("admin:social_block_add")).status_code == 403
    assert mod_client.get(reverse("admin:games_challenge_add")).status_code == 403


def test_the_moderators_group_may_read_them_and_nothing_more(mod) -> None:
    codenames = set(
        Group.objects.get(name="Moderators").permissions.values_list("codename", flat=True)
    )

    assert {"view_challenge", "view_challengeinvitation", "view_follow", "view_block"} <= codenames
    assert not {"change_challenge", "delete_block", "add_follow", "change_block"} & codenames
