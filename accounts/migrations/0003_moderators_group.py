"""The Moderators group, with exactly the permissions moderation needs.

Moderators are staff, not superusers. They read players, tables, games, moves, the chat and the
log; they impose and lift sanctions, handle reports, hide chat lines, keep the blocked words,
and act on players and tables through the admin's actions (which need "change"). They can never
add, change or delete a move, nor change the moderation log.
"""

from django.db import migrations

MODERATORS = "Moderators"
PERMISSIONS = {
    ("auth", "user"): ("view", "change"),
    ("accounts", "sanction"): ("view", "add", "change"),
    ("accounts", "report"): ("view", "change"),
    ("accounts", "moderationlog"): ("view",),
    ("games", "table"): ("view", "change"),
    ("games", "seat"): ("view",),
    ("games", "game"): ("view",),
    ("games", "move"): ("view",),
    ("games", "gameverification"): ("view",),
    ("games", "chatmessage"): ("view", "change"),
    ("games", "blockedword"): ("view", "add", "change", "delete"),
}


def make_group(apps, schema_editor):
    # Permissions are made after all migrations; make them now to give them to the group.
    from django.contrib.auth.management import create_permissions

    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _created = Group.objects.get_or_create(name=MODERATORS)
    wanted = [
        Permission.objects.get(
            content_type__app_label=app, content_type__model=model, codename=f"{verb}_{model}"
        )
        for (app, model), verbs in PERMISSIONS.items()
        for verb in verbs
    ]
    group.permissions.set(wanted)


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=MODERATORS).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_moderation"),
        ("games", "0004_chat_and_verifications"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(make_group, remove_group)]
