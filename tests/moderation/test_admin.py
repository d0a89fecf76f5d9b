"""Moderation through the admin's own URLs, as a member of the Moderators group (staff, not a
superuser): every action leaves exactly one row of the moderation log, and an ordinary player is
refused every one of them."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse

from accounts.models import Sanction
from games.models import ChatMessage, Game, GameVerification, Move, Table
from games.services import history, moves
from moderation.models import ModerationLog, ModerationLogError, Report

pytestmark = pytest.mark.django_db

User = get_user_model()


@pytest.fixture
def player_client(carol) -> Client:
    client = Client()
    client.force_login(carol)
    return client


def changelist(model: str) -> str:
    return reverse(f"admin:{model}_changelist")


def action(model: str, name: str, *objects, **fields: Any) -> tuple[str, dict[str, Any]]:
    return changelist(model), {
        "action": name,
        "_selected_action": [obj.pk for obj in objects],
        **fields,
    }


def prepare(name: str, *, alice, bob, running) -> tuple[str, dict[str, Any], Any]:
    """The URL and POST data of one action, and a check that it took effect."""
    if name == "ban":
        url, data = action("auth_user", "ban", bob, reason="spam in chat")
        return url, data, lambda: not User.objects.get(pk=bob.pk).is_active
    if name == "unban":
        Sanction.objects.create(user=bob, kind="account_ban", reason="old")
        User.objects.filter(pk=bob.pk).update(is_active=False)
        url, data = action("auth_user", "unban", bob, reason="appeal accepted")
        return url, data, lambda: User.objects.get(pk=bob.pk).is_active
    if name == "rename":
        url, data = action("auth_user", "rename", bob, reason="offensive", new_name="player_7")
        return url, data, lambda: User.objects.get(pk=bob.pk).username == "player_7"
    if name == "sanction":
        data = {"user": bob.pk, "kind": "chat_mute", "reason": "insults", "duration": "1d"}
        return reverse("admin:accounts_sanction_add"), data, lambda: Sanction.objects.exists()
    if name == "lift":
        sanction = Sanction.objects.create(user=bob, kind="play_ban", reason="leaver")
        url = reverse("admin:accounts_sanction_change", args=[sanction.pk])
        data = {"lift_reason": "a mistake"}
        return url, data, lambda: not Sanction.objects.get(pk=sanction.pk).is_active
    if name == "abort":
        url, data = action("games_table", "abort_games", running, reason="stuck game")
        return url, data, lambda: Table.objects.get(pk=running.pk).status == "aborted"
    if name == "hide_message":
        line = ChatMessage.objects.create(table=running, author=bob, room="players", text="spam")
        url, data = action("games_chatmessage", "hide_messages", line, reason="spam")
        return url, data, lambda: ChatMessage.objects.get(pk=line.pk).hidden_at is not None
    if name == "handle_report":
        report = Report.objects.create(filer=alice, target=bob, category="abusive_chat")
        url = reverse("admin:moderation_report_change", args=[report.pk])
        data = {"status": "resolved", "notes": "muted for a day"}
        return url, data, lambda: Report.objects.get(pk=report.pk).status == "resolved"
    if name == "verify":
        game = Game.objects.get(table=running)
        url, data = action("games_game", "verify_games", game)
        return url, data, lambda: GameVerification.objects.filter(game=game, ok=True).exists()
    raise AssertionError(name)


# Each name is also the moderation log's action it writes.
ACTIONS = [
    "ban",
    "unban",
    "rename",
    "sanction",
    "lift",
    "abort",
    "hide_message",
    "handle_report",
    "verify",
]


@pytest.mark.parametrize("name", ACTIONS)
def test_a_moderator_acts_through_the_admin_and_leaves_one_log_row(
    name, mod, mod_client, alice, bob, running
) -> None:
    url, data, done = prepare(name, alice=alice, bob=bob, running=running)
    before = ModerationLog.objects.count()

    response = mod_client.post(url, data, follow=True)

    assert response.status_code == 200
    assert done()
    assert ModerationLog.objects.count() == before + 1
    entry = ModerationLog.objects.latest("pk")
    assert (entry.actor, entry.action) == (mod, name)


@pytest.mark.parametrize("name", ACTIONS)
def test_an_ordinary_player_is_refused_every_action(
    name, player_client, alice, bob, running
) -> None:
    url, data, done = prepare(name, alice=alice, bob=bob, running=running)

    response = player_client.post(url, data)

    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    assert not done()
    assert not ModerationLog.objects.exists()


def test_an_action_without_a_reason_is_refused_and_not_logged(mod_client, bob) -> None:
    url, data = action("auth_user", "ban", bob, reason="  ")

    response = mod_client.post(url, data, follow=True)

    assert "Give a reason." in response.content.decode()
    assert User.objects.get(pk=bob.pk).is_active
    assert not ModerationLog.objects.exists()


def test_the_moderators_group_has_exactly_the_needed_permissions(mod) -> None:
    codenames = set(
        Group.objects.get(name="Moderators").permissions.values_list("codename", flat=True)
    )

    assert not mod.is_superuser
    assert {"view_move", "view_moderationlog", "add_sanction", "change_report"} <= codenames
    assert not {"add_move", "change_move", "delete_move"} & codenames
    assert not {"add_moderationlog", "change_moderationlog", "delete_moderationlog"} & codenames
    assert not {"delete_user", "add_user", "delete_game", "delete_table"} & codenames


def test_nobody_edits_the_moderation_log_not_even_a_superuser(client, mod, bob) -> None:
    entry = ModerationLog.objects.create(actor=mod, action="ban", target=bob, reason="spam")
    root = User.objects.create_superuser("root", password="root-password-1")
    client.force_login(root)

    page = client.get(reverse("admin:moderation_moderationlog_change", args=[entry.pk]))
    delete = client.post(reverse("admin:moderation_moderationlog_delete", args=[entry.pk]))
    add = client.get(reverse("admin:moderation_moderationlog_add"))

    assert page.status_code == 200 and 'name="_save"' not in page.content.decode()
    assert delete.status_code == 403 and add.status_code == 403
    entry.reason = "rewritten"
    with pytest.raises(ModerationLogError):
        entry.save()
    with pytest.raises(ModerationLogError):
        entry.delete()


def test_a_moderator_cannot_edit_a_player_nor_their_password(mod_client, bob) -> None:
    edit = mod_client.post(
        reverse("admin:auth_user_change", args=[bob.pk]),
        {"username": "bob", "is_superuser": "on", "is_staff": "on"},
    )
    password = mod_client.post(
        reverse("admin:auth_user_password_change", args=[bob.pk]),
        {"password1": "new-pass-123!", "password2": "new-pass-123!"},
    )

    bob.refresh_from_db()
    assert edit.status_code == 403 and password.status_code == 403
    assert not bob.is_superuser and not bob.is_staff


def test_a_running_tables_settings_cannot_be_changed_in_the_admin(
    mod_client, alice, bob, carol, make_table
) -> None:
    table = make_table(players=[bob, carol], seat_count=4, bot_seats=1, start=True)
    url = reverse("admin:games_table_change", args=[table.pk])

    page = mod_client.get(url).content.decode()
    response = mod_client.post(url, {"name": table.name, "seat_count": 2, "host": alice.pk})

    assert response.status_code == 403
    assert Table.objects.get(pk=table.pk).seat_count == 4
    assert 'name="seat_count"' not in page
    assert f'href="/tables/{table.pk}/"' in page  # the admin links the table to its page


def test_aborting_keeps_the_move_log_intact_and_verifiable(mod_client, running) -> None:
    game = Game.objects.get(table=running)
    log_before = list(Move.objects.filter(game=game).values_list("seq", "digest"))
    url, data = action("games_table", "abort_games", running, reason="stuck")

    mod_client.post(url, data)

    assert Table.objects.get(pk=running.pk).status == "aborted"
    assert list(Move.objects.filter(game=game).values_list("seq", "digest")) == log_before
    assert history.verify_game(Game.objects.get(pk=game.pk))


def test_a_moderator_watches_a_private_table_and_it_is_logged(
    mod, mod_client, player_client, alice
) -> None:
    from games.services import tables

    table = tables.play_against_bots(alice, opponents=1)

    watched = mod_client.get(reverse("games:table", args=[table.pk]))
    refused = player_client.get(reverse("games:table", args=[table.pk]))

    assert watched.status_code == 200 and refused.status_code == 403
    entry = ModerationLog.objects.get()
    assert (entry.actor, entry.action, entry.target) == (mod, "watch", alice)


def test_a_ban_shown_on_the_players_admin_page_with_leaver_statistics(mod_client, bob) -> None:
    url, data = action("auth_user", "ban", bob, reason="spam in chat")
    mod_client.post(url, data)

    page = mod_client.get(reverse("admin:auth_user_change", args=[bob.pk])).content.decode()

    assert "spam in chat" in page and "Banned a player" in page
    assert "0 games left, 0 lost to timeouts, 0 aborted" in page


def test_a_banned_spammers_tables_leave_the_lobby_and_their_games_go_to_bots(
    mod_client, alice, bob, carol, make_table
) -> None:
    spam = make_table(host=bob, name="BUY CHEAP COINS", seat_count=3)
    game_table = make_table(players=[bob], start=True)
    url, data = action("auth_user", "ban", bob, reason="spam")

    mod_client.post(url, data)

    assert Table.objects.get(pk=spam.pk).status == "aborted"
    lobby = Client().get(reverse("games:home")).content.decode()
    assert "BUY CHEAP COINS" not in lobby
    seat = Table.objects.get(pk=game_table.pk).seats.get(position=1)
    assert (seat.user_id, seat.replaced_user_id, bool(seat.bot)) == (None, bob.pk, True)


def test_rename_keeps_the_old_name_in_the_log(mod_client, bob) -> None:
    url, data = action("auth_user", "rename", bob, reason="offensive", new_name="player_7")

    mod_client.post(url, data)

    assert ModerationLog.objects.get().object_repr == "bob → player_7"


def test_a_long_games_admin_page_does_not_inline_its_moves(
    mod_client, django_assert_max_num_queries, long_game
) -> None:
    url = reverse("admin:games_game_change", args=[long_game.pk])

    with django_assert_max_num_queries(12):
        page = mod_client.get(url).content.decode()

    assert long_game.version > 20
    last = Move.objects.filter(game=long_game).latest("seq")
    assert last.digest not in page  # no move is inlined
    assert f"?game__id__exact={long_game.pk}" in page


def test_the_move_log_is_a_paginated_list_filtered_by_game(
    mod_client, long_game, running, monkeypatch
) -> None:
    monkeypatch.setattr(admin.site.get_model_admin(Move), "list_per_page", 10)
    url = changelist("games_move") + f"?game__id__exact={long_game.pk}"

    first = mod_client.get(url).context["cl"].result_list
    last_page = (long_game.version - 1) // 10
    last = mod_client.get(url + f"&p={last_page + 1}").context["cl"].result_list

    assert [move.seq for move in first] == list(range(10))
    assert [move.seq for move in last] == list(range(last_page * 10, long_game.version))
    assert {move.game_id for move in [*first, *last]} == {long_game.pk}


@pytest.fixture
def long_game(alice) -> Game:
    """A game of bots of at least 60 moves, played to its end or 300 moves. The bots play at
    random and a quarter of their games last that long: a game that ended sooner is set aside
    and another one played."""
    from django.utils import timezone

    from games.services import tables

    for _attempt in range(40):
        table = tables.create_table(alice, name="Long", seat_count=4, bot_seats=3, turn_seconds=5)
        game = tables.start_game(table.pk, alice)
        now = timezone.now()
        while game.version < 300 and not game.finished:
            now = max(now, game.next_due)
            moves.advance(game.pk, now=now)
            game.refresh_from_db()
        if game.version >= 60:
            return game
    raise AssertionError("forty bot games in a row ended within 60 moves")
