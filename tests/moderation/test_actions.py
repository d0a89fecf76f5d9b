"""Moderation actions beyond the admin's forms: an account ban takes the banned person's lines
off the pages already open; a sanction from a report is one step, all or nothing."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.core.cache import cache

from accounts.models import Sanction
from games.services import chat
from games.services.errors import ServiceError
from moderation import actions as moderation
from moderation.models import ModerationLog, Report
from tests.games.live.test_consumers_chat import drain
from tests.games.live.test_consumers_table import connect


@pytest.fixture
def table(make_table, bob):
    return make_table(players=[bob], start=True, turn_seconds=None)


@pytest.mark.django_db(transaction=True)
async def test_a_ban_takes_each_of_the_banned_players_lines_off_the_open_pages(
    table, alice, bob, moderator
) -> None:
    await database_sync_to_async(cache.clear)()  # the chat's rate limit
    socket = await connect(table, alice)
    await drain(socket)
    post = database_sync_to_async(chat.post_message)
    lines = [await post(table.pk, bob, "players", text) for text in ("buy", "cheap", "coins")]
    await drain(socket)

    await database_sync_to_async(moderation.ban)(moderator, bob, "spam")

    pushed = await drain(socket)
    for line in lines:
        assert f'<li id="chat-line-{line.pk}" hx-swap-oob="delete">' in pushed
    await socket.disconnect()


@pytest.mark.django_db
def test_a_sanction_from_a_report_resolves_it_linked_with_both_log_rows(mod, alice, bob) -> None:
    report = Report.objects.create(filer=alice, target=bob, category="abusive_chat")

    sanction = moderation.sanction_from_report(mod, report, "chat_mute", "insults", None)

    report.refresh_from_db()
    assert (report.status, report.sanction, report.handled_by) == ("resolved", sanction, mod)
    assert report.notes == "insults"  # no notes: the sanction's reason
    assert sorted(ModerationLog.objects.values_list("action", flat=True)) == [
        "handle_report",
        "sanction",
    ]


@pytest.mark.django_db
def test_an_account_ban_from_a_report_is_logged_as_a_ban(mod, alice, bob) -> None:
    report = Report.objects.create(filer=alice, target=bob, category="cheating")

    moderation.sanction_from_report(mod, report, "account_ban", "collusion", None, "two accounts")

    bob.refresh_from_db()
    assert not bob.is_active
    assert Report.objects.get(pk=report.pk).notes == "two accounts"
    assert set(ModerationLog.objects.values_list("action", flat=True)) == {"ban", "handle_report"}


@pytest.mark.django_db
def test_a_refused_sanction_from_a_report_leaves_the_report_open_and_nothing_logged(
    mod, alice
) -> None:
    report = Report.objects.create(filer=alice, target=mod, category="abusive_chat")

    with pytest.raises(ServiceError):
        moderation.sanction_from_report(mod, report, "chat_mute", "insults", None)

    assert Report.objects.get(pk=report.pk).status == "open"
    assert not Sanction.objects.exists() and not ModerationLog.objects.exists()


@pytest.mark.django_db
def test_a_report_handled_already_is_not_acted_on_twice(mod, alice, bob) -> None:
    report = Report.objects.create(filer=alice, target=bob, category="abusive_chat")
    moderation.handle_report(mod, report, "dismissed", "nothing there")

    with pytest.raises(ServiceError, match="handled already"):
        moderation.sanction_from_report(mod, report, "chat_mute", "insults", None)

    assert not Sanction.objects.exists()
    assert Report.objects.get(pk=report.pk).status == "dismissed"


@pytest.mark.django_db
def test_an_unknown_kind_of_sanction_is_refused_and_nothing_is_kept(mod, alice, bob) -> None:
    report = Report.objects.create(filer=alice, target=bob, category="other")

    with pytest.raises(ServiceError, match="Choose a chat mute"):
        moderation.sanction_from_report(mod, report, "exile", "why not", None)

    assert not Sanction.objects.exists() and not ModerationLog.objects.exists()
    assert Report.objects.get(pk=report.pk).status == "open"


@pytest.mark.django_db
def test_whoever_filed_a_report_is_told_it_was_handled_and_nothing_more(mod, alice, bob) -> None:
    from social import notifications
    from social.models import Notification

    report = Report.objects.create(filer=alice, target=bob, category="abusive_chat")

    moderation.handle_report(mod, report, "dismissed", "nothing there")

    told = Notification.objects.get(recipient=alice)
    assert told.kind == Notification.Kind.REPORT_HANDLED
    assert notifications.words(told) == "A moderator handled your report about bob."
    assert "nothing there" not in str(told.data)
    assert not Notification.objects.filter(recipient=bob).exists()
