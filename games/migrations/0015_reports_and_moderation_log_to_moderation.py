"""Reports and the moderation log are the moderation app's now (moderation/migrations/0001 took
them over, rows and all): games forgets them, without touching the database."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0014_moderators_see_the_pools"),
        ("moderation", "0001_reports_and_moderation_log_from_games"),
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
