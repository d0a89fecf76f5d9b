"""The Moderators group reads quick match's pools: who waits, in which pool, since when; the
entries' fields are named for the admin."""

from django.db import migrations, models

MODERATORS = "Moderators"


def allow_viewing_the_pools(apps, schema_editor):
    # Permissions are made after all migrations; make this one now, as the group's own
    # migration does (Django's post-migrate step then finds it made).
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    Group = apps.get_model("auth", "Group")
    group = Group.objects.filter(name=MODERATORS).first()
    if group is None:
        return
    content_type, _created = ContentType.objects.get_or_create(app_label="games", model="poolentry")
    permission, _created = Permission.objects.get_or_create(
        content_type=content_type,
        codename="view_poolentry",
        defaults={"name": "Can view pool entry"},
    )
    group.permissions.add(permission)


def disallow_viewing_the_pools(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group = Group.objects.filter(name=MODERATORS).first()
    if group is not None:
        group.permissions.remove(
            *Permission.objects.filter(
                codename="view_poolentry", content_type__app_label="games"
            )
        )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0013_matched_tables"),
        ("accounts", "0003_moderators_group"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.AlterField(
            model_name="poolentry",
            name="seen_at",
            field=models.DateTimeField(verbose_name="last heard from"),
        ),
        migrations.AlterField(
            model_name="poolentry",
            name="sockets",
            field=models.PositiveSmallIntegerField(default=0, verbose_name="pool pages open"),
        ),
        migrations.RunPython(allow_viewing_the_pools, disallow_viewing_the_pools),
    ]
