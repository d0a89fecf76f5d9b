"""The Moderators group reads the challenges people send, and who follows and blocks whom."""

from django.db import migrations

MODERATORS = "Moderators"
READ = [
    ("games", "challenge", "Can view challenge"),
    ("games", "challengeinvitation", "Can view challenge invitation"),
    ("social", "follow", "Can view follow"),
    ("social", "block", "Can view block"),
]


def allow_reading(apps, schema_editor):
    # Permissions are made after all migrations; make these now, as the group's own migration
    # does (Django's post-migrate step then finds them made).
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    Group = apps.get_model("auth", "Group")
    group = Group.objects.filter(name=MODERATORS).first()
    if group is None:
        return
    for app_label, model, name in READ:
        content_type, _created = ContentType.objects.get_or_create(app_label=app_label, model=model)
        permission, _created = Permission.objects.get_or_create(
            content_type=content_type, codename=f"view_{model}", defaults={"name": name}
        )
        group.permissions.add(permission)


def disallow_reading(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group = Group.objects.filter(name=MODERATORS).first()
    if group is None:
        return
    for app_label, model, _name in READ:
        group.permissions.remove(
            *Permission.objects.filter(
                codename=f"view_{model}", content_type__app_label=app_label
            )
        )


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0001_reports_and_moderation_log_from_games"),
        ("games", "0016_challenges"),
        ("social", "0001_follows_blocks_privacy_notifications"),
        ("accounts", "0003_moderators_group"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(allow_reading, disallow_reading)]
