""" "Play again": the players of a finished table, invited to a new one."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.models import Sanction
from games.models import Game, RematchInvitation, Table
from games.services import moves, rematch, tables
from games.services.errors import ServiceError
from social.models import Notification

pytestmark = pytest.mark.django_db
Answer = RematchInvitation.Answer


# Seat 0 empties their hand in one red TAKI run (R14, R21): a game over in eight moves.
HANDS = [
    ["red:taki", "red:1", "red:3", "red:4", "red:5", "red:6", "red:7", "red:8"],
    ["yellow:1", "yellow:3", "yellow:4", "yellow:5", "yellow:6", "yellow:7", "yellow:8", "blue:1"],
    ["green:1", "green:3", "green:4", "green:5", "green:6", "green:7", "green:8", "blue:3"],
    ["blue:4", "blue:5", "blue:6", "blue:7", "blue:8", "blue:9", "green:9", "yellow:9"],
]


def win_at_once(table: Table, user, rig) -> None:
    """Deal HANDS and let seat 0 (``user``) win in their first turn."""
    rig(table, HANDS[: table.seat_count], leading="red:9")
    for code in HANDS[0]:
        version = Game.objects.get(table=table).version
        moves.submit_action(
            table.pk, user, {"type": "play", "card": code, "version": version, "last_card": True}
        )
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED


@pytest.fixture
def finished(alice, bob, carol, make_table, rig) -> Table:
    table = make_table(seat_count=4, players=[bob, carol], bot_seats=1, start=True)
    win_at_once(table, alice, rig)
    return table


def people(table: Table) -> list[tuple[int, str, str]]:
    return [
        (seat.position, seat.user.username if seat.user else "", seat.bot)
        for seat in table.seats.order_by("position")
    ]


def test_each_invited_person_is_told_with_the_way_in(finished, alice, bob, carol) -> None:
    new = rematch.offer_rematch(finished.pk, alice)

    told = Notification.objects.filter(kind=Notification.Kind.REMATCH_OFFERED)
    assert sorted(row.recipient.username for row in told) == ["bob", "carol"]
    assert told.first().data == {
        "by": "alice",
        "table": new.pk,
        "url": new.page_url(new.invite_token),
    }


def test_the_first_to_ask_opens_the_rematch_with_the_same_players(finished, alice) -> None:
    new = rematch.offer_rematch(finished.pk, alice)

    assert (new.host, new.rematch_of, new.status) == (alice, finished, Table.Status.OPEN)
    assert (new.tournament, new.turn_seconds, new.public) == (False, finished.turn_seconds, False)
    # alice sits; the bot sits again; bob and carol are invited, their seats kept empty.
    assert people(new) == [(0, "alice", ""), (1, "", ""), (2, "", ""), (3, "", "greedy")]
    invited = new.invitations.order_by("user__username").values_list("user__username", "answer")
    assert list(invited) == [("bob", Answer.PENDING), ("carol", Answer.PENDING)]


def test_an_invited_player_accepts_and_sits_down(finished, alice, bob) -> None:
    new = rematch.offer_rematch(finished.pk, alice)

    rematch.answer_rematch(new.pk, bob, accept=True)

    assert new.seats.filter(user=bob).exists()
    assert new.invitations.get(user=bob).answer == Answer.ACCEPTED


def test_asking_again_once_it_is_open_accepts_it(finished, alice, bob) -> None:
    new = rematch.offer_rematch(finished.pk, alice)

    assert rematch.offer_rematch(finished.pk, bob) == new
    assert new.invitations.get(user=bob).answer == Answer.ACCEPTED
    assert Table.objects.filter(rematch_of=finished).count() == 1


def test_a_declined_seat_stays_empty_and_the_others_still_play(finished, alice, bob, carol):
    new = rematch.offer_rematch(finished.pk, alice)
    rematch.answer_rematch(new.pk, bob, accept=True)

    rematch.answer_rematch(new.pk, carol, accept=False)

    assert new.invitations.get(user=carol).answer == Answer.DECLINED
    assert not new.seats.filter(user=carol).exists()
    tables.start_game(new.pk, alice)  # the empty seat is dropped at the start
    new.refresh_from_db()
    assert (new.status, new.seat_count) == (Table.Status.PLAYING, 3)


def test_declining_after_accepting_gives_the_seat_back(finished, alice, bob) -> None:
    new = rematch.offer_rematch(finished.pk, alice)
    rematch.answer_rematch(new.pk, bob, accept=True)

    rematch.answer_rematch(new.pk, bob, accept=False)

    assert not new.seats.filter(user=bob).exists()


def test_a_rematch_against_bots_alone_starts_at_once(alice, rig) -> None:
    table = tables.play_against_bots(alice, opponents=2)
    win_at_once(table, alice, rig)

    new = rematch.offer_rematch(table.pk, alice)

    assert new.status == Table.Status.PLAYING
    assert people(new) == [(0, "alice", ""), (1, "", "greedy"), (2, "", "greedy")]


@pytest.mark.parametrize("who", ["stranger", "running"])
def test_only_the_players_of_a_finished_game_may_ask(
    who, alice, bob, make_table, rig, django_user_model
) -> None:
    if who == "running":
        table, user = make_table(players=[bob], start=True), alice
    else:
        table = make_table(players=[bob], start=True)
        win_at_once(table, alice, rig)
        user = django_user_model.objects.create_user("stranger", password="x-password-1")

    with pytest.raises(ServiceError) as caught:
        rematch.offer_rematch(table.pk, user)

    assert caught.value.code == "forbidden"
    assert not Table.objects.filter(rematch_of=table).exists()


def test_someone_not_invited_cannot_answer(finished, alice, django_user_model) -> None:
    new = rematch.offer_rematch(finished.pk, alice)
    stranger = django_user_model.objects.create_user("stranger", password="x-password-1")

    with pytest.raises(ServiceError) as caught:
        rematch.answer_rematch(new.pk, stranger, accept=True)

    assert caught.value.code == "not_found"
    assert not new.seats.filter(user=stranger).exists()


def test_the_finished_table_shows_the_offer_to_the_invited(finished, alice, bob, client) -> None:
    client.force_login(alice)
    response = client.post(reverse("games:play_again", args=[finished.pk]))
    new = Table.objects.get(rematch_of=finished)
    assert response.url == reverse("games:table", args=[new.pk]) + f"?invite={new.invite_token}"

    client.force_login(bob)
    page = client.get(reverse("games:table", args=[finished.pk])).content.decode()
    assert "alice wants to play again with the same players." in page
    assert "Accept: play again" in page and "Decline" in page
    response = client.post(reverse("games:answer_rematch", args=[new.pk]), {"answer": "decline"})
    assert new.invitations.get(user=bob).answer == Answer.DECLINED
    page = client.get(reverse("games:table", args=[finished.pk])).content.decode()
    assert "You declined to play again." in page


def test_the_new_table_shows_each_invitation_and_its_answer(finished, alice, bob, client) -> None:
    new = rematch.offer_rematch(finished.pk, alice)
    rematch.answer_rematch(new.pk, bob, accept=False)
    client.force_login(alice)

    page = client.get(reverse("games:table", args=[new.pk])).content.decode()

    assert '<li class="invitation invitation--declined">bob: <strong>Declined</strong></li>' in page
    assert '<li class="invitation invitation--pending">carol: <strong>Invited</strong></li>' in page


def ban_from_play(user) -> None:
    Sanction.objects.create(user=user, kind="play_ban", reason="leaver")


def test_a_play_banned_player_cannot_open_a_rematch_against_bots(alice, rig, client) -> None:
    table = tables.play_against_bots(alice, opponents=2)
    win_at_once(table, alice, rig)
    ban_from_play(alice)
    client.force_login(alice)

    response = client.post(reverse("games:play_again", args=[table.pk]), follow=True)

    assert "A moderator has banned you from playing." in response.content.decode()
    assert not Table.objects.filter(rematch_of=table).exists()
    with pytest.raises(ServiceError, match="banned you from playing"):
        rematch.offer_rematch(table.pk, alice)


def test_a_play_banned_player_cannot_open_a_rematch_with_people(finished, alice) -> None:
    ban_from_play(alice)

    with pytest.raises(ServiceError, match="banned you from playing"):
        rematch.offer_rematch(finished.pk, alice)

    assert not Table.objects.filter(rematch_of=finished).exists()


@pytest.mark.parametrize("how", ["answer", "ask"])
def test_a_play_banned_player_cannot_accept_a_rematch(finished, alice, bob, how) -> None:
    new = rematch.offer_rematch(finished.pk, alice)
    ban_from_play(bob)

    with pytest.raises(ServiceError, match="banned you from playing"):
        if how == "answer":
            rematch.answer_rematch(new.pk, bob, accept=True)
        else:
            rematch.offer_rematch(finished.pk, bob)

    assert not new.seats.filter(user=bob).exists()
    assert new.invitations.get(user=bob).answer != Answer.ACCEPTED


def test_a_rematch_against_bots_counts_against_the_bot_games(alice, rig, settings) -> None:
    settings.BOT_GAMES_PER_PERSON = 1
    table = tables.play_against_bots(alice, opponents=2)
    win_at_once(table, alice, rig)
    tables.play_against_bots(alice)

    with pytest.raises(ServiceError) as caught:
        rematch.offer_rematch(table.pk, alice)

    assert caught.value.code == "too_many_games"
    assert not Table.objects.filter(rematch_of=table).exists()
