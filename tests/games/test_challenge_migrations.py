"""The challenges' migration applies on the games' tables as they were, and goes back; the
moderators' right to read challenges, follows and blocks comes with moderation's."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = ("games", "0015_reports_and_moderation_log_to_moderation")


def migrate(targets) -> None:
    MigrationExecutor(connection).migrate(targets)


def test_the_challenges_come_and_go_with_their_migration() -> None:
    leaves = MigrationExecutor(connection).loader.graph.leaf_nodes()

    migrate([BEFORE])
    assert "games_challenge" not in connection.introspection.table_names()
    # The group as its own migration makes it (a test before this one may have emptied the
    # database since).
    Group.objects.get_or_create(name="Moderators")

    migrate(leaves)
    tables = set(connection.introspection.table_names())
    assert {"games_challenge", "games_challengeinvitation"} <= tables
    codenames = set(
        Group.objects.get(name="Moderators").permissions.values_list("codename", flat=True)
    )
    assert {"view_challenge", "view_follow", "view_block"} <= codenames
