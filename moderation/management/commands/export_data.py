"""``manage.py export_data``: one game's record, or everything the site holds about a person,
as JSON: what a person asking for their data is owed."""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db.models import Q

from games.models import ChatMessage, Game, Seat
from games.services import history, stats
from moderation.models import Report

FORMAT = "taki-user-data/1"


def _when(moment) -> str | None:
    return moment.isoformat() if moment else None


def game_record(game_id: int) -> dict[str, Any]:
    """The finished game's taki-record/1 export, as /games/<id>/record.json serves it.

    :raises CommandError: for no such game, or one not finished (its record holds the deck).
    """
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise CommandError(f"There is no game {game_id}.")
    if not game.finished:
        raise CommandError(f"Game {game_id} is not over: its record is published at the end.")
    return history.export_record(game)


def user_data(user: AbstractBaseUser) -> dict[str, Any]:
    """The person's profile, statistics, the games they sat at (finished ones as records), the
    chat lines they wrote and the reports they filed."""
    counts = stats.player_stats(user, viewer=user)
    seats = (
        Seat.objects.filter(Q(user=user) | Q(replaced_user=user), table__game__isnull=False)
        .select_related("table__game")
        .order_by("table__game__started_at")
    )
    games = []
    for seat in seats:
        game = seat.table.game
        entry: dict[str, Any] = {
            "game_id": game.pk,
            "table": seat.table.name,
            "seat": seat.position,
            "started_at": _when(game.started_at),
            "finished": game.finished,
        }
        if game.finished:
            entry["record"] = history.export_record(game)
        games.append(entry)
    chat = ChatMessage.objects.filter(author=user).order_by("created_at")
    reports = Report.objects.filter(filer=user).select_related("target").order_by("created_at")
    return {
        "format": FORMAT,
        "profile": {
            "username": user.get_username(),
            "email": getattr(user, "email", ""),
            "date_joined": _when(getattr(user, "date_joined", None)),
            "last_login": _when(user.last_login),
            "is_active": user.is_active,
            "guest": hasattr(user, "guest"),
        },
        "statistics": {key: counts[key] for key in ("played", "won", "left", "win_rate")},
        "games": games,
        "chat": [
            {
                "table_id": line.table_id,
                "room": line.room,
                "text": line.text,
                "sent_at": _when(line.created_at),
                "hidden": line.hidden_at is not None,
            }
            for line in chat
        ],
        "reports_filed": [
            {
                "about": report.target.get_username(),
                "category": report.category,
                "comment": report.comment,
                "table_id": report.table_id,
                "status": report.status,
                "filed_at": _when(report.created_at),
            }
            for report in reports
        ],
    }


class Command(BaseCommand):
    help = (
        "Export one finished game's record (--game ID, the taki-record/1 of "
        "/games/<id>/record.json) or one person's data (--user NAME: profile, statistics, "
        "games as records, chat lines, reports filed) as JSON, to stdout or --output FILE."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        which = parser.add_mutually_exclusive_group(required=True)
        which.add_argument("--game", type=int, help="a game's id")
        which.add_argument("--user", help="a username (any case)")
        parser.add_argument("--output", help="write to this file instead of stdout")

    def handle(self, *args, game: int | None, user: str | None, output: str | None, **options):
        if game is not None:
            data = game_record(game)
        else:
            person = get_user_model().objects.filter(username__iexact=user).first()
            if person is None:
                raise CommandError(f"There is no user {user!r}.")
            data = user_data(person)
        text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
        if output:
            with open(output, "w", encoding="utf-8") as file:
                file.write(text)
        else:
            self.stdout.write(text, ending="")
