"""The social app's migrations apply on an empty database and go back."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)


def test_its_migrations_apply_and_unapply() -> None:
    executor = MigrationExecutor(connection)
    leaves = executor.loader.graph.leaf_nodes()
    first = next(key for key in leaves if key[0] == "social")

    executor.migrate([("social", None)])
    assert "social_follow" not in connection.introspection.table_names()

    executor = MigrationExecutor(connection)
    executor.migrate([first])
    tables = connection.introspection.table_names()
    assert {"social_follow", "social_block", "social_privacy", "social_notification"} <= set(tables)
    executor = MigrationExecutor(connection)
    executor.migrate(leaves)
