"""Players' ratings: OpenSkill's Plackett–Luce model, one rating per person and mode.

A rated game that is won updates its players' ratings in the transaction that ends it
(:func:`rate_game`, called by ``finish._after_finish``, so on the last move alone). Every rated
game can be replayed in the order the games ended (:func:`recompute`) and gives exactly the
stored ratings again: both paths go through :func:`_rate`. docs/ratings.md says what a game
says about its players and which games count.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from openskill.models import PlackettLuce

from games.models import Game, Rating, RatingChange, RatingMode, Seat, Table

# OpenSkill's defaults: a newcomer is mu 25, sigma 25/3.
MODEL = PlackettLuce()
# The number shown: 1500 for a newcomer, 40 points per unit of mu.
SHOWN_BASE, SHOWN_PER_MU = 1500, 40
# A rating is provisional ("1500?") while its sigma is above this: eight duels for a newcomer.
PROVISIONAL_SIGMA = 7.0


def shown(mu: float) -> int:
    """The rating as the site shows it."""
    return round(SHOWN_BASE + SHOWN_PER_MU * (mu - MODEL.mu))


def provisional(sigma: float) -> bool:
    return sigma > PROVISIONAL_SIGMA


def label(mu: float, sigma: float) -> str:
    """``"1532"``, or ``"1532?"`` while the rating is provisional."""
    return f"{shown(mu)}?" if provisional(sigma) else str(shown(mu))


def newcomer_label() -> str:
    return label(MODEL.mu, MODEL.sigma)


def mode_of(table: Table) -> str:
    """The rating a table's game counts for: turn-based, R22's stages, two people, or three to
    ten."""
    if table.turn_days:
        return RatingMode.TURN_BASED
    if table.tournament:
        return RatingMode.TOURNAMENT
    return RatingMode.DUEL if table.seat_count == 2 else RatingMode.PARTY


def ranking(
    cards: Sequence[int],
    winner: int | None,
    left: Iterable[int],
    stages: Sequence[int] | None = None,
) -> list[int]:
    """Each seat's rank (0 is first, equal ranks tie) from how a game ended: the winner first;
    then those who stayed, by fewer stages still to play (R22) and then fewer cards left; those
    who left (a bot took their seat) last, tied, whatever the bot then did."""
    gone = set(left)

    def key(seat: int) -> tuple[int, ...]:
        if seat in gone:
            return (2,)
        if seat == winner:
            return (0,)
        return (1, stages[seat] if stages else 0, cards[seat])

    keys = [key(seat) for seat in range(len(cards))]
    order = sorted(set(keys))
    return [order.index(k) for k in keys]


@dataclass(frozen=True, slots=True)
class _Belief:
    mu: float
    sigma: float
    games: int


def _people(seats: Sequence[Seat]) -> list[int] | None:
    """Each seat's person (the one who sat there at the start), or None if a seat began with a
    bot or without a person, or one person sat twice: such a game is casual."""
    people = [seat.replaced_user_id or seat.user_id for seat in seats]
    if any(person is None for person in people) or len(set(people)) != len(people):
        return None
    return people  # type: ignore[return-value]


def _rate(
    game: Game, table: Table, seats: Sequence[Seat], beliefs: dict[tuple[int, str], _Belief]
) -> list[RatingChange]:
    """Rate one won game from ``beliefs`` (each person's rating before it, by person and mode;
    a newcomer's is missing), updating them. Returns the game's rating changes, unsaved."""
    people = _people(seats)
    if people is None or len(people) < 2 or game.winner is None:
        return []
    mode = mode_of(table)
    state = game.state
    ranks = ranking(
        [len(hand) for hand in state["hands"]],
        game.winner,
        [seat.position for seat in seats if seat.replaced_user_id is not None],
        state.get("stages"),
    )
    newcomer = _Belief(MODEL.mu, MODEL.sigma, 0)
    before = [beliefs.get((person, mode), newcomer) for person in people]
    teams = [[MODEL.rating(mu=belief.mu, sigma=belief.sigma)] for belief in before]
    after = MODEL.rate(teams, ranks=ranks)
    changes = []
    for person, rank, old, (new,) in zip(people, ranks, before, after, strict=True):
        beliefs[person, mode] = _Belief(new.mu, new.sigma, old.games + 1)
        changes.append(
            RatingChange(
                game=game,
                user_id=person,
                mode=mode,
                rank=rank,
                mu_before=old.mu,
                sigma_before=old.sigma,
                mu_after=new.mu,
                sigma_after=new.sigma,
                shown_before=shown(old.mu),
                shown_after=shown(new.mu),
                ended_at=game.finished_at,
            )
        )
    return changes


def rate_game(
    table: Table, game: Game | None, *, won: bool, seats: Sequence[Seat] | None = None
) -> list[RatingChange]:
    """Update the ratings of a rated game's players as it ends: call it in the transaction that
    ends it, once the result is written. A casual game, one not won (abandoned, aborted,
    forfeited) counts for no one. ``seats``, the table's seats in order, are those the caller
    holds (the move path's); they are read otherwise.

    Returns the changes written: the move that won the game hands them to its push
    (``changes.TableChange``), which shows them without reading them back. Three statements:
    the ratings locked, the ratings written (updated, or created for newcomers, in one upsert),
    the changes.
    """
    if not (won and table.rated and game is not None):
        return []
    if seats is None:
        seats = list(Seat.objects.filter(table=table).order_by("position"))
    people = _people(seats)
    if people is None:
        return []
    mode = mode_of(table)
    # Locked, so that two games ending at once with a player in common both count.
    rows = Rating.objects.select_for_update().filter(user_id__in=people, mode=mode)
    beliefs = {
        (uid, mode): _Belief(mu, sigma, games)
        for uid, mu, sigma, games in rows.values_list("user_id", "mu", "sigma", "games")
    }
    changes = _rate(game, table, seats, beliefs)
    # One statement for newcomers and the others alike: an upsert on (user, mode).
    written = []
    for change in changes:
        belief = beliefs[change.user_id, mode]
        written.append(
            Rating(
                user_id=change.user_id,
                mode=mode,
                mu=belief.mu,
                sigma=belief.sigma,
                games=belief.games,
                updated_at=game.finished_at,
            )
        )
    Rating.objects.bulk_create(
        written,
        update_conflicts=True,
        unique_fields=["user", "mode"],
        update_fields=["mu", "sigma", "games", "updated_at"],
    )
    RatingChange.objects.bulk_create(changes)
    return changes


def rated_games() -> Iterable[Game]:
    """Every game that counts, in the order the games ended."""
    return (
        Game.objects.filter(
            table__rated=True,
            table__status=Table.Status.FINISHED,
            winner__isnull=False,
            rating_voided_at__isnull=True,
        )
        .select_related("table")
        .prefetch_related("table__seats")
        .order_by("finished_at", "pk")
    )


def recompute() -> int:
    """Forget every rating and replay every rated game in the order they ended, as
    :func:`rate_game` rated them. Returns how many games were rated."""
    with transaction.atomic():
        RatingChange.objects.all().delete()
        Rating.objects.all().delete()
        beliefs: dict[tuple[int, str], _Belief] = {}
        last: dict[tuple[int, str], datetime] = {}
        changes: list[RatingChange] = []
        rated = 0
        for game in rated_games().iterator(chunk_size=200):
            seats = sorted(game.table.seats.all(), key=lambda seat: seat.position)
            game_changes = _rate(game, game.table, seats, beliefs)
            rated += bool(game_changes)
            for change in game_changes:
                last[change.user_id, change.mode] = change.ended_at
            changes.extend(game_changes)
        Rating.objects.bulk_create(
            Rating(
                user_id=user_id,
                mode=mode,
                mu=belief.mu,
                sigma=belief.sigma,
                games=belief.games,
                updated_at=last[user_id, mode],
            )
            for (user_id, mode), belief in beliefs.items()
        )
        RatingChange.objects.bulk_create(changes, batch_size=500)
    return rated


def void(game: Game) -> bool:
    """Take a rated game out of everyone's ratings for good, and recompute them all. False if
    it had no rating change to take back (casual, not won, or voided already)."""
    with transaction.atomic():
        locked = Game.objects.select_for_update().get(pk=game.pk)
        if locked.rating_voided_at is not None or not locked.rating_changes.exists():
            return False
        locked.rating_voided_at = game.rating_voided_at = timezone.now()
        locked.save(update_fields=["rating_voided_at"])
        recompute()
    return True
