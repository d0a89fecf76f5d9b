"""What a moderator may and may not do (docs/moderation.md), a test per line: through the
admin's own URLs with the test client, logged in as a member of the Moderators group (staff, not
a superuser). The rule they share, ``may_act_on``, is checked on its own first."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, Group
from django.test import Client
from django.urls import reverse

from accounts.models import Sanction
from games.models import ChatMessage, Game, GameVerification, Move, Table
from games.services import tables
from moderation.models import ModerationLog, Report
from moderation.permissions import may_act_on
from tests.play import play_to_the_end

pytestmark = pytest.mark.django_db

User = get_user_model()


@pytest.fixture
def other_mod(db) -> AbstractBaseUser:
    user = User.objects.create_user("otto", password="otto-password-1", is_staff=True)
    user.groups.add(Group.objects.get(name="Moderators"))
    return user


@pytest.fixture
def staffer(db) -> AbstractBaseUser:
    """Staff outside the Moderators group."""
    return User.objects.create_user("stan", password="stan-password-1", is_staff=True)


@pytest.fixture
def root(db) -> AbstractBaseUser:
    return User.objects.create_superuser("root", password="root-password-1")


@pytest.fixture
def root_client(root) -> Client:
    client = Client()
    client.force_login(root)
    return client


def actions_url(model: str) -> str:
    return reverse(f"admin:{model}_changelist")


def act(client: Client, model: str, name: str, *objects, **fields: Any):
    data = {"action": name, "_selected_action": [obj.pk for obj in objects], **fields}
    return client.post(actions_url(model), data, follow=True)


def sanction_on(user, kind: str = "chat_mute") -> Sanction:
    return Sanction.objects.create(user=user, kind=kind, reason="insults")


def lift(client: Client, sanction: Sanction):
    url = reverse("admin:accounts_sanction_change", args=[sanction.pk])
    return client.post(url, {"lift_reason": "a mistake"}, follow=True)


def add_sanction(client: Client, user, kind: str = "chat_mute"):
    data = {"user": user.pk, "kind": kind, "reason": "insults", "duration": "1d"}
    return client.post(reverse("admin:accounts_sanction_add"), data, follow=True)


def handle(client: Client, report: Report, **fields: Any):
    url = reverse("admin:moderation_report_change", args=[report.pk])
    return client.post(url, {"status": "resolved", "notes": "seen", **fields}, follow=True)


def line_of(user, table: Table) -> ChatMessage:
    return ChatMessage.objects.create(table=table, author=user, room="players", text="hm")


def is_hidden(line: ChatMessage) -> bool:
    return ChatMessage.objects.get(pk=line.pk).hidden_at is not None


def logged() -> int:
    return ModerationLog.objects.count()


# ------------------------------------------------------------------ the rule


@pytest.mark.parametrize(
    ("actor", "target", "allowed"),
    [
        ("mod", "alice", True),
        ("mod", "mod", False),
        ("mod", "other_mod", False),
        ("mod", "staffer", False),
        ("mod", "root", False),
        ("root", "other_mod", True),
        ("root", "staffer", True),
        ("root", "root", False),
        ("root", "other_root", True),
    ],
)
def test_may_act_on_lets_moderators_act_on_ordinary_players_only(
    request, actor, target, allowed, root
) -> None:
    if target == "other_root":
        User.objects.create_superuser("root2", password="root2-password-1")
        target_user = User.objects.get(username="root2")
    else:
        target_user = request.getfixturevalue(target)

    assert may_act_on(request.getfixturevalue(actor), target_user) is allowed


# ------------------------------------------------------------------ a moderator may


def test_a_moderator_may_see_the_reports(mod_client, alice, bob, running) -> None:
    report = Report.objects.create(
        filer=alice, target=bob, category="abusive_chat", comment="insults", table=running
    )
    report.chat_snapshot = [{"author": "bob", "text": "you play like a bot", "at": ""}]
    report.save()

    queue = mod_client.get(actions_url("moderation_report"))
    page = mod_client.get(reverse("admin:moderation_report_change", args=[report.pk]))

    assert queue.status_code == 200 and "bob" in queue.content.decode()
    html = page.content.decode()
    assert "insults" in html and "you play like a bot" in html and "Running" in html


def test_a_moderator_may_handle_a_report(mod, mod_client, alice, bob) -> None:
    report = Report.objects.create(filer=alice, target=bob, category="other")

    handle(mod_client, report, status="dismissed", notes="nothing there")

    report.refresh_from_db()
    assert (report.status, report.handled_by, report.notes) == ("dismissed", mod, "nothing there")


def test_a_moderator_may_act_from_a_report(mod, mod_client, alice, bob) -> None:
    report = Report.objects.create(filer=alice, target=bob, category="abusive_chat")

    handle(
        mod_client,
        report,
        notes="",
        sanction_kind="play_ban",
        duration="7d",
        sanction_reason="leaves every game",
    )

    report.refresh_from_db()
    sanction = Sanction.objects.get()
    assert (sanction.user, sanction.kind, sanction.created_by) == (bob, "play_ban", mod)
    assert (report.status, report.sanction) == ("resolved", sanction)


def test_a_moderator_may_sanction_an_ordinary_player(mod, mod_client, bob) -> None:
    add_sanction(mod_client, bob)

    assert Sanction.objects.get().user == bob
    assert ModerationLog.objects.get().action == "sanction"


def test_a_moderator_may_lift_another_moderators_sanction_on_an_ordinary_player(
    mod_client, other_mod, bob
) -> None:
    sanction = Sanction.objects.create(
        user=bob, kind="chat_mute", reason="insults", created_by=other_mod
    )

    lift(mod_client, sanction)

    assert not Sanction.objects.get(pk=sanction.pk).is_active


def test_a_moderator_may_ban_unban_and_rename_an_ordinary_player(mod_client, bob) -> None:
    act(mod_client, "auth_user", "ban", bob, reason="spam")
    banned = not User.objects.get(pk=bob.pk).is_active
    act(mod_client, "auth_user", "unban", bob, reason="appeal")
    unbanned = User.objects.get(pk=bob.pk).is_active
    act(mod_client, "auth_user", "rename", bob, reason="rude name", new_name="player_7")

    assert banned and unbanned
    assert User.objects.get(pk=bob.pk).username == "player_7"


def test_a_moderator_may_hide_an_ordinary_players_chat_line(mod_client, bob, running) -> None:
    line = line_of(bob, running)

    act(mod_client, "games_chatmessage", "hide_messages", line, reason="spam")

    assert is_hidden(line)


def test_a_moderator_may_abort_a_table(mod_client, running) -> None:
    act(mod_client, "games_table", "abort_games", running, reason="stuck")

    assert Table.objects.get(pk=running.pk).status == "aborted"


def test_a_moderator_may_watch_a_private_table_and_it_is_logged(mod, mod_client, alice) -> None:
    table = tables.play_against_bots(alice, opponents=1)

    page = mod_client.get(reverse("games:table", args=[table.pk]))

    assert page.status_code == 200
    entry = ModerationLog.objects.get()
    assert (entry.actor, entry.action, entry.target) == (mod, "watch", alice)


def test_a_moderator_may_verify_a_game(mod, mod_client, running) -> None:
    game = Game.objects.get(table=running)

    act(mod_client, "games_game", "verify_games", game)

    assert GameVerification.objects.get(game=game).verified_by == mod


def test_a_moderator_may_read_the_log(mod, mod_client, bob) -> None:
    entry = ModerationLog.objects.create(actor=mod, action="ban", target=bob, reason="spam")

    listing = mod_client.get(actions_url("moderation_moderationlog"))
    page = mod_client.get(reverse("admin:moderation_moderationlog_change", args=[entry.pk]))

    assert listing.status_code == 200 and "spam" in listing.content.decode()
    assert page.status_code == 200


# ------------------------------------------------------------------ a moderator may not


def test_a_moderator_may_not_sanction_themselves(mod, mod_client) -> None:
    response = add_sanction(mod_client, mod)

    assert "You cannot act on yourself." in response.content.decode()
    assert not Sanction.objects.exists() and not logged()


def test_a_moderator_may_not_lift_their_own_sanction(mod, mod_client) -> None:
    sanction = sanction_on(mod)

    page = mod_client.get(reverse("admin:accounts_sanction_change", args=[sanction.pk]))
    response = lift(mod_client, sanction)

    assert 'name="lift_reason"' not in page.content.decode()
    assert response.status_code == 403
    assert Sanction.objects.get(pk=sanction.pk).is_active and not logged()


def test_a_moderator_may_not_rename_nor_ban_themselves(mod, mod_client) -> None:
    act(mod_client, "auth_user", "rename", mod, reason="why not", new_name="boss")
    act(mod_client, "auth_user", "ban", mod, reason="oops")

    mod.refresh_from_db()
    assert (mod.username, mod.is_active) == ("mia", True) and not logged()


def test_a_moderator_may_not_hide_their_own_line(mod, mod_client, running) -> None:
    line = line_of(mod, running)

    act(mod_client, "games_chatmessage", "hide_messages", line, reason="regret")

    assert not is_hidden(line) and not logged()


def test_a_moderator_may_not_handle_a_report_about_themselves(mod, mod_client, alice) -> None:
    report = Report.objects.create(filer=alice, target=mod, category="abusive_chat")

    page = mod_client.get(reverse("admin:moderation_report_change", args=[report.pk]))
    response = handle(mod_client, report, status="dismissed")

    assert 'name="status"' not in page.content.decode()
    assert response.status_code == 403
    assert Report.objects.get(pk=report.pk).status == "open" and not logged()


def test_a_moderator_may_not_act_on_another_moderator(
    mod_client, other_mod, alice, running
) -> None:
    sanction = sanction_on(other_mod)
    line = line_of(other_mod, running)
    report = Report.objects.create(filer=alice, target=other_mod, category="abusive_chat")

    add_sanction(mod_client, other_mod, "play_ban")
    lift(mod_client, sanction)
    act(mod_client, "auth_user", "ban", other_mod, reason="spam")
    act(mod_client, "auth_user", "rename", other_mod, reason="rude", new_name="otto_2")
    act(mod_client, "games_chatmessage", "hide_messages", line, reason="spam")
    handle(mod_client, report)

    other_mod.refresh_from_db()
    assert (other_mod.username, other_mod.is_active) == ("otto", True)
    assert list(Sanction.objects.all()) == [sanction] and sanction.is_active
    assert not is_hidden(line)
    assert Report.objects.get(pk=report.pk).status == "open"
    assert not logged()


def test_a_moderator_may_not_act_on_other_staff(mod_client, staffer) -> None:
    add_sanction(mod_client, staffer)
    act(mod_client, "auth_user", "ban", staffer, reason="spam")
    act(mod_client, "auth_user", "rename", staffer, reason="rude", new_name="stan_2")

    staffer.refresh_from_db()
    assert (staffer.username, staffer.is_active) == ("stan", True)
    assert not Sanction.objects.exists() and not logged()


def test_a_superuser_may_act_on_a_moderator_but_not_on_themselves(root_client, root, mod) -> None:
    sanction = sanction_on(mod)

    lift(root_client, sanction)
    act(root_client, "auth_user", "rename", mod, reason="clearer", new_name="mia_mod")
    act(root_client, "auth_user", "rename", root, reason="shorter", new_name="rt")

    assert not Sanction.objects.get(pk=sanction.pk).is_active
    assert User.objects.get(pk=mod.pk).username == "mia_mod"
    assert User.objects.get(pk=root.pk).username == "root"


def test_a_moderator_may_not_act_on_a_superuser(mod_client, root) -> None:
    response = act(mod_client, "auth_user", "rename", root, reason="rude", new_name="toor")
    act(mod_client, "auth_user", "ban", root, reason="spam")
    add_sanction(mod_client, root)

    root.refresh_from_db()
    assert "Moderators act on ordinary players only" in response.content.decode()
    assert (root.username, root.is_active) == ("root", True)
    assert not Sanction.objects.exists() and not logged()


def test_a_moderator_may_not_set_a_password(mod_client, bob) -> None:
    response = mod_client.post(
        reverse("admin:auth_user_password_change", args=[bob.pk]),
        {"password1": "new-pass-123!", "password2": "new-pass-123!"},
    )

    assert response.status_code == 403
    assert User.objects.get(pk=bob.pk).check_password("bob-password-1")


def test_a_moderator_may_not_make_anyone_staff_or_superuser(mod_client, bob) -> None:
    response = mod_client.post(
        reverse("admin:auth_user_change", args=[bob.pk]),
        {"username": "bob", "is_staff": "on", "is_superuser": "on"},
    )

    bob.refresh_from_db()
    assert response.status_code == 403
    assert not bob.is_staff and not bob.is_superuser


def test_a_moderator_may_not_edit_nor_delete_the_log(mod, mod_client, bob) -> None:
    entry = ModerationLog.objects.create(actor=mod, action="ban", target=bob, reason="spam")

    add = mod_client.post(reverse("admin:moderation_moderationlog_add"), {"reason": "forged"})
    change = mod_client.post(
        reverse("admin:moderation_moderationlog_change", args=[entry.pk]), {"reason": "rewritten"}
    )
    delete = mod_client.post(
        reverse("admin:moderation_moderationlog_delete", args=[entry.pk]), {"post": "yes"}
    )

    assert (add.status_code, change.status_code, delete.status_code) == (403, 403, 403)
    assert list(ModerationLog.objects.values_list("reason", flat=True)) == ["spam"]


def test_a_moderator_may_not_edit_moves_or_games(mod_client, running) -> None:
    game = Game.objects.get(table=running)
    move = Move.objects.filter(game=game).first()
    before = (game.version, game.last_digest, move.digest)

    answers = [
        mod_client.post(reverse("admin:games_move_change", args=[move.pk]), {"seq": 9}),
        mod_client.post(reverse("admin:games_move_delete", args=[move.pk]), {"post": "yes"}),
        mod_client.post(reverse("admin:games_move_add"), {"seq": 9}),
        mod_client.post(reverse("admin:games_game_change", args=[game.pk]), {"version": 0}),
        mod_client.post(reverse("admin:games_game_delete", args=[game.pk]), {"post": "yes"}),
    ]

    game.refresh_from_db()
    move.refresh_from_db()
    assert [answer.status_code for answer in answers] == [403] * 5
    assert (game.version, game.last_digest, move.digest) == before


def test_a_moderator_may_not_delete_a_sanction_or_a_report_nor_edit_a_sanction(
    mod_client, alice, bob
) -> None:
    sanction = sanction_on(bob)
    report = Report.objects.create(filer=alice, target=bob, category="other")

    gone = [
        mod_client.post(reverse("admin:accounts_sanction_delete", args=[sanction.pk]), {"post": 1}),
        mod_client.post(reverse("admin:moderation_report_delete", args=[report.pk]), {"post": 1}),
    ]
    mod_client.post(
        reverse("admin:accounts_sanction_change", args=[sanction.pk]),
        {"lift_reason": "", "reason": "nothing", "kind": "account_ban"},
    )

    sanction.refresh_from_db()
    assert [answer.status_code for answer in gone] == [403, 403]
    assert Report.objects.filter(pk=report.pk).exists()
    assert (sanction.kind, sanction.reason, sanction.is_active) == ("chat_mute", "insults", True)


def test_a_private_finished_game_seen_by_a_moderator_is_logged(
    mod, mod_client, make_table, bob
) -> None:
    table = make_table(players=[bob], start=True, turn_seconds=None, public=False)
    game = play_to_the_end(table)

    mod_client.get(reverse("games:finished_game", args=[game.pk]))

    assert ModerationLog.objects.get().action == "watch"


def test_a_report_about_a_moderator_is_handled_by_a_superuser(root, root_client, mod, alice):
    report = Report.objects.create(filer=alice, target=mod, category="abusive_chat")

    handle(root_client, report, status="dismissed", notes="a fair warning")

    report.refresh_from_db()
    assert (report.status, report.handled_by) == ("dismissed", root)
