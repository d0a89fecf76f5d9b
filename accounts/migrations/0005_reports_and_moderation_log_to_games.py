"""Reports and the moderation log are the games app's now (games/migrations/0008 took them over,
rows and all): accounts forgets them, without touching the database."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0004_guest"),
        ("games", "0008_reports_and_moderation_log"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="ModerationLog"),
                migrations.DeleteModel(name="Report"),
            ],
            database_operations=[],
        ),
    ]
