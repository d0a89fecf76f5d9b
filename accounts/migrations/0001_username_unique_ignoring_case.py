"""Make the database itself refuse two usernames that differ only in case.

The sign-up form checks this too, but two sign-ups at the same moment ("Dana" and "dana") could
both pass the check; the index makes the second one fail. auth.User is Django's model, so the
index is plain SQL (SQLite and PostgreSQL both index expressions).
"""

from django.db import migrations

INDEX = "accounts_auth_user_username_lower_uniq"


class Migration(migrations.Migration):
    dependencies = [("auth", "0012_alter_user_first_name_max_length")]

    operations = [
        migrations.RunSQL(
            f"CREATE UNIQUE INDEX {INDEX} ON auth_user (LOWER(username));",
            reverse_sql=f"DROP INDEX {INDEX};",
        ),
    ]
