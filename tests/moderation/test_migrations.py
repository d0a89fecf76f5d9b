"""Reports and the moderation log moved from the accounts app to the games app with their rows
(games/migrations/0007, accounts/migrations/0005): a database filled before the move keeps
every report, every log row and every permission on them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.contrib.admin.models import LogEntry
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

THE_MOVE = "_reports_and_moderation_log"  # games' migration that takes the tables over


def before_the_move() -> list[tuple[str, str]]:
    """The migrations just before the move: accounts' last with the models, and the games one
    the move follows (whatever their numbers)."""
    graph = MigrationExecutor(connection).loader.graph
    move = next(key for key in graph.nodes if key[0] == "games" and key[1].endswith(THE_MOVE))
    games_before = [node.key for node in graph.node_map[move].parents if node.key[0] == "games"]
    return [("accounts", "0004_guest"), *games_before]


def migrate(targets: list[tuple[str, str]]):
    """Migrate the test database to ``targets``; the models as they were there."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return MigrationExecutor(connection).loader.project_state(targets).apps


def latest() -> list[tuple[str, str]]:
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


@pytest.fixture
def old_apps() -> Iterator:
    """The database as it was before the move, and forward again to the latest afterwards."""
    try:
        yield migrate(before_the_move())
    finally:
        migrate(latest())


def fill(apps) -> dict:
    """A report filed at a table, its log row (linking to the report's admin page), a sanction's
    log row, a group allowed to read reports, and an admin history entry of a report."""
    User = apps.get_model("auth", "User")
    Table = apps.get_model("games", "Table")
    Report = apps.get_model("accounts", "Report")
    ModerationLog = apps.get_model("accounts", "ModerationLog")
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    Group = apps.get_model("auth", "Group")

    mia, bob, carol = (User.objects.create(username=name) for name in ("mia", "bob", "carol"))
    table = Table.objects.create(name="Evening", host=bob, seat_count=4)
    report = Report.objects.create(
        filer=carol,
        target=bob,
        category="abusive_chat",
        comment="rude",
        table=table,
        chat_snapshot=[{"author": "bob", "text": "grr", "at": "2026-01-01T12:00:00+00:00"}],
    )
    handled = ModerationLog.objects.create(
        actor=mia,
        action="handle_report",
        target=bob,
        object_repr="Abusive chat: bob (carol)",
        object_url=f"/admin/accounts/report/{report.pk}/change/",
        reason="Resolved: warned",
    )
    sanctioned = ModerationLog.objects.create(
        actor=mia,
        action="sanction",
        target=bob,
        object_url="/admin/accounts/sanction/7/change/",
        reason="rude",
    )
    report_type, _created = ContentType.objects.get_or_create(app_label="accounts", model="report")
    view_report, _created = Permission.objects.get_or_create(
        content_type=report_type, codename="view_report", defaults={"name": "Can view report"}
    )
    readers = Group.objects.create(name="Report readers")
    readers.permissions.add(view_report)
    # The admin's history is not among the apps of that migration's state: today's model, whose
    # table has not changed.
    LogEntry.objects.create(
        user_id=mia.pk,
        content_type_id=report_type.pk,
        object_id=str(report.pk),
        object_repr="Abusive chat: bob (carol)",
        action_flag=2,
    )
    return {"report": report.pk, "handled": handled.pk, "sanctioned": sanctioned.pk}


def test_reports_and_log_rows_filed_before_the_move_are_kept(old_apps) -> None:
    made = fill(old_apps)

    apps = migrate(latest())

    report = apps.get_model("games", "Report").objects.get(pk=made["report"])
    assert (report.filer.username, report.target.username, report.table.name) == (
        "carol",
        "bob",
        "Evening",
    )
    assert (report.category, report.comment, report.status) == ("abusive_chat", "rude", "open")
    assert report.chat_snapshot[0]["text"] == "grr"
    entries = apps.get_model("games", "ModerationLog").objects
    assert entries.count() == 2
    assert entries.get(pk=made["handled"]).reason == "Resolved: warned"
    tables = connection.introspection.table_names()
    assert {"games_report", "games_moderationlog"} <= set(tables)
    assert not {"accounts_report", "accounts_moderationlog"} & set(tables)


def test_the_log_links_to_reports_at_their_new_admin_address(old_apps) -> None:
    made = fill(old_apps)

    apps = migrate(latest())

    entries = apps.get_model("games", "ModerationLog").objects
    report = made["report"]
    assert entries.get(pk=made["handled"]).object_url == f"/admin/games/report/{report}/change/"
    # Sanctions stay the accounts app's: their links do not change.
    assert entries.get(pk=made["sanctioned"]).object_url == "/admin/accounts/sanction/7/change/"


def test_permissions_and_admin_history_follow_the_models(old_apps) -> None:
    made = fill(old_apps)

    apps = migrate(latest())

    readers = apps.get_model("auth", "Group").objects.get(name="Report readers")
    permission = readers.permissions.select_related("content_type").get()
    assert (permission.content_type.app_label, permission.codename) == ("games", "view_report")
    ContentType = apps.get_model("contenttypes", "ContentType")
    assert not ContentType.objects.filter(app_label="accounts", model="report").exists()
    entry = LogEntry.objects.select_related("content_type").get()
    assert entry.content_type.app_label == "games"
    assert entry.object_id == str(made["report"])
