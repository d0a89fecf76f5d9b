"""Reports and the moderation log moved with their rows twice: from the accounts app to the games
app (games/migrations/0008, accounts/migrations/0005), then from the games app to the moderation
app (moderation/migrations/0001, games/migrations/0015). A database filled before each move
keeps every report, every log row, every permission on them, the groups holding those
permissions and the admin's history of them; the second move also goes back as it came."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

Key = tuple[str, str | None]
TO_GAMES = ("games", "_reports_and_moderation_log")  # games' migration that took them over
TO_MODERATION = ("moderation", "_reports_and_moderation_log_from_games")


def graph():
    return MigrationExecutor(connection).loader.graph


def the_move(app: str, suffix: str) -> tuple[str, str]:
    """The migration of ``app`` whose name ends with ``suffix`` (whatever its number)."""
    return next(key for key in graph().nodes if key[0] == app and key[1].endswith(suffix))


def before(move: tuple[str, str], apps: tuple[str, ...]) -> list[Key]:
    """The migrations of ``apps`` that ``move`` follows directly."""
    return [node.key for node in graph().node_map[move].parents if node.key[0] in apps]


def after(move: tuple[str, str], forgetting: str) -> list[Key]:
    """``move`` and the migration of the app ``forgetting`` that forgets the models after it."""
    children = graph().node_map[move].children
    return [move, *(node.key for node in children if node.key[0] == forgetting)]


def migrate(targets: list[Key]):
    """Migrate the test database to ``targets`` (``(app, None)``: none of the app's); the models
    as they are there."""
    MigrationExecutor(connection).migrate(targets)
    reached = [target for target in targets if target[1] is not None]
    return MigrationExecutor(connection).loader.project_state(reached).apps


def latest() -> list[Key]:
    return graph().leaf_nodes()


def before_games_took_them() -> list[Key]:
    return [("accounts", "0004_guest"), *before(the_move(*TO_GAMES), ("games",))]


def once_games_took_them() -> list[Key]:
    return after(the_move(*TO_GAMES), forgetting="accounts")


def before_moderation_took_them() -> list[Key]:
    return [("moderation", None), *before(the_move(*TO_MODERATION), ("games", "accounts"))]


@pytest.fixture
def accounts_apps() -> Iterator:
    """The database as it was while accounts held the models, and forward again to the latest
    afterwards."""
    try:
        yield migrate(before_games_took_them())
    finally:
        migrate(latest())


@pytest.fixture
def games_apps() -> Iterator:
    """The database as it was while games held the models, and forward again to the latest
    afterwards."""
    try:
        yield migrate(before_moderation_took_them())
    finally:
        migrate(latest())


def fill(apps, app: str) -> dict:
    """A report filed at a table, its log row (linking to the report's admin page), a sanction's
    log row, a group allowed to read reports, and an admin history entry of a report, in the
    models of ``app`` as ``apps`` has them."""
    User = apps.get_model("auth", "User")
    Table = apps.get_model("games", "Table")
    Report = apps.get_model(app, "Report")
    ModerationLog = apps.get_model(app, "ModerationLog")
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
        object_url=f"/admin/{app}/report/{report.pk}/change/",
        reason="Resolved: warned",
    )
    sanctioned = ModerationLog.objects.create(
        actor=mia,
        action="sanction",
        target=bob,
        object_url="/admin/accounts/sanction/7/change/",
        reason="rude",
    )
    report_type, _created = ContentType.objects.get_or_create(app_label=app, model="report")
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
    return {
        "report": report.pk,
        "handled": handled.pk,
        "sanctioned": sanctioned.pk,
        "table": table.pk,
        "mia": mia.pk,
    }


# ------------------------------------------------------------------ from accounts to games


def test_reports_and_log_rows_filed_before_games_took_them_are_kept(accounts_apps) -> None:
    made = fill(accounts_apps, "accounts")

    apps = migrate(once_games_took_them())

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


def test_the_log_links_to_reports_at_their_games_admin_address(accounts_apps) -> None:
    made = fill(accounts_apps, "accounts")

    apps = migrate(once_games_took_them())

    entries = apps.get_model("games", "ModerationLog").objects
    report = made["report"]
    assert entries.get(pk=made["handled"]).object_url == f"/admin/games/report/{report}/change/"
    # Sanctions stay the accounts app's: their links do not change.
    assert entries.get(pk=made["sanctioned"]).object_url == "/admin/accounts/sanction/7/change/"


def test_permissions_and_admin_history_follow_the_models_to_games(accounts_apps) -> None:
    made = fill(accounts_apps, "accounts")

    apps = migrate(once_games_took_them())

    readers = apps.get_model("auth", "Group").objects.get(name="Report readers")
    permission = readers.permissions.select_related("content_type").get()
    assert (permission.content_type.app_label, permission.codename) == ("games", "view_report")
    ContentType = apps.get_model("contenttypes", "ContentType")
    assert not ContentType.objects.filter(app_label="accounts", model="report").exists()
    entry = LogEntry.objects.select_related("content_type").get()
    assert entry.content_type.app_label == "games"
    assert entry.object_id == str(made["report"])


# ------------------------------------------------------------------ from games to moderation


def fill_games(apps) -> dict:
    """:func:`fill` in the games app's models, with more that only this move touches: the
    report's sanction, a log row about a table (tables stay the games app's), one linking to the
    log itself, and the Moderators group holding the permissions on both models."""
    made = fill(apps, "games")
    Sanction = apps.get_model("accounts", "Sanction")
    Report = apps.get_model("games", "Report")
    ModerationLog = apps.get_model("games", "ModerationLog")
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    Group = apps.get_model("auth", "Group")
    User = apps.get_model("auth", "User")

    report = Report.objects.get(pk=made["report"])
    sanction = Sanction.objects.create(
        user=report.target, kind="chat_mute", reason="rude", created_by_id=made["mia"]
    )
    Report.objects.filter(pk=report.pk).update(sanction=sanction, status="resolved")
    made["sanction"] = sanction.pk
    made["aborted"] = ModerationLog.objects.create(
        actor_id=made["mia"],
        action="abort",
        target=report.target,
        object_url=f"/admin/games/table/{made['table']}/change/",
        reason="stalling",
    ).pk
    made["about_the_log"] = ModerationLog.objects.create(
        actor_id=made["mia"],
        action="watch",
        object_url=f"/admin/games/moderationlog/{made['handled']}/change/",
    ).pk
    moderators, _created = Group.objects.get_or_create(name="Moderators")
    for model, verbs in (("report", ("view", "change")), ("moderationlog", ("view",))):
        content_type, _created = ContentType.objects.get_or_create(app_label="games", model=model)
        for verb in verbs:
            permission, _created = Permission.objects.get_or_create(
                content_type=content_type,
                codename=f"{verb}_{model}",
                defaults={"name": f"Can {verb} {model}"},
            )
            moderators.permissions.add(permission)
    reader = User.objects.create(username="otto", is_staff=True)
    reader.groups.add(moderators)
    made["otto"] = reader.pk
    return made


def moderators_permissions_on_the_two(apps) -> set[tuple[str, str]]:
    group = apps.get_model("auth", "Group").objects.get(name="Moderators")
    wanted = {"view_report", "change_report", "view_moderationlog"}
    return {
        (permission.content_type.app_label, permission.codename)
        for permission in group.permissions.select_related("content_type")
        if permission.codename in wanted
    }


def test_reports_and_log_rows_of_the_games_app_are_kept_by_moderation(games_apps) -> None:
    made = fill_games(games_apps)

    apps = migrate(latest())

    report = apps.get_model("moderation", "Report").objects.get(pk=made["report"])
    assert (report.filer.username, report.target.username, report.table.name) == (
        "carol",
        "bob",
        "Evening",
    )
    assert (report.category, report.comment, report.status) == ("abusive_chat", "rude", "resolved")
    assert report.chat_snapshot[0]["text"] == "grr"
    assert report.sanction_id == made["sanction"]
    entries = apps.get_model("moderation", "ModerationLog").objects
    assert entries.count() == 4
    assert entries.get(pk=made["handled"]).reason == "Resolved: warned"
    tables = set(connection.introspection.table_names())
    assert {"moderation_report", "moderation_moderationlog"} <= tables
    assert not {"games_report", "games_moderationlog"} & tables


def test_the_log_links_to_reports_and_itself_at_moderations_admin_address(games_apps) -> None:
    made = fill_games(games_apps)

    apps = migrate(latest())

    links = dict(
        apps.get_model("moderation", "ModerationLog").objects.values_list("pk", "object_url")
    )
    assert links[made["handled"]] == f"/admin/moderation/report/{made['report']}/change/"
    assert links[made["about_the_log"]] == (
        f"/admin/moderation/moderationlog/{made['handled']}/change/"
    )
    # Sanctions stay the accounts app's and tables the games app's: their links do not change.
    assert links[made["sanctioned"]] == "/admin/accounts/sanction/7/change/"
    assert links[made["aborted"]] == f"/admin/games/table/{made['table']}/change/"


def test_permissions_groups_and_admin_history_follow_the_models_to_moderation(
    games_apps,
) -> None:
    made = fill_games(games_apps)

    apps = migrate(latest())

    readers = apps.get_model("auth", "Group").objects.get(name="Report readers")
    permission = readers.permissions.select_related("content_type").get()
    assert (permission.content_type.app_label, permission.codename) == (
        "moderation",
        "view_report",
    )
    assert moderators_permissions_on_the_two(apps) == {
        ("moderation", "view_report"),
        ("moderation", "change_report"),
        ("moderation", "view_moderationlog"),
    }
    ContentType = apps.get_model("contenttypes", "ContentType")
    assert not ContentType.objects.filter(app_label="games", model__in=["report", "moderationlog"])
    entry = LogEntry.objects.select_related("content_type").get()
    assert (entry.content_type.app_label, entry.content_type.model) == ("moderation", "report")
    assert entry.object_id == str(made["report"])
    # The same permissions are in effect: the moderator reads reports and the log as before.
    otto = get_user_model().objects.get(pk=made["otto"])
    assert otto.has_perms(["moderation.view_report", "moderation.view_moderationlog"])
    assert not otto.has_perm("moderation.delete_report")


def test_the_move_to_moderation_goes_back_with_every_row_link_and_permission(games_apps) -> None:
    made = fill_games(games_apps)
    migrate(latest())

    apps = migrate(before_moderation_took_them())

    report = apps.get_model("games", "Report").objects.get(pk=made["report"])
    assert (report.target.username, report.sanction_id) == ("bob", made["sanction"])
    links = dict(apps.get_model("games", "ModerationLog").objects.values_list("pk", "object_url"))
    assert links[made["handled"]] == f"/admin/games/report/{made['report']}/change/"
    assert links[made["about_the_log"]] == f"/admin/games/moderationlog/{made['handled']}/change/"
    assert links[made["aborted"]] == f"/admin/games/table/{made['table']}/change/"
    tables = set(connection.introspection.table_names())
    assert {"games_report", "games_moderationlog"} <= tables
    assert not {"moderation_report", "moderation_moderationlog"} & tables
    assert moderators_permissions_on_the_two(apps) == {
        ("games", "view_report"),
        ("games", "change_report"),
        ("games", "view_moderationlog"),
    }
    entry = LogEntry.objects.select_related("content_type").get()
    assert (entry.content_type.app_label, entry.content_type.model) == ("games", "report")
