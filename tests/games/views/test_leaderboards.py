"""The pages of ratings: the leaderboards, a player's ratings on their profile (a chart with a
table behind it), a finished game's rating changes, and choosing rated or casual."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import guests
from accounts.models import Sanction
from games.models import Game, Rating, RatingMode, Table
from games.services import moves
from moderation import actions
from tests.play import WINNING_RUN

pytestmark = pytest.mark.django_db

User = get_user_model()


def rate(user, mode: str = RatingMode.DUEL, mu: float = 30.0, sigma: float = 4.0, **extra):
    extra.setdefault("updated_at", timezone.now())
    return Rating.objects.create(user=user, mode=mode, mu=mu, sigma=sigma, games=12, **extra)


def board(client: Client) -> str:
    return client.get(reverse("games:leaderboards")).content.decode()


def won_rated_game(make_table, rig, winner, loser) -> Game:
    table = make_table(host=winner, players=[loser], start=True, turn_seconds=None)
    rig(table, WINNING_RUN, leading="red:9")
    for card in WINNING_RUN[0]:
        version = Game.objects.get(table=table).version
        moves.submit_action(
            table.pk, winner, {"type": "play", "card": card, "version": version, "last_card": True}
        )
    return Game.objects.get(table=table)


def test_the_leaderboards_rank_by_rating_per_mode(client: Client, alice, bob, carol) -> None:
    rate(alice, mu=28.0)
    rate(bob, mu=31.0)
    rate(carol, mode=RatingMode.PARTY, mu=27.0)

    page = board(client)

    duel = page.split('data-board="duel"')[1].split("</table>")[0]
    assert duel.index(">bob<") < duel.index(">alice<")
    assert "<td>1740</td>" in duel and "<td>1620</td>" in duel
    assert ">carol<" not in duel
    assert ">carol<" in page.split('data-board="party"')[1]


def test_the_leaderboards_leave_out_the_idle_the_provisional_guests_and_the_banned(
    client: Client, alice, bob, carol, moderator
) -> None:
    rate(alice, updated_at=timezone.now() - timedelta(days=31))
    rate(bob, sigma=7.5)
    guest = guests.create_guest()
    rate(guest)
    rate(carol)
    dana = User.objects.create_user("dana")
    rate(dana)
    Sanction.objects.create(
        user=dana, kind=Sanction.Kind.ACCOUNT_BAN, reason="cheating", created_by=moderator
    )

    page = board(client)

    assert ">carol<" in page
    for name in ("alice", "bob", guest.get_username(), "dana"):
        assert f">{name}<" not in page


def test_the_leaderboards_are_linked_from_the_home_page_and_the_navigation(
    client: Client, db
) -> None:
    home = client.get(reverse("games:home")).content.decode()
    assert home.count('href="/leaderboards/"') >= 2
    assert "Nobody yet." in board(client)


def test_the_profile_shows_each_rating_its_games_and_a_chart_with_a_table_behind_it(
    client: Client, make_table, rig, alice, bob
) -> None:
    game = won_rated_game(make_table, rig, alice, bob)
    change = game.rating_changes.get(user=alice)

    page = client.get(reverse("games:profile", args=["alice"])).content.decode()

    assert f'<span data-rating="duel">{change.shown_after}?</span>' in page
    assert "1 rated game" in page
    assert '<svg class="rating-chart"' in page and 'aria-hidden="true"' in page
    assert "<caption>Duel rating after each rated game</caption>" in page
    assert f"<td>{change.shown_after}</td><td>+{change.delta}</td>" in page


def test_a_profile_without_rated_games_shows_no_ratings(client: Client, alice) -> None:
    page = client.get(reverse("games:profile", args=["alice"])).content.decode()
    assert "rating-chart" not in page and "<h2>Ratings</h2>" not in page


def test_the_finished_games_page_shows_the_changes_or_why_there_are_none(
    client: Client, make_table, rig, alice, bob, carol, moderator
) -> None:
    game = won_rated_game(make_table, rig, alice, bob)
    won, lost = (game.rating_changes.get(user=user) for user in (alice, bob))
    url = reverse("games:finished_game", args=[game.pk])

    page = client.get(url).content.decode()
    assert f"alice +{won.delta} (now {won.shown_after})" in page
    assert f"bob \u2212{-lost.delta} (now {lost.shown_after})" in page

    actions.void_rating(moderator, game, "collusion")
    assert "Voided by a moderator" in client.get(url).content.decode()

    casual = make_table(host=carol, players=[bob], start=True, turn_seconds=None, rated=False)
    casual.game.winner = 0
    casual.game.finished_at = timezone.now()
    casual.game.save()
    Table.objects.filter(pk=casual.pk).update(status=Table.Status.FINISHED)
    page = client.get(reverse("games:finished_game", args=[casual.game.pk])).content.decode()
    assert "Casual: no rating changed." in page


def test_the_table_form_offers_rated_or_casual(client: Client, alice) -> None:
    client.force_login(alice)
    assert 'value="casual"' in client.get("/tables/new/").content.decode()
    data = {
        "name": "Casual night",
        "seat_count": "2",
        "mode": "standard",
        "turn_seconds": "30",
        "bot_seats": "0",
        "visibility": "public",
        "rated": "casual",
    }
    client.post("/tables/new/", data)
    client.post("/tables/new/", {**data, "name": "Serious", "rated": "rated"})
    assert dict(Table.objects.values_list("name", "rated")) == {
        "Casual night": False,
        "Serious": True,
    }


def test_the_lobby_shows_each_rated_tables_host_rating(
    client: Client, make_table, alice, bob
) -> None:
    rate(alice, mu=26.0, sigma=5.0)
    make_table(name="Serious")
    make_table(host=bob, name="For fun", rated=False)

    page = client.get(reverse("games:home")).content.decode()

    serious = page.split("Serious")[1].split("</tr>")[0]
    assert "alice <span" in serious and ">1540</span>" in serious and "rated" in serious
    fun = page.split("For fun")[1].split("</tr>")[0]
    assert "seat__rating" not in fun and "casual" in fun


def test_a_moderator_voids_a_games_rating_from_the_games_admin_with_a_reason(
    client: Client, make_table, rig, alice, bob, moderator
) -> None:
    game = won_rated_game(make_table, rig, alice, bob)
    client.force_login(moderator)
    url = reverse("admin:games_game_changelist")
    data = {"action": "void_ratings", "_selected_action": [game.pk]}

    client.post(url, {**data, "reason": ""})
    assert not Game.objects.get(pk=game.pk).rating_voided_at

    client.post(url, {**data, "reason": "alice and bob are one person"})
    assert Game.objects.get(pk=game.pk).rating_voided_at is not None
    assert not Rating.objects.exists()
