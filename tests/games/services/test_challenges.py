"""Challenges: made, answered, cancelled, started, expired; every refusal, and the races."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from accounts.guests import create_guest
from accounts.models import Sanction
from games.models import Challenge, ChallengeInvitation, Seat, Table
from games.services import challenges, tables
from games.services.errors import ServiceError
from social import relations
from social.models import Notification, Privacy
from tests.side_by_side import side_by_side

pytestmark = pytest.mark.django_db

User = get_user_model()
Status = Challenge.Status
Answer = ChallengeInvitation.Answer
Kind = Notification.Kind


@pytest.fixture
def dave(db):
    return User.objects.create_user("dave", password="dave-password-1")


def refused(call, *args, **kwargs) -> ServiceError:
    with pytest.raises(ServiceError) as caught:
        call(*args, **kwargs)
    return caught.value


def duel(challenger, invited, **options) -> Challenge:
    options.setdefault("seat_count", 2)
    return challenges.create_challenge(challenger, [invited], **options)


def seated(user) -> list[int]:
    """The running tables where ``user`` sits."""
    return list(
        Seat.objects.filter(user=user, table__status=Table.Status.PLAYING).values_list(
            "table_id", flat=True
        )
    )


def kinds(user) -> list[str]:
    return list(
        Notification.objects.filter(recipient=user).order_by("pk").values_list("kind", flat=True)
    )


# ------------------------------------------------------------------ making one


def test_a_challenge_asks_each_person_and_tells_them(alice, bob, carol) -> None:
    challenge = challenges.create_challenge(
        alice, [bob, carol], seat_count=4, turn_seconds=30, rated=True
    )

    assert challenge.status == Status.OPEN
    assert challenge.name == "alice, bob, carol"
    assert [row.user for row in challenge.invitations.order_by("pk")] == [bob, carol]
    assert kinds(bob) == [Kind.CHALLENGE_RECEIVED] and kinds(carol) == [Kind.CHALLENGE_RECEIVED]
    received = Notification.objects.get(recipient=bob)
    assert received.data == {
        "by": "alice",
        "challenge": challenge.pk,
        "url": f"/challenges/{challenge.pk}/",
    }


def test_a_timed_challenge_waits_minutes_and_an_untimed_one_a_day(alice, bob, carol) -> None:
    now = timezone.now()
    timed = duel(alice, bob, turn_seconds=15, now=now)
    untimed = duel(alice, carol, turn_seconds=None, now=now)

    assert timed.expires_at == now + challenges.TIMED_EXPIRY
    assert untimed.expires_at == now + challenges.UNTIMED_EXPIRY


@pytest.mark.parametrize(
    ("people", "seats", "words"),
    [
        ([], 2, "Choose whom to challenge."),
        (["bob", "carol"], 2, "room for 1 person besides you"),
        (["bob"], 11, "2 to 10 seats"),
    ],
)
def test_a_challenge_that_cannot_fit_is_refused(alice, bob, carol, people, seats, words):
    invited = [User.objects.get(username=name) for name in people]

    refusal = refused(challenges.create_challenge, alice, invited, seat_count=seats)

    assert refusal.code == "bad_request" and words in refusal.message
    assert not Challenge.objects.exists()


def test_nobody_challenges_themselves(alice) -> None:
    assert "yourself" in refused(duel, alice, alice).message


def test_a_guest_is_told_to_keep_their_account(bob) -> None:
    refusal = refused(duel, create_guest(), bob)

    assert refusal.code == "guest" and "Keep your account" in refusal.message


def test_a_guest_cannot_be_challenged(alice) -> None:
    assert "guest" in refused(duel, alice, create_guest()).message


def test_the_play_banned_cannot_challenge(alice, bob) -> None:
    Sanction.objects.create(user=alice, kind=Sanction.Kind.PLAY_BAN, reason="abuse")

    refusal = refused(duel, alice, bob)

    assert refusal.code == "forbidden" and "banned you from playing" in refusal.message
    assert not Challenge.objects.exists()


def test_a_block_either_way_is_refused_in_the_words_of_a_setting(alice, bob, carol) -> None:
    relations.block(bob, alice)
    relations.set_privacy(carol, challenges=Privacy.Challenges.NOBODY, online="everyone")

    blocked = refused(duel, alice, bob).message
    by_setting = refused(duel, alice, carol).message

    assert blocked == "bob is not taking challenges from you."
    assert by_setting == "carol is not taking challenges from you."
    assert refused(duel, bob, alice).message == "alice is not taking challenges from you."


def test_friends_only_lets_friends_challenge(alice, bob, carol) -> None:
    relations.set_privacy(bob, challenges=Privacy.Challenges.FRIENDS, online="everyone")
    relations.follow(alice, bob)
    relations.follow(bob, alice)

    assert duel(alice, bob).status == Status.OPEN
    assert refused(duel, carol, bob).code == "forbidden"


def test_a_second_challenge_to_the_same_person_waits_for_the_first(alice, bob) -> None:
    duel(alice, bob)

    refusal = refused(duel, alice, bob)

    assert "already challenged bob" in refusal.message
    assert Challenge.objects.count() == 1


def test_challenges_are_limited_a_minute_and_a_day(alice, monkeypatch) -> None:
    people = [User.objects.create_user(f"p{n}") for n in range(4)]
    monkeypatch.setattr(challenges, "PER_MINUTE", 2)
    monkeypatch.setattr(challenges, "PER_DAY", 3)
    now = timezone.now()
    duel(alice, people[0], now=now)
    duel(alice, people[1], now=now)

    too_fast = refused(duel, alice, people[2], now=now)
    assert too_fast.code == "too_many_challenges" and "in a minute" in too_fast.message

    duel(alice, people[2], now=now + timedelta(minutes=2))
    too_many = refused(duel, alice, people[3], now=now + timedelta(minutes=4))
    assert "today" in too_many.message
    assert duel(alice, people[3], now=now + timedelta(days=1, minutes=1)).status == Status.OPEN


# ------------------------------------------------------------------ answers


def test_accepting_a_duel_starts_the_table_and_sends_both_pages_to_it(
    alice, bob, told, django_capture_on_commit_callbacks
) -> None:
    challenge = duel(alice, bob, turn_seconds=None, bot_kind="")

    with django_capture_on_commit_callbacks(execute=True):
        challenges.accept_challenge(challenge.pk, bob)

    challenge.refresh_from_db()
    table = challenge.table
    assert challenge.status == Status.ACCEPTED
    assert (table.status, table.public, table.host) == (Table.Status.PLAYING, False, alice)
    assert [seat.user for seat in table.seats.order_by("position")] == [alice, bob]
    assert kinds(alice) == [Kind.CHALLENGE_ACCEPTED]
    go = [(group, m) for group, m in told.sent if m["type"] == "site.go"]
    assert sorted(group for group, _m in go) == [f"site-{alice.pk}", f"site-{bob.pk}"]
    assert {m["table"] for _group, m in go} == {table.pk}


def test_a_double_click_on_accept_gets_one_clear_answer(alice, bob, carol) -> None:
    challenge = challenges.create_challenge(alice, [bob, carol], seat_count=3)
    challenges.accept_challenge(challenge.pk, bob)

    refusal = refused(challenges.accept_challenge, challenge.pk, bob)

    assert refusal.message == "You have already accepted this challenge."
    assert kinds(alice) == [Kind.CHALLENGE_ACCEPTED]


def test_the_table_waits_for_everyone_then_starts(alice, bob, carol) -> None:
    challenge = challenges.create_challenge(alice, [bob, carol], seat_count=4, bot_kind="easy")
    challenges.accept_challenge(challenge.pk, bob)
    challenge.refresh_from_db()
    assert challenge.status == Status.OPEN and challenge.table is None

    challenges.accept_challenge(challenge.pk, carol)

    challenge.refresh_from_db()
    seats = challenge.table.seats.order_by("position")
    assert [(seat.user and seat.user.username, seat.bot) for seat in seats] == [
        ("alice", ""),
        ("bob", ""),
        ("carol", ""),
        (None, "easy"),
    ]
    assert not challenge.table.rated  # a table with bots is casual


def test_the_host_starts_with_those_who_accepted(alice, bob, carol, dave) -> None:
    challenge = challenges.create_challenge(alice, [bob, carol, dave], seat_count=4)
    challenges.accept_challenge(challenge.pk, bob)
    challenges.decline_challenge(challenge.pk, carol)
    assert kinds(alice) == [Kind.CHALLENGE_ACCEPTED, Kind.CHALLENGE_DECLINED]

    table = challenges.start_challenge(challenge.pk, alice)

    # The empty seats are dropped at the start: a game of two.
    assert [seat.user for seat in table.seats.order_by("position")] == [alice, bob]
    assert refused(challenges.accept_challenge, challenge.pk, dave).message == (
        "This challenge has already started."
    )


def test_only_the_challenger_starts_and_only_once_someone_accepted(alice, bob, carol) -> None:
    challenge = challenges.create_challenge(alice, [bob, carol], seat_count=3)

    assert refused(challenges.start_challenge, challenge.pk, alice).message == (
        "Nobody has accepted yet."
    )
    challenges.accept_challenge(challenge.pk, bob)
    assert refused(challenges.start_challenge, challenge.pk, bob).code == "not_found"


def test_someone_not_asked_cannot_answer(alice, bob, carol) -> None:
    challenge = duel(alice, bob)

    assert refused(challenges.accept_challenge, challenge.pk, carol).code == "not_found"
    assert refused(challenges.decline_challenge, challenge.pk, carol).code == "not_found"
    assert refused(challenges.accept_challenge, 9999, bob).code == "not_found"


def test_a_decline_closes_a_duel_and_tells_the_challenger(alice, bob) -> None:
    challenge = duel(alice, bob)

    challenges.decline_challenge(challenge.pk, bob)

    challenge.refresh_from_db()
    assert challenge.status == Status.DECLINED
    assert kinds(alice) == [Kind.CHALLENGE_DECLINED]
    assert refused(challenges.accept_challenge, challenge.pk, bob).message == (
        "This challenge was declined."
    )


def unread_challenges(user) -> list[int]:
    """The challenges ``user``'s unread "challenges you" notifications are about."""
    return [
        data["challenge"]
        for data in Notification.objects.filter(
            recipient=user, kind=Kind.CHALLENGE_RECEIVED, read_at__isnull=True
        ).values_list("data", flat=True)
    ]


@pytest.mark.parametrize("answer", ["accept_challenge", "decline_challenge"])
def test_answering_a_challenge_marks_its_notification_read_and_no_other(
    alice, bob, carol, answer
) -> None:
    answered = challenges.create_challenge(alice, [bob], seat_count=3)
    waiting = challenges.create_challenge(carol, [bob], seat_count=3)
    assert sorted(unread_challenges(bob)) == sorted([answered.pk, waiting.pk])

    getattr(challenges, answer)(answered.pk, bob)

    assert unread_challenges(bob) == [waiting.pk]


def test_accepting_after_the_challenger_cancelled_is_refused(alice, bob, carol) -> None:
    challenge = challenges.create_challenge(alice, [bob, carol], seat_count=3)
    challenges.decline_challenge(challenge.pk, carol)

    challenges.cancel_challenge(challenge.pk, alice)

    assert kinds(bob) == [Kind.CHALLENGE_RECEIVED, Kind.CHALLENGE_CANCELLED]
    assert kinds(carol) == [Kind.CHALLENGE_RECEIVED]  # who declined is not told
    assert refused(challenges.accept_challenge, challenge.pk, bob).message == (
        "This challenge was cancelled."
    )
    assert refused(challenges.cancel_challenge, challenge.pk, bob).code == "not_found"


def test_the_play_banned_cannot_accept(alice, bob) -> None:
    challenge = duel(alice, bob)
    Sanction.objects.create(user=bob, kind=Sanction.Kind.PLAY_BAN, reason="abuse")

    assert (
        "banned you from playing" in refused(challenges.accept_challenge, challenge.pk, bob).message
    )
    assert ChallengeInvitation.objects.get(challenge=challenge).answer == Answer.PENDING


def test_someone_playing_elsewhere_cannot_accept(alice, bob, carol, make_table) -> None:
    make_table(host=carol, players=[bob], start=True)
    challenge = duel(alice, bob)

    refusal = refused(challenges.accept_challenge, challenge.pk, bob)

    assert refusal.code == "playing"
    assert challenge.invitations.get().answer == Answer.PENDING


def test_a_block_after_the_challenge_stops_the_acceptance(alice, bob) -> None:
    challenge = duel(alice, bob)
    relations.block(alice, bob)

    assert refused(challenges.accept_challenge, challenge.pk, bob).message == (
        "This challenge is no longer open."
    )


def test_an_accepted_person_playing_elsewhere_by_the_start_is_left_out(
    alice, bob, carol, dave, make_table
) -> None:
    challenge = challenges.create_challenge(alice, [bob, carol], seat_count=3)
    challenges.accept_challenge(challenge.pk, bob)
    make_table(host=dave, players=[bob], start=True)

    challenges.accept_challenge(challenge.pk, carol)

    challenge.refresh_from_db()
    assert [seat.user for seat in challenge.table.seats.order_by("position")] == [alice, carol]
    assert len(seated(bob)) == 1


def test_a_challenger_playing_elsewhere_starts_later(alice, bob, carol, make_table) -> None:
    challenge = duel(alice, bob)
    playing = make_table(host=alice, players=[carol], start=True)

    challenges.accept_challenge(challenge.pk, bob)  # the acceptance stands

    challenge.refresh_from_db()
    assert challenge.status == Status.OPEN and challenge.table is None
    assert refused(challenges.start_challenge, challenge.pk, alice).code == "playing"
    tables.leave_table(playing.pk, alice)
    table = challenges.start_challenge(challenge.pk, alice)
    assert table.status == Table.Status.PLAYING


# ------------------------------------------------------------------ expiry


def test_the_clock_expires_a_challenge_and_tells_both_sides(alice, bob) -> None:
    now = timezone.now()
    challenge = duel(alice, bob, turn_seconds=30, now=now)

    assert challenges.expire_due(now + timedelta(minutes=4)) == []
    assert challenges.expire_due(now + timedelta(minutes=5)) == [challenge.pk]
    assert challenges.expire_due(now + timedelta(minutes=6)) == []

    challenge.refresh_from_db()
    assert challenge.status == Status.EXPIRED
    assert kinds(alice) == [Kind.CHALLENGE_EXPIRED]
    assert Notification.objects.get(recipient=alice).data["yours"] is True
    assert kinds(bob) == [Kind.CHALLENGE_RECEIVED, Kind.CHALLENGE_EXPIRED]


def test_accepting_past_the_time_expires_it_even_before_the_clock(alice, bob) -> None:
    now = timezone.now()
    challenge = duel(alice, bob, turn_seconds=30, now=now)

    refusal = refused(challenges.accept_challenge, challenge.pk, bob, now + timedelta(minutes=6))

    assert refusal.message == "This challenge has expired."
    challenge.refresh_from_db()
    assert challenge.status == Status.EXPIRED  # kept, though the answer was refused
    assert kinds(alice) == [Kind.CHALLENGE_EXPIRED]
    assert challenges.expire_due(now + timedelta(minutes=7)) == []


# ------------------------------------------------------------------ reading


def test_each_person_sees_their_open_challenges(alice, bob, carol) -> None:
    to_bob = duel(alice, bob)
    from_carol = duel(carol, alice)
    declined = duel(carol, bob)
    challenges.decline_challenge(declined.pk, bob)

    assert [view.challenge for view in challenges.open_challenges(alice)] == [from_carol, to_bob]
    assert [view.challenge for view in challenges.open_challenges(bob)] == [to_bob]
    mine = challenges.open_challenges(alice)[1]
    assert mine.mine and not mine.may_start and mine.my_answer == ""
    assert [(i.username, i.answer) for i in mine.invitations] == [("bob", Answer.PENDING)]


def test_only_its_people_may_read_a_challenge(alice, bob, carol) -> None:
    challenge = duel(alice, bob)

    assert challenges.read_challenge(challenge.pk, bob).my_answer == Answer.PENDING
    assert refused(challenges.read_challenge, challenge.pk, carol).code == "not_found"


# ------------------------------------------------------------------ races


@pytest.mark.django_db(transaction=True)
def test_accepting_in_two_tabs_at_once_seats_the_person_once() -> None:
    alice, bob = (User.objects.create_user(name) for name in ("alice", "bob"))
    challenge = duel(alice, bob)

    def accept() -> str:
        try:
            challenges.accept_challenge(challenge.pk, bob)
        except ServiceError as error:
            return error.message
        return "accepted"

    answers = side_by_side(accept)

    assert sorted(answers) == ["This challenge has already started.", "accepted"]
    assert Table.objects.count() == 1
    assert len(seated(bob)) == 1 and len(seated(alice)) == 1


@pytest.mark.django_db(transaction=True)
def test_accepting_while_the_challenger_cancels_gives_one_outcome() -> None:
    alice, bob = (User.objects.create_user(name) for name in ("alice", "bob"))
    challenge = duel(alice, bob)
    jobs = iter(
        [
            lambda: challenges.accept_challenge(challenge.pk, bob),
            lambda: challenges.cancel_challenge(challenge.pk, alice),
        ]
    )
    lock = threading.Lock()

    def one() -> str:
        with lock:
            job = next(jobs)
        try:
            job()
        except ServiceError as error:
            return error.message
        return "done"

    answers = sorted(side_by_side(one))

    challenge.refresh_from_db()
    if challenge.status == Status.ACCEPTED:
        assert answers == ["This challenge has already started.", "done"]
        assert Table.objects.count() == 1 and len(seated(bob)) == 1
    else:
        assert challenge.status == Status.CANCELLED
        assert answers == ["This challenge was cancelled.", "done"]
        assert not Table.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_one_person_accepting_two_challenges_at_once_plays_one_of_them() -> None:
    alice, bob, carol = (User.objects.create_user(name) for name in ("alice", "bob", "carol"))
    first, second = duel(alice, bob), duel(carol, bob)
    ids = iter([first.pk, second.pk])
    lock = threading.Lock()

    def accept() -> str:
        with lock:
            challenge_id = next(ids)
        try:
            challenges.accept_challenge(challenge_id, bob)
        except ServiceError as error:
            return error.code
        return "accepted"

    answers = side_by_side(accept)

    assert sorted(answers) == ["accepted", "playing"]
    assert Table.objects.filter(status=Table.Status.PLAYING).count() == 1
    assert len(seated(bob)) == 1


def test_the_clock_closes_expired_challenges_on_its_tick_and_forgets_old_notifications(
    alice, bob
) -> None:
    from games import clock
    from social import notifications

    now = timezone.now()
    challenge = duel(alice, bob, turn_seconds=30, now=now)
    old = notifications.notify(bob, Kind.NEW_FOLLOWER, by="carol")
    Notification.objects.filter(pk=old.pk).update(created_at=now - timedelta(days=31))
    sweeping = clock.Clock()

    assert sweeping.sweep_challenges(now + timedelta(minutes=6)) == [challenge.pk]
    assert not Notification.objects.filter(pk=old.pk).exists()
    late = duel(alice, bob, turn_seconds=30, now=now)
    assert sweeping.sweep_challenges(now + timedelta(minutes=6)) == []  # looked a moment ago
    late.refresh_from_db()
    assert late.status == Status.OPEN
