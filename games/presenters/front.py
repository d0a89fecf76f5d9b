"""The home page's signs that people play, for a visitor and a signed-in person alike: how many
people are online, the games being played that anyone may watch (the newest few, with their
seats' names and nothing of their cards), and the top of each leaderboard."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from games.models import RatingMode
from games.presenters import listings
from games.presenters.ratings import leaderboard
from games.services import online

# The newest games being played the home page lists (the watch page lists them all).
PLAYING_SHOWN = 5
# The places of each leaderboard the home page shows.
LEADERS_SHOWN = 5
# The visitor's look at TAKI: a few of the deck's faces (R2).
SAMPLE_CARDS = ("red:7", "blue:plus2", "green:taki", "yellow:stop", "change-color")


def playing_context() -> dict[str, Any]:
    """``games/partials/playing_now.html``: how many games anyone may watch are being played,
    and the newest few; drawn by the home page and pushed by its lobby socket alike."""
    watchable = listings.watchable_games()
    playing = [listings.ListedGame(table) for table in watchable[:PLAYING_SHOWN]]
    return {
        "playing_now": playing,
        "games_playing": len(playing) if len(playing) < PLAYING_SHOWN else watchable.count(),
    }


def front_context(viewer: AbstractBaseUser | None = None) -> dict[str, Any]:
    """What the home page shows ``viewer`` of the site's life, in a bounded number of queries:
    the count of the games being played, the newest few with their seats, a query per
    leaderboard."""
    leaders = [
        (mode, str(name), leaderboard(mode, LEADERS_SHOWN)) for mode, name in RatingMode.choices
    ]
    return {
        **playing_context(),
        "people_online": online.people_online(viewer),
        "leaders": leaders,
        "any_leaders": any(rows for _mode, _name, rows in leaders),
        "sample_cards": SAMPLE_CARDS,
    }
