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
    # Permissions are made after all migrations; make the ones the group needs now, from the
    # models as they are at this migration (Django's own post-migrate step finds them made).
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    Group = apps.get_model("auth", "Group")
    group, _created = Group.objects.get_or_create(name=MODERATORS)
    wanted = []
    for (app, model), verbs in PERMISSIONS.items():
        content_type, _created = ContentType.objects.get_or_create(app_label=app, model=model)
        name = apps.get_model(app, model)._meta.verbose_name_raw
        for verb in verbs:
            permission, _created = Permission.objects.get_or_create(
                content_type=content_type,
                codename=f"{verb}_{model}",
                defaults={"name": f"Can {verb} {name}"},
            )
            wanted.append(permission)
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
