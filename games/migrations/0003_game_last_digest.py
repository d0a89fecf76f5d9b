from django.db import migrations, models


def fill_last_digest(apps, schema_editor):
    """Games stored before: their last move's digest, which the next move chains to."""
    Game = apps.get_model("games", "Game")
    Move = apps.get_model("games", "Move")
    for game in Game.objects.filter(version__gt=0).only("pk", "version"):
        last = Move.objects.filter(game=game, seq=game.version - 1).values_list("digest").first()
        if last:
            Game.objects.filter(pk=game.pk).update(last_digest=last[0])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0002_model_names"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="last_digest",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
        migrations.RunPython(fill_last_digest, migrations.RunPython.noop),
    ]
