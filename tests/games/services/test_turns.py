"""Turn-based tables: days per move through the clock, reminders, vacations, the cap, "your
move", their own rating."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from games.models import Game, Move, RatingMode, Seat, Table
from games.services import moves, ratings, tables, turns
from games.services.errors import ServiceError
from social.models import Notification

pytestmark = pytest.mark.django_db

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
HANDS = [
    ["red:1", "red:3", "blue:3", "red:plus2", "plus3", "blue:1", "green:1", "yellow:1"],
    ["red:6", "red:7", "blue:6", "blue:7", "green:6", "green:7", "yellow:6", "breaker"],
]


@pytest.fixture
def traveller():
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller


@pytest.fixture
def turn_based(traveller, alice, bob, make_table, rig) -> Table:
    """alice (seat 0, to play) and bob, two days a move."""
    table = make_table(players=[bob], start=True, turn_days=2)
    Notification.objects.all().delete()  # the deal's first player is told again as rigged
    Game.objects.filter(table=table).update(to_act=[])
    rig(table, HANDS)
    return table


def told(user, kind: str) -> list[Notification]:
    return list(Notification.objects.filter(recipient=user, kind=kind).order_by("pk"))


def play(table: Table, user, **action) -> None:
    game = Game.objects.get(table=table)
    moves.submit_action(table.pk, user, {**action, "version": game.version})


def test_a_turn_based_table_gives_days_per_move_and_no_seconds(turn_based):
    game = Game.objects.get(table=turn_based)
    assert turn_based.turn_days == 2 and turn_based.turn_seconds is None
    assert game.turn_deadline == START + timedelta(days=2)
    assert game.turn_reminder == START + timedelta(days=1)
    assert game.next_due == game.turn_reminder
    assert game.to_act == [0]


def test_days_not_offered_are_refused(alice):
    with pytest.raises(ServiceError) as refused:
        tables.create_table(alice, name="Slow", seat_count=2, turn_days=4)
    assert refused.value.code == "bad_request"


def test_a_whole_game_over_days(turn_based, traveller, alice, bob):
    """Moves days apart, the turn told each time, a reminder, a deadline reached."""
    assert len(told(alice, Notification.Kind.YOUR_MOVE)) == 1  # her first move
    traveller.shift(timedelta(hours=30))  # a day and six hours: less than a day left
    moves.advance(Game.objects.get(table=turn_based).pk)
    assert len(told(alice, Notification.Kind.MOVE_REMINDER)) == 1
    assert Game.objects.get(table=turn_based).version == 0  # a reminder plays nothing

    play(turn_based, alice, type="play", card="red:1")
    game = Game.objects.get(table=turn_based)
    assert game.to_act == [1]
    assert game.turn_deadline == START + timedelta(hours=30) + timedelta(days=2)
    [yours] = told(bob, Notification.Kind.YOUR_MOVE)
    assert yours.data["url"] == turn_based.page_url()

    traveller.shift(timedelta(days=1, hours=1))  # bob reminded once, nothing more
    moves.advance(game.pk)
    moves.advance(game.pk)
    assert len(told(bob, Notification.Kind.MOVE_REMINDER)) == 1

    traveller.shift(timedelta(days=1))  # bob's two days are up: R23's timeout plays for him
    moves.advance(game.pk)
    game.refresh_from_db()
    last = Move.objects.filter(game=game).order_by("-seq").first()
    assert last.source == Move.Source.TIMEOUT and last.seat == 1
    assert Seat.objects.get(table=turn_based, position=1).timeouts == 1
    assert game.to_act == [0]
    assert len(told(alice, Notification.Kind.YOUR_MOVE)) == 2


def test_three_timeouts_in_a_row_give_the_seat_to_a_bot(turn_based, traveller, bob):
    game = Game.objects.get(table=turn_based)
    for _timeout in range(5):  # alice, bob, alice, bob, alice
        traveller.shift(timedelta(days=2, seconds=1))
        moves.advance(game.pk)
    seat = Seat.objects.get(table=turn_based, position=0)
    assert seat.bot and seat.replaced_because == Seat.Takeover.TIMEOUTS
    assert Seat.objects.get(table=turn_based, position=1).timeouts == 2


def test_a_vacation_stops_the_clock_of_a_move_running(turn_based, traveller, alice):
    traveller.shift(timedelta(hours=12))
    turns.take_vacation(alice, 3)
    game = Game.objects.get(table=turn_based)
    assert game.turn_deadline == START + timedelta(days=5)
    assert game.turn_reminder == START + timedelta(days=4)
    traveller.shift(timedelta(days=3))  # three and a half days since the move came to her
    moves.advance(game.pk)
    assert Game.objects.get(pk=game.pk).version == 0  # no timeout: she is on vacation
    traveller.shift(timedelta(days=1, hours=13))
    moves.advance(game.pk)
    assert Game.objects.get(pk=game.pk).version == 1  # five days' clock: two running


def test_a_move_that_comes_during_a_vacation_waits_for_its_end(turn_based, traveller, bob):
    turns.take_vacation(bob, 4, starts_at=START + timedelta(hours=1))
    traveller.shift(timedelta(hours=2))
    play(turn_based, Seat.objects.get(table=turn_based, position=0).user, type="play", card="red:1")
    game = Game.objects.get(table=turn_based)
    assert game.turn_deadline == START + timedelta(days=4, hours=1) + timedelta(days=2)


def test_vacations_have_a_yearly_allowance(traveller, alice):
    turns.take_vacation(alice, 20)
    with pytest.raises(ServiceError) as refused:
        turns.take_vacation(alice, 5)  # overlapping
    assert refused.value.code == "bad_request"
    with pytest.raises(ServiceError) as refused:
        turns.take_vacation(alice, 11, starts_at=START + timedelta(days=40))
    assert refused.value.code == "forbidden" and "10 days" in refused.value.message
    turns.take_vacation(alice, 10, starts_at=START + timedelta(days=40))


def test_the_cap_of_turn_based_games_is_refused_in_words(traveller, alice, bob, carol, make_table):
    for number in range(turns.MAX_TURN_BASED):
        make_table(name=f"Slow {number}", players=[bob], start=True, turn_days=1)
    with pytest.raises(ServiceError) as refused:
        tables.create_table(bob, name="One more", seat_count=2, turn_days=1)
    assert refused.value.code == "forbidden"
    assert refused.value.message == (
        "You already play 20 turn-based games, the most at once: finish one first."
    )
    tables.create_table(bob, name="Live", seat_count=2)  # a live table is not counted
    mine = tables.create_table(carol, name="Carol's", seat_count=2, turn_days=3)
    with pytest.raises(ServiceError) as refused:
        tables.join_table(mine.pk, bob)
    assert refused.value.code == "forbidden"


def test_your_move_is_counted_and_listed_first(turn_based, traveller, alice, bob, make_table):
    other = make_table(name="Another", players=[bob], start=True, turn_days=1)
    Game.objects.filter(table=other).update(to_act=[1])  # bob's move there
    waiting = make_table(name="Waiting", turn_days=7)
    assert turns.my_move_count(alice) == 1
    assert turns.my_move_count(bob) == 1
    rows = turns.my_games(alice)
    assert [row.table.pk for row in rows] == [turn_based.pk, other.pk, waiting.pk]
    assert [row.my_move for row in rows] == [True, False, False]


def test_turn_based_games_have_a_rating_of_their_own(turn_based):
    assert ratings.mode_of(turn_based) == RatingMode.TURN_BASED


def test_a_live_table_keeps_no_list_of_seats_to_act(alice, bob, make_table):
    table = make_table(players=[bob], start=True)
    game = Game.objects.get(table=table)
    assert game.to_act == [] and game.turn_reminder is None
    assert not Notification.objects.filter(kind=Notification.Kind.YOUR_MOVE).exists()


class Captured:
    """The outbox's sender double: what each person was sent, by e-mail and by push."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, str, str]] = []  # (channel, to, words)

    def email(self, address, message) -> None:
        self.sent.append(("email", address, message.body))

    def push(self, subscription, message) -> None:
        self.sent.append(("push", subscription.user.get_username(), message.body))


def test_each_turn_over_days_is_told_by_email_and_push(
    turn_based, traveller, alice, bob, django_capture_on_commit_callbacks
):
    from outbox import sending
    from outbox.models import PushSubscription

    bob.email = "bob@example.com"
    bob.save()
    sending.set_preferences(bob, email=True, push=False)
    sending.set_preferences(alice, email=False, push=True)
    PushSubscription.objects.create(
        user=alice, endpoint="https://push.example/alice", p256dh="k", auth="a"
    )
    captured = Captured()

    def then(step) -> list[tuple[str, str, str]]:
        with django_capture_on_commit_callbacks(execute=True):
            step()
        before = len(captured.sent)
        sending.deliver_due(captured)
        return captured.sent[before:]

    game = Game.objects.get(table=turn_based)
    assert then(lambda: play(turn_based, alice, type="play", card="red:1")) == [
        ("email", "bob@example.com", "Your move at Friday game.")
    ]
    traveller.shift(timedelta(days=1, hours=2))
    assert then(lambda: moves.advance(game.pk)) == [
        ("email", "bob@example.com", "Less than a day left for your move at Friday game.")
    ]
    traveller.shift(timedelta(days=1))  # bob's deadline: the timeout plays, alice is told
    assert then(lambda: moves.advance(game.pk)) == [("push", "alice", "Your move at Friday game.")]
    turns.take_vacation(alice, 2)  # her clock stops: no reminder until the vacation is over
    traveller.shift(timedelta(days=2))
    assert then(lambda: moves.advance(game.pk)) == []
    traveller.shift(timedelta(days=1, hours=1))
    assert then(lambda: moves.advance(game.pk)) == [
        ("push", "alice", "Less than a day left for your move at Friday game.")
    ]


def test_a_turn_based_game_nobody_has_open_is_not_abandoned(turn_based, traveller):
    from games.services import abandon

    traveller.shift(timedelta(hours=20))
    assert abandon.end_abandoned() == []
    assert Table.objects.get(pk=turn_based.pk).status == Table.Status.PLAYING


def test_a_turn_based_challenge_is_refused_beyond_the_cap_and_starts_beside_live_play(
    traveller, alice, bob, carol, make_table
):
    from games.services import challenges

    make_table(host=carol, players=[bob], start=True)  # bob plays live meanwhile
    challenge = challenges.create_challenge(alice, [bob], seat_count=2, turn_days=5)
    challenges.accept_challenge(challenge.pk, bob)
    challenge.refresh_from_db()
    assert challenge.table.turn_days == 5 and challenge.table.status == Table.Status.PLAYING

    for number in range(turns.MAX_TURN_BASED - 1):
        make_table(name=f"Slow {number}", players=[bob], start=True, turn_days=1)
    with pytest.raises(ServiceError) as refused:
        challenges.create_challenge(bob, [carol], seat_count=2, turn_days=1)
    assert refused.value.code == "forbidden" and "20 turn-based games" in refused.value.message
