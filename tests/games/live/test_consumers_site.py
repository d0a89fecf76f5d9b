"""The site socket of every signed-in page (games.live.site): the bell, new notifications, the
page's own panels, and the way to a started challenge's table."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from games.live import site
from games.services import broadcast, challenges, online, tables
from social import notifications, relations
from social.models import Notification
from tests.games.live.sockets import SOCKETS

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("nobody_connected")]

Kind = Notification.Kind
notify = database_sync_to_async(notifications.notify)


async def page(user, query: str = "") -> WebsocketCommunicator:
    """A page of ``user``'s, its site socket open and its first push (the bell) taken."""
    socket = WebsocketCommunicator(SOCKETS, "/ws/site/" + (f"?{query}" if query else ""))
    socket.scope["user"] = user
    connected, _ = await socket.connect()
    assert connected
    first = await socket.receive_from(timeout=1)
    assert first.startswith('<a id="bell"')
    socket.first = first
    return socket


@database_sync_to_async
def befriend(a, b) -> None:
    relations.follow(a, b)
    relations.follow(b, a)


async def test_a_visitor_without_a_log_in_is_refused() -> None:
    socket = WebsocketCommunicator(SOCKETS, "/ws/site/")
    socket.scope["user"] = AnonymousUser()

    connected, code = await socket.connect()

    assert (connected, code) == (False, 4403)


async def test_a_page_that_opens_is_told_what_it_missed(alice) -> None:
    await notify(alice, Kind.NEW_FOLLOWER, by="bob")
    await notify(alice, Kind.NEW_FOLLOWER, by="carol")

    socket = await page(alice)

    assert '<span class="bell__count">2</span>' in socket.first
    await socket.disconnect()


async def test_a_notification_reaches_every_page_of_its_person_at_once(alice, bob) -> None:
    first, second = await page(alice), await page(alice)
    other = await page(bob)
    assert 'class="bell__count"' not in first.first

    await notify(alice, Kind.NEW_FOLLOWER, by="carol", url="/players/carol/")

    for socket in (first, second):
        html = await socket.receive_from(timeout=1)
        assert '<span class="bell__count">1</span>' in html
        assert '<div id="site-alert"' in html
        assert '<a href="/players/carol/">carol follows you.</a>' in html
    assert await other.receive_nothing(timeout=0.2)
    for socket in (first, second, other):
        await socket.disconnect()


async def test_it_is_said_in_the_page_s_language(alice) -> None:
    socket = WebsocketCommunicator(SOCKETS, "/ws/site/")
    socket.scope["user"] = alice
    socket.scope["headers"] = [(b"accept-language", b"es")]
    assert (await socket.connect())[0]
    await socket.receive_from(timeout=1)

    await notify(alice, Kind.CHALLENGE_RECEIVED, by="bob")

    html = await socket.receive_from(timeout=1)
    assert "bob te desafía a una partida." in html and "Notificaciones" in html
    await socket.disconnect()


async def test_a_challenge_received_comes_with_accept_and_decline(alice, bob) -> None:
    socket = await page(bob)

    challenge = await database_sync_to_async(challenges.create_challenge)(
        alice, [bob], seat_count=2
    )

    html = await socket.receive_from(timeout=1)
    answer = f"/challenges/{challenge.pk}/answer/"
    assert f'hx-post="{answer}"' in html
    assert 'value="accept"' in html and 'value="decline"' in html
    assert "alice challenges you to a game." in html
    await socket.disconnect()


async def test_marking_read_lowers_the_count_on_the_other_pages(alice) -> None:
    told = await notify(alice, Kind.NEW_FOLLOWER, by="bob")
    socket = await page(alice)
    assert '<span class="bell__count">1</span>' in socket.first

    await database_sync_to_async(notifications.mark_read)(alice, [told.pk])

    html = await socket.receive_from(timeout=1)
    assert html.startswith('<a id="bell"') and "bell__count" not in html
    assert "site-alert" not in html
    await socket.disconnect()


async def test_the_challenge_s_page_sees_each_answer_live(alice, bob, carol) -> None:
    challenge = await database_sync_to_async(challenges.create_challenge)(
        alice, [bob, carol], seat_count=3
    )
    watching = await page(alice, f"challenge={challenge.pk}")
    elsewhere = await page(alice)

    await database_sync_to_async(challenges.decline_challenge)(challenge.pk, carol)

    pushes = [await watching.receive_from(timeout=1) for _ in range(2)]
    drawn = next(html for html in pushes if f'id="challenge-{challenge.pk}"' in html)
    assert "carol: Declined" in drawn and "bob: Not answered yet" in drawn
    only_bell = await elsewhere.receive_from(timeout=1)  # the notification, not the challenge
    assert f"challenge-{challenge.pk}" not in only_bell
    assert await elsewhere.receive_nothing(timeout=0.2)
    for socket in (watching, elsewhere):
        await socket.disconnect()


async def test_a_started_challenge_sends_both_pages_to_the_table(alice, bob) -> None:
    challenge = await database_sync_to_async(challenges.create_challenge)(
        alice, [bob], seat_count=2
    )
    challenger, challenged = await page(alice), await page(bob, "challenges=1")

    await database_sync_to_async(challenges.accept_challenge)(challenge.pk, bob)

    await database_sync_to_async(challenge.refresh_from_db)()
    go = f'hx-get="/challenges/go/{challenge.table_id}/"'
    for socket in (challenger, challenged):
        pushes = []
        while not any(go in html for html in pushes):
            pushes.append(await socket.receive_from(timeout=1))
        assert any('hx-trigger="load"' in html for html in pushes)
    await challenger.disconnect()
    await challenged.disconnect()


async def test_a_friend_coming_online_redraws_the_friends_panel(alice, bob, carol) -> None:
    await befriend(alice, bob)
    home = await page(bob, "friends=1")
    other = await page(carol, "friends=1")  # not alice's friend

    alice_page = await page(alice)

    panel = await home.receive_from(timeout=1)
    assert panel.startswith('<section id="friends-panel"')
    assert 'data-friend="alice" data-state="online"' in panel
    assert await other.receive_nothing(timeout=0.2)
    assert await alice_page.receive_nothing(timeout=0.2)  # its own page is not told
    for socket in (home, other, alice_page):
        await socket.disconnect()


async def test_a_page_without_the_panel_is_not_pushed_it(alice, bob) -> None:
    await befriend(alice, bob)
    elsewhere = await page(bob)

    alice_page = await page(alice)

    assert await elsewhere.receive_nothing(timeout=0.2)
    await elsewhere.disconnect()
    await alice_page.disconnect()


async def test_going_from_page_to_page_is_not_leaving(alice, bob, monkeypatch) -> None:
    monkeypatch.setattr(online, "GONE_AFTER", 0.2)
    await befriend(alice, bob)
    home = await page(bob, "friends=1")
    first = await page(alice)
    await home.receive_from(timeout=1)  # alice came

    await first.disconnect()
    second = await page(alice)  # the next page, at once
    assert await home.receive_nothing(timeout=0.5)

    await second.disconnect()
    panel = await home.receive_from(timeout=1)
    assert 'data-friend="alice" data-state="offline"' in panel
    await home.disconnect()


async def test_the_page_closes_when_its_person_logs_out_elsewhere(alice) -> None:
    socket = await page(alice)

    await database_sync_to_async(broadcast.sessions_ended)(alice.pk)

    assert await socket.receive_output(timeout=1) == {"type": "websocket.close", "code": 4401}
    await socket.disconnect()


async def test_one_person_may_hold_only_so_many_pages(alice, monkeypatch) -> None:
    monkeypatch.setattr(site, "PAGES_PER_PERSON", 2)
    pages = [await page(alice), await page(alice)]

    third = WebsocketCommunicator(SOCKETS, "/ws/site/")
    third.scope["user"] = alice
    assert (await third.connect())[0]

    closed = await third.receive_output(timeout=1)
    assert (closed["type"], closed["code"]) == ("websocket.close", 4429)
    for socket in pages:
        await socket.disconnect()


async def test_a_friend_sitting_down_to_a_game_and_leaving_it_redraw_the_panel(
    alice, bob, carol
) -> None:
    await befriend(alice, bob)
    home = await page(bob, "friends=1")
    other = await page(carol, "friends=1")  # not alice's friend

    table = await database_sync_to_async(tables.play_against_bots)(alice, opponents=1)

    panel = await home.receive_from(timeout=1)
    assert 'data-friend="alice" data-state="playing"' in panel
    assert not table.public and "Watch" not in panel  # a bot table is its player's own
    assert await other.receive_nothing(timeout=0.2)

    await database_sync_to_async(tables.leave_table)(table.pk, alice)

    panel = await home.receive_from(timeout=1)
    assert 'data-friend="alice" data-state="offline"' in panel
    assert "Watch" not in panel
    for socket in (home, other):
        await socket.disconnect()


async def test_the_people_online_are_counted_as_their_pages_open_and_close(alice, bob) -> None:
    first = await page(alice)
    second = await page(bob)
    assert online.people_online() == 2

    await second.disconnect()
    assert online.people_online() == 1
    await first.disconnect()
    assert online.people_online() == 0
