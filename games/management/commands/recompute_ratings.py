"""``manage.py recompute_ratings``: every rating computed again from the rated games.

Forgets every rating and rating change and replays every rated game that counts in the order
the games ended, as the end of each game rated it: the result is exactly the ratings the site
keeps, unless something was lost or changed by hand. One transaction: the site sees the old
ratings or the new ones, never half of them.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand

from games.models import Rating
from games.services import ratings


class Command(BaseCommand):
    help = "Compute every player's ratings again from the rated games, in the order they ended."

    def handle(self, *args, **options) -> None:
        games = ratings.recompute()
        people = Rating.objects.values("user").distinct().count()
        self.stdout.write(f"{games} rated games replayed; {people} players rated.")
