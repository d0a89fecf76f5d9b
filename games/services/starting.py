"""How a game begins, whichever way it was asked for (the host's start, one click against
bots, a rematch, quick match): the seats closed up, rated or casual decided, the deck shuffled and
the first player drawn (R4, R5); and how many games against bots alone one person may play."""

from __future__ import annotations

import random
import secrets
from datetime import datetime

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Exists, OuterRef, QuerySet
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts import guests
from games.engine import GameState, shuffled_deck
from games.models import MAX_SEATS, MIN_SEATS, Game, Seat, Table
from games.services import broadcast, lifecycle, online
from games.services.errors import ServiceError
from games.services.moves import SCHEDULED, schedule

User = AbstractBaseUser


def unfinished_bot_games(user: User) -> QuerySet[Table]:
    """The running games ``user`` plays with bots and no other person, newest first."""
    other_people = Seat.objects.filter(table=OuterRef("pk"), user__isnull=False).exclude(user=user)
    return (
        Table.objects.filter(status=Table.Status.PLAYING, seats__user=user)
        .exclude(Exists(other_people))
        .select_related("host")
        .order_by("-created_at", "-pk")
    )


def check_bot_games(user: User) -> None:
    """Refuse another game against bots to a person who already plays
    ``settings.BOT_GAMES_PER_PERSON`` unfinished ones. Call it inside the transaction that
    starts the game.

    :raises ServiceError: ``too_many_games``.
    """
    # Serialise one person's starts, so two at once cannot both pass the count.
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    playing = unfinished_bot_games(user).count()
    if playing >= settings.BOT_GAMES_PER_PERSON:
        raise ServiceError(
            "too_many_games",
            ngettext(
                "You already play %(count)d game against bots: finish or leave it first.",
                "You already play %(count)d games against bots: finish or leave one first.",
                playing,
            )
            % {"count": playing},
        )


def start_seated(table: Table, now: datetime) -> Game:
    """Start the table's game, whichever way it was asked for (the host, playing against bots,
    a rematch against bots alone): a person alone with bots may play only so many at once.

    :raises ServiceError: ``forbidden`` (fewer than two filled seats); ``too_many_games``.
    """
    seats = list(table.seats.select_related("user").order_by("position"))
    filled = [seat for seat in seats if not seat.is_empty]
    if len(filled) < MIN_SEATS:
        raise ServiceError("forbidden", _("At least two seats must be filled to start."))
    people = [seat.user for seat in filled if seat.user_id is not None]
    if len(people) == 1:
        check_bot_games(people[0])
    # Only signed-up people play rated, and only against each other: a bot or a guest at the
    # start makes the game casual for everyone.
    if table.rated and (len(people) < len(filled) or any(map(guests.is_guest, people))):
        table.rated = False
        table.save(update_fields=["rated"])
    # Drop the empty seats and renumber the rest in order; two passes because positions are
    # unique per table.
    Seat.objects.filter(pk__in=[s.pk for s in seats if s.is_empty]).delete()
    for index, seat in enumerate(filled):
        seat.position = MAX_SEATS + 100 + index
        seat.save(update_fields=["position"])
    for index, seat in enumerate(filled):
        seat.position = index
        seat.save(update_fields=["position"])
    rng = random.Random(random.SystemRandom().getrandbits(128))
    deck = shuffled_deck(rng)
    seed = secrets.token_hex(8)
    first = secrets.randbelow(len(filled))  # R5
    with translation.override("en"):  # the record's names do not depend on a visitor's language
        players = [seat.display_name for seat in filled]
    engine = GameState(deck, len(filled), first, seed, table.tournament)
    game = Game.objects.create(
        table=table,
        seed=seed,
        players=players,
        deck=deck,
        first_player=first,
        tournament=table.tournament,
        state=engine.to_snapshot(),
        version=0,
    )
    table.status = Table.Status.PLAYING
    table.seat_count = len(filled)
    table.save(update_fields=["status", "seat_count"])
    schedule(game, engine, now, seats=filled)
    game.save(update_fields=SCHEDULED)
    broadcast.table_changed(table.pk)
    broadcast.lobby_changed()
    online.playing_changed(seat.user_id for seat in filled)  # their friends see them playing
    lifecycle.started(table.pk, game.pk, (seat.user_id for seat in filled))
    return game
