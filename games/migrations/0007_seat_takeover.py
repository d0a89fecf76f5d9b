from django.db import migrations, models


def name_the_takeovers(apps, schema_editor):
    """Seats a bot already took over: why, read from the move log (the person's last move of
    their own a timeout: three timeouts; otherwise they left), and when (the bot's first move
    in the seat, or the game's length if it never moved)."""
    Seat = apps.get_model("games", "Seat")
    Move = apps.get_model("games", "Move")
    taken = Seat.objects.filter(replaced_user__isnull=False, replaced_because="")
    for seat in taken.select_related("table__game"):
        game = getattr(seat.table, "game", None)
        if game is None:
            continue
        moves = Move.objects.filter(game=game, seat=seat.position)
        last_own = (
            moves.exclude(source="bot").order_by("-seq").values_list("source", flat=True).first()
        )
        first_bot = moves.filter(source="bot").order_by("seq").values_list("seq", flat=True)
        seat.replaced_because = "timeouts" if last_own == "timeout" else "left"
        seat.replaced_at = first_bot.first() if first_bot.exists() else game.version
        seat.save(update_fields=["replaced_because", "replaced_at"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_rematch_and_abandoned"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="replaced_at",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="seat",
            name="replaced_because",
            field=models.CharField(
                blank=True,
                choices=[
                    ("left", "left the game"),
                    ("timeouts", "timed out three times"),
                    ("banned", "banned"),
                ],
                max_length=8,
            ),
        ),
        migrations.RunPython(name_the_takeovers, migrations.RunPython.noop),
    ]
