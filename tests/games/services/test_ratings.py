"""Ratings: what a game says about its players, which games count, the update as a game ends,
recomputing every rating from the games, and a moderator voiding a game's rating."""

from __future__ import annotations

import json
import random
from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts import guests
from games.engine import make_bot
from games.models import Game, Rating, RatingChange, RatingMode, Seat, Table
from games.services import moves, ratings, tables
from games.services.changes import TableChange
from games.services.errors import ServiceError
from moderation import actions
from moderation.models import ModerationLog
from tests.play import WINNING_RUN

pytestmark = pytest.mark.django_db

User = get_user_model()
# Games between a dozen people for the recompute: enough for each to meet every other often in
# each mode (each game's last moves go through the move path; see ``fast_forward``).
GAMES = 320


def play_run(table: Table, user) -> Game:
    """Seat 0 (``user``) plays WINNING_RUN's first hand out and wins."""
    for card in WINNING_RUN[0]:
        version = Game.objects.get(table=table).version
        moves.submit_action(
            table.pk, user, {"type": "play", "card": card, "version": version, "last_card": True}
        )
    return Game.objects.get(table=table)


def stored() -> dict[tuple[int, str], tuple[float, float, int]]:
    return {(row.user_id, row.mode): (row.mu, row.sigma, row.games) for row in Rating.objects.all()}


# ------------------------------------------------------------------ the ranking rule


def test_the_winner_ranks_first_and_the_others_by_cards_left() -> None:
    assert ratings.ranking([0, 5, 2, 9], winner=0, left=[]) == [0, 2, 1, 3]


def test_players_with_as_many_cards_left_tie() -> None:
    assert ratings.ranking([3, 0, 3, 1], winner=1, left=[]) == [2, 0, 2, 1]


def test_anyone_who_left_ranks_last_whatever_the_bot_then_did() -> None:
    # Seat 0 left and its bot won; seat 2 left with one card: both below everyone who stayed.
    assert ratings.ranking([0, 7, 1, 4], winner=0, left=[0, 2]) == [2, 1, 2, 0]


def test_in_a_tournament_fewer_stages_left_rank_before_fewer_cards() -> None:
    assert ratings.ranking([0, 2, 9], winner=0, left=[], stages=[1, 5, 3]) == [0, 2, 1]


def test_the_mode_is_duel_party_or_tournament() -> None:
    assert ratings.mode_of(Table(seat_count=2)) == RatingMode.DUEL
    assert ratings.mode_of(Table(seat_count=3)) == RatingMode.PARTY
    assert ratings.mode_of(Table(seat_count=2, tournament=True)) == RatingMode.TOURNAMENT


def test_the_shown_rating_starts_at_1500_and_is_provisional_while_sigma_is_high() -> None:
    assert ratings.newcomer_label() == "1500?"
    assert ratings.label(26.0, 5.0) == "1540"
    assert ratings.label(24.0, 7.5) == "1460?"


# ------------------------------------------------------------------ which games count


def test_a_public_table_of_a_signed_up_host_is_rated_by_default(make_table, bob) -> None:
    assert make_table().rated
    assert not make_table(public=False).rated
    assert make_table(public=False, rated=True).rated
    assert not make_table(host=bob, rated=False).rated


def test_a_table_opened_with_bots_is_casual(make_table) -> None:
    assert not make_table(seat_count=3, bot_seats=1, rated=True).rated


def test_a_bot_at_the_start_makes_the_game_casual(make_table, alice, bob) -> None:
    table = make_table(seat_count=3, players=[bob])
    tables.add_bot(table.pk, alice, 2)
    tables.start_game(table.pk, alice)
    table.refresh_from_db()
    assert not table.rated


def test_a_game_against_bots_is_casual(alice) -> None:
    assert not tables.play_against_bots(alice, opponents=1).rated


def test_a_guest_cannot_play_rated(make_table) -> None:
    guest = guests.create_guest()
    table = make_table()
    with pytest.raises(ServiceError) as caught:
        tables.join_table(table.pk, guest)
    assert caught.value.code == "forbidden"
    assert "signed-up" in caught.value.message
    with pytest.raises(ServiceError):
        tables.create_table(guest, name="Mine", seat_count=2, rated=True)


def test_a_rematch_is_rated_as_its_table_was(make_table, alice, bob, rig) -> None:
    from games.services import rematch

    table = make_table(players=[bob], start=True, turn_seconds=None)
    rig(table, WINNING_RUN, leading="red:9")
    play_run(table, alice)
    assert rematch.offer_rematch(table.pk, alice).rated


def test_an_abandoned_or_aborted_game_counts_for_no_one(make_table, alice, bob, moderator) -> None:
    abandoned = make_table(players=[bob], start=True, turn_seconds=None)
    tables.leave_table(abandoned.pk, alice)
    tables.leave_table(abandoned.pk, bob)
    aborted = make_table(players=[bob], start=True, turn_seconds=None)
    actions.abort(moderator, aborted, "spam")

    assert not RatingChange.objects.exists() and not Rating.objects.exists()


def test_a_casual_game_changes_no_rating(make_table, alice, bob, rig) -> None:
    table = make_table(players=[bob], start=True, turn_seconds=None, rated=False)
    rig(table, WINNING_RUN, leading="red:9")
    play_run(table, alice)
    assert not RatingChange.objects.exists() and not Rating.objects.exists()


# ------------------------------------------------------------------ the update as a game ends


def test_the_last_move_of_a_rated_game_rates_its_players(make_table, alice, bob, rig) -> None:
    table = make_table(players=[bob], start=True, turn_seconds=None)
    rig(table, WINNING_RUN, leading="red:9")
    for card in WINNING_RUN[0][:7]:
        version = Game.objects.get(table=table).version
        moves.submit_action(table.pk, alice, {"type": "play", "card": card, "version": version})
        assert not Rating.objects.exists()  # no move but the last touches the ratings
    game = play_run_last(table, alice)

    won, lost = (RatingChange.objects.get(game=game, user=user) for user in (alice, bob))
    assert (won.rank, lost.rank, won.mode) == (0, 1, RatingMode.DUEL)
    assert won.shown_before == lost.shown_before == 1500
    assert won.delta > 0 > lost.delta
    assert won.ended_at == game.finished_at
    alice_rating = Rating.objects.get(user=alice, mode=RatingMode.DUEL)
    assert (alice_rating.mu, alice_rating.sigma, alice_rating.games) == (
        won.mu_after,
        won.sigma_after,
        1,
    )
    assert alice_rating.sigma < ratings.MODEL.sigma


def test_the_move_that_wins_a_rated_game_hands_its_rating_changes_to_the_push_in_its_change(
    make_table, alice, bob, rig, states
) -> None:
    table = make_table(players=[bob], start=True, turn_seconds=None)
    rig(table, WINNING_RUN, leading="red:9")

    game = play_run(table, alice)

    assert len(states) == len(WINNING_RUN[0])
    assert all(state.rating_changes == () for state in states[:-1])
    last = states[-1]
    assert isinstance(last.rating_changes, tuple)
    assert {(change.user_id, change.delta) for change in last.rating_changes} == {
        (change.user_id, change.delta) for change in RatingChange.objects.filter(game=game)
    }
    assert {change.user_id for change in last.rating_changes} == {alice.pk, bob.pk}
    # They cross to the other processes with the rest of the change.
    assert TableChange.from_json(json.loads(json.dumps(last.to_json()))) == last


def winning_move_statements(make_table, rig, host, other, *, rated: bool) -> int:
    """How many statements the move that wins a rigged duel of ``host`` and ``other`` runs."""
    table = make_table(host=host, players=[other], start=True, turn_seconds=None, rated=rated)
    rig(table, WINNING_RUN, leading="red:9")
    for card in WINNING_RUN[0][:7]:
        version = Game.objects.get(table=table).version
        moves.submit_action(table.pk, host, {"type": "play", "card": card, "version": version})
    version = Game.objects.get(table=table).version
    with CaptureQueriesContext(connection) as queries:
        moves.submit_action(table.pk, host, {"type": "play", "card": "red:8", "version": version})
    assert Game.objects.get(table=table).finished
    return len(queries)


def test_rating_a_won_duel_adds_three_statements_to_its_last_move(
    make_table, alice, bob, rig
) -> None:
    casual = winning_move_statements(make_table, rig, alice, bob, rated=False)
    # Newcomers' ratings are created; then the same two players' are updated.
    first = winning_move_statements(make_table, rig, alice, bob, rated=True)
    second = winning_move_statements(make_table, rig, bob, alice, rated=True)

    # The ratings locked, the ratings written, the changes: the seats are the move path's.
    assert first - casual == second - casual == 3
    assert Rating.objects.filter(games=2).count() == 2


def play_run_last(table: Table, user) -> Game:
    version = Game.objects.get(table=table).version
    moves.submit_action(
        table.pk, user, {"type": "play", "card": WINNING_RUN[0][7], "version": version}
    )
    return Game.objects.get(table=table)


def test_a_player_who_left_ranks_last_even_when_their_bot_wins(make_table, alice, bob, rig) -> None:
    table = make_table(players=[bob], start=True, turn_seconds=None)
    rig(table, WINNING_RUN, leading="red:9")
    for card in WINNING_RUN[0][:7]:
        version = Game.objects.get(table=table).version
        moves.submit_action(table.pk, alice, {"type": "play", "card": card, "version": version})
    tables.leave_table(table.pk, alice)  # one card from winning; a bot plays it
    moves.advance(Game.objects.get(table=table).pk, timezone.now() + timedelta(hours=1))

    game = Game.objects.get(table=table)
    assert game.winner == 0
    changes = {change.user_id: change for change in game.rating_changes.all()}
    assert (changes[alice.pk].rank, changes[bob.pk].rank) == (1, 0)
    assert changes[alice.pk].delta < 0 < changes[bob.pk].delta


# ------------------------------------------------------------------ recompute and void


def fast_forward(table: Table, rng: random.Random) -> None:
    """Play the table's started game with greedy bots in the engine alone to a few moves before
    its end, and store that position as the game's: the moves before write nothing a rating
    reads (only the position at the end, the winner and the seats count), so they are spared
    the move path, as a rigged deal is. The last moves go through the move path and end the
    game where every game ends (``finish``)."""
    game = Game.objects.get(table=table)
    engine = game.engine()
    bot = make_bot("greedy", rng)
    played = []
    while not engine.finished:
        action = bot.choose(engine, engine.seats_to_act()[0])
        engine.apply(action)
        played.append(action)
    position = game.engine()
    for action in played[: max(0, len(played) - rng.randint(1, 4))]:
        position.apply(action)
    Game.objects.filter(pk=game.pk).update(state=position.to_snapshot())


def play_mixed(table: Table, users: dict[int, object], rng: random.Random) -> Game:
    """Play a started table to its end through the move path: a greedy bot chooses for each
    person (``moves.submit_action``), and a seat a bot holds is played by the server, as the
    clock would, at once (its move made due now), so that the games end in the order they are
    played."""
    bot = make_bot("greedy", rng)
    for _ in range(3000):
        game = Game.objects.get(table=table)
        if game.finished:
            return game
        engine = game.engine()
        seat = engine.seats_to_act()[0]
        if users[seat] is None:
            now = timezone.now()
            Game.objects.filter(pk=game.pk).update(next_due=now)
            moves.advance(game.pk, now)
            continue
        action = bot.choose(engine, seat).to_json()
        moves.submit_action(table.pk, users[seat], {**action, "version": game.version})
    raise AssertionError("the game did not finish")


def seated(table: Table) -> dict[int, object]:
    """Each seat's person, None where a bot sits."""
    return {seat.position: seat.user for seat in table.seats.select_related("user")}


def test_recomputing_replays_every_rated_game_into_exactly_the_stored_ratings(moderator) -> None:
    """Hundreds of games between a dozen people, in the three modes, some casual, some with a
    leaver, one voided by a moderator midway: the ratings the games' ends wrote one by one are
    exactly the ones the recompute arrives at from the games alone."""
    rng = random.Random(2026)
    people = [User.objects.create_user(f"player{n}") for n in range(12)]
    voided = None
    for number in range(GAMES):
        host, *others = rng.sample(people, rng.choice([2, 2, 2, 3, 4, 6]))
        table = tables.create_table(
            host,
            name=f"Game {number}",
            seat_count=len(others) + 1,
            turn_seconds=None,
            tournament=number % 8 == 0,
            rated=number % 10 != 0,  # some casual games among them
        )
        for person in others:
            tables.join_table(table.pk, person)
        tables.start_game(table.pk, host)
        fast_forward(table, rng)
        if number % 7 == 3:  # someone leaves: a bot takes their seat, they rank last
            tables.leave_table(table.pk, seated(table)[len(others)])
        play_mixed(table, seated(table), rng)
        if number == GAMES // 2:  # a moderator voids a rated game played earlier
            voided = Game.objects.filter(table__rated=True, table__name="Game 101").get()
            assert actions.void_rating(moderator, voided, "a collusion found later")
    before = stored()
    changes = set(
        RatingChange.objects.values_list("game", "user", "mu_after", "sigma_after", "rank")
    )
    modes = set(RatingChange.objects.values_list("mode", flat=True))
    assert modes == {RatingMode.DUEL, RatingMode.PARTY, RatingMode.TOURNAMENT}
    assert len(before) >= 30 and len(changes) > 600
    assert Seat.objects.exclude(replaced_user=None).count() >= GAMES // 8
    assert not voided.rating_changes.exists()

    out = StringIO()
    call_command("recompute_ratings", stdout=out)

    assert stored() == before  # to the last bit of every float
    assert (
        set(RatingChange.objects.values_list("game", "user", "mu_after", "sigma_after", "rank"))
        == changes
    )
    assert not voided.rating_changes.exists()
    assert "rated games replayed" in out.getvalue()


def test_voiding_a_games_rating_recomputes_everyone_without_it(
    make_table, alice, bob, carol, moderator, rig
) -> None:
    first = make_table(players=[bob], start=True, turn_seconds=None)
    rig(first, WINNING_RUN, leading="red:9")
    first_game = play_run(first, alice)
    second = make_table(host=carol, players=[bob], start=True, turn_seconds=None)
    rig(second, WINNING_RUN, leading="red:9")
    play_run(second, carol)
    bob_after_both = Rating.objects.get(user=bob).mu

    assert actions.void_rating(moderator, first_game, "alice and bob colluded")

    first_game.refresh_from_db()
    assert first_game.rating_voided_at is not None
    assert not first_game.rating_changes.exists()
    assert not Rating.objects.filter(user=alice).exists()
    bob_now = Rating.objects.get(user=bob)
    assert bob_now.games == 1 and bob_now.mu != bob_after_both
    # Bob's one game left counts as his first: a newcomer's loss to a newcomer.
    assert RatingChange.objects.get(user=bob).shown_before == 1500
    entry = ModerationLog.objects.get(action=ModerationLog.Action.VOID_RATING)
    assert (entry.actor, entry.reason) == (moderator, "alice and bob colluded")
    assert entry.object_url.endswith(f"/game/{first_game.pk}/change/")
    # Once is enough; the recompute keeps it out.
    assert not actions.void_rating(moderator, first_game, "again")
    ratings.recompute()
    assert not first_game.rating_changes.exists()
    assert ModerationLog.objects.filter(action=ModerationLog.Action.VOID_RATING).count() == 1


def test_voiding_needs_a_reason_and_a_rated_game(make_table, alice, bob, moderator, rig) -> None:
    table = make_table(players=[bob], start=True, turn_seconds=None, rated=False)
    rig(table, WINNING_RUN, leading="red:9")
    game = play_run(table, alice)
    with pytest.raises(ServiceError) as caught:
        actions.void_rating(moderator, game, "  ")
    assert caught.value.code == "bad_request"
    assert not actions.void_rating(moderator, game, "casual anyway")
    assert not ModerationLog.objects.filter(action=ModerationLog.Action.VOID_RATING).exists()


def test_a_seat_begun_by_a_bot_keeps_a_game_casual_even_on_a_rated_table(
    make_table, alice, bob
) -> None:
    table = make_table(players=[bob], start=True, turn_seconds=None)
    Seat.objects.filter(table=table, position=1).update(user=None, bot="random")
    game = Game.objects.get(table=table)
    game.winner, game.finished_at = 0, timezone.now()

    assert table.rated
    assert ratings.rate_game(table, game, won=True) == []
    assert not RatingChange.objects.exists() and not Rating.objects.exists()
