"""Reports and the moderation log become tables of the moderation app, with every row they hold.

They were the games app's (games/migrations/0008 took them over from accounts). The moderation
app takes them over as they are (its state only: nothing is created), then renames the tables to
its own names; the content types follow (so the permissions on them, the Moderators group's
among them, and the admin's history stay with the models), and so do the links of the
moderation log's rows to reports and to the log itself in the admin.
games/migrations/0015 then forgets the two models.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.db.models import Value
from django.db.models.functions import Replace

MODELS = ("report", "moderationlog")
LINKS = (
    ("/admin/games/report/", "/admin/moderation/report/"),
    ("/admin/games/moderationlog/", "/admin/moderation/moderationlog/"),
)


def move_content_types(apps, schema_editor, source="games", destination="moderation"):
    ContentType = apps.get_model("contenttypes", "ContentType")
    types = ContentType.objects.using(schema_editor.connection.alias)
    for model in MODELS:
        if not types.filter(app_label=destination, model=model).exists():
            types.filter(app_label=source, model=model).update(app_label=destination)


def move_content_types_back(apps, schema_editor):
    move_content_types(apps, schema_editor, source="moderation", destination="games")


def relink(apps, schema_editor, backwards=False):
    ModerationLog = apps.get_model("moderation", "ModerationLog")
    entries = ModerationLog.objects.using(schema_editor.connection.alias)
    for old, new in LINKS:
        if backwards:
            old, new = new, old
        entries.filter(object_url__contains=old).update(
            object_url=Replace("object_url", Value(old), Value(new))
        )


def relink_back(apps, schema_editor):
    relink(apps, schema_editor, backwards=True)


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("games", "0014_moderators_see_the_pools"),
        ("accounts", "0005_reports_and_moderation_log_to_games"),
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="ModerationLog",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "action",
                            models.CharField(
                                choices=[
                                    ("hide_message", "Hid a chat message"),
                                    ("handle_report", "Handled a report"),
                                    ("sanction", "Imposed a sanction"),
                                    ("lift", "Lifted a sanction"),
                                    ("abort", "Aborted a table"),
                                    ("rename", "Renamed a player"),
                                    ("ban", "Banned a player"),
                                    ("unban", "Unbanned a player"),
                                    ("watch", "Watched a table"),
                                    ("verify", "Verified a game"),
                                    ("void_rating", "Voided a game's rating"),
                                ],
                                max_length=16,
                                verbose_name="action",
                            ),
                        ),
                        (
                            "object_repr",
                            models.CharField(blank=True, max_length=200, verbose_name="object"),
                        ),
                        (
                            "object_url",
                            models.CharField(blank=True, max_length=200, verbose_name="link"),
                        ),
                        ("reason", models.TextField(blank=True, verbose_name="reason")),
                        (
                            "created_at",
                            models.DateTimeField(
                                auto_now_add=True, db_index=True, verbose_name="when"
                            ),
                        ),
                        (
                            "actor",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "target",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="moderation_entries",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "games_moderationlog",
                        "verbose_name": "moderation log entry",
                        "verbose_name_plural": "moderation log",
                        "ordering": ["-created_at", "-pk"],
                    },
                ),
                migrations.CreateModel(
                    name="Report",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "category",
                            models.CharField(
                                choices=[
                                    ("abusive_chat", "Abusive chat"),
                                    ("offensive_name", "Offensive name"),
                                    ("leaving", "Leaving or stalling games"),
                                    ("cheating", "Cheating or collusion"),
                                    ("other", "Other"),
                                ],
                                max_length=16,
                                verbose_name="category",
                            ),
                        ),
                        (
                            "comment",
                            models.TextField(blank=True, max_length=1000, verbose_name="comment"),
                        ),
                        (
                            "chat_snapshot",
                            models.JSONField(blank=True, default=list, verbose_name="recent chat"),
                        ),
                        (
                            "status",
                            models.CharField(
                                choices=[
                                    ("open", "Open"),
                                    ("resolved", "Resolved"),
                                    ("dismissed", "Dismissed"),
                                ],
                                default="open",
                                max_length=10,
                                verbose_name="status",
                            ),
                        ),
                        ("notes", models.TextField(blank=True, verbose_name="moderator notes")),
                        (
                            "handled_at",
                            models.DateTimeField(blank=True, null=True, verbose_name="handled at"),
                        ),
                        (
                            "created_at",
                            models.DateTimeField(auto_now_add=True, verbose_name="filed at"),
                        ),
                        (
                            "filer",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="reports_filed",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "handled_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "sanction",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="reports",
                                to="accounts.sanction",
                                verbose_name="sanction",
                            ),
                        ),
                        (
                            "table",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to="games.table",
                            ),
                        ),
                        (
                            "target",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="reports_received",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "games_report",
                        "verbose_name": "report",
                        "verbose_name_plural": "reports",
                        "ordering": ["-created_at"],
                        "constraints": [
                            models.UniqueConstraint(
                                condition=models.Q(("status", "open")),
                                fields=("filer", "target", "category"),
                                name="one_open_report_per_filer_target_category",
                            )
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.AlterModelTable(name="moderationlog", table=None),
        migrations.AlterModelTable(name="report", table=None),
        migrations.RunPython(move_content_types, move_content_types_back),
        migrations.RunPython(relink, relink_back),
    ]
