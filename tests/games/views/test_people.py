"""Following, blocking and challenging from a player's page; the account page's lists and
privacy settings; the notifications page; the home page's friends panel and challenges."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.guests import create_guest
from games.services import challenges, online
from social import notifications, relations
from social.models import Block, Follow, Notification, Privacy

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("nobody_connected")]


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def text(response) -> str:
    return response.content.decode()


def profile(client: Client, username: str) -> str:
    return text(client.get(reverse("games:profile", args=[username])))


# ------------------------------------------------------------------ a player's page


def test_a_player_s_page_offers_follow_challenge_and_block(alice, bob) -> None:
    page = profile(signed_in(alice), "bob")

    assert f'action="{reverse("games:follow", args=["bob"])}"' in page
    assert f'href="{reverse("games:new_challenge")}?to=bob"' in page
    assert f'action="{reverse("games:block", args=["bob"])}"' in page
    assert "Unfollow" not in page


def test_a_visitor_and_one_s_own_page_offer_none_of_it(client, alice) -> None:
    assert "/follow/" not in profile(client, "alice")
    own = profile(signed_in(alice), "alice")
    assert "/follow/" not in own and "/block/" not in own
    assert f'href="{reverse("games:account")}"' in own


def test_following_from_the_page_then_unfollowing(alice, bob) -> None:
    client = signed_in(alice)

    page = text(client.post(reverse("games:follow", args=["bob"]), follow=True))

    assert Follow.objects.filter(follower=alice, followed=bob).exists()
    assert "You follow bob." in page and ">Unfollow</button>" in page
    client.post(reverse("games:unfollow", args=["bob"]))
    assert not Follow.objects.exists()


def test_friends_are_said_to_be_friends(alice, bob) -> None:
    relations.follow(bob, alice)
    client = signed_in(alice)

    page = text(client.post(reverse("games:follow", args=["BOB"]), follow=True))

    assert '<span class="profile__friends">Friends</span>' in page


def test_a_guest_is_told_why_not_and_offered_to_keep_the_account(bob) -> None:
    client = signed_in(create_guest())

    page = text(client.post(reverse("games:follow", args=["bob"]), follow=True))

    assert "Guests cannot follow players." in page
    assert f'href="{reverse("accounts:claim")}">Keep your account</a>' in page
    assert not Follow.objects.exists()


def test_blocking_from_the_page(alice, bob) -> None:
    relations.follow(alice, bob)
    client = signed_in(alice)

    page = text(client.post(reverse("games:block", args=["bob"]), follow=True))

    assert Block.objects.filter(blocker=alice, blocked=bob).exists()
    assert not Follow.objects.exists()
    assert "You blocked this player." in page and ">Unblock</button>" in page
    assert "?to=bob" not in page  # no challenge across a block


def test_the_blocked_person_s_page_of_the_blocker_shows_nothing_of_it(alice, bob) -> None:
    relations.block(alice, bob)

    page = profile(signed_in(bob), "alice")

    assert "blocked" not in page.lower() and ">Unblock</button>" not in page
    assert ">Follow</button>" in page
    assert "?to=alice" not in page  # the challenge is refused, in the same words as a setting


def test_an_unknown_player_is_not_found(alice) -> None:
    response = signed_in(alice).post(reverse("games:follow", args=["nobody-here"]))

    assert response.status_code == 404


def test_follows_are_posted_only(alice, bob) -> None:
    assert signed_in(alice).get(reverse("games:follow", args=["bob"])).status_code == 405


def test_online_is_shown_to_those_the_setting_allows(alice, bob, carol) -> None:
    relations.follow(alice, bob)
    relations.follow(bob, alice)
    online.page_opened(bob)
    online_mark = '<span class="friend__state">Online</span>'
    assert online_mark in profile(signed_in(carol), "bob")

    relations.set_privacy(bob, challenges="everyone", online=Privacy.Online.FRIENDS)

    assert online_mark not in profile(signed_in(carol), "bob")
    assert online_mark in profile(signed_in(alice), "bob")


# ------------------------------------------------------------------ the account page


def test_the_account_page_lists_following_followers_and_blocked(alice, bob, carol) -> None:
    relations.follow(alice, bob)
    relations.follow(bob, alice)
    relations.follow(carol, alice)
    dave = type(alice).objects.create_user("dave")
    relations.block(alice, dave)

    page = text(signed_in(alice).get(reverse("games:account")))

    following = page[page.index('data-list="following"') : page.index('data-list="followers"')]
    followers = page[page.index('data-list="followers"') : page.index('data-list="blocking"')]
    assert ">bob</a>" in following and "carol" not in following
    assert ">bob</a>" in followers and ">carol</a>" in followers
    assert "Friends" in following
    assert f'action="{reverse("games:unblock", args=["dave"])}"' in page


def test_the_privacy_settings_are_saved(alice) -> None:
    client = signed_in(alice)

    page = text(
        client.post(
            reverse("games:account"), {"challenges": "friends", "online": "friends"}, follow=True
        )
    )

    privacy = relations.privacy_of(alice)
    assert (privacy.challenges, privacy.online) == ("friends", "friends")
    assert "Your privacy settings are saved." in page
    assert 'name="challenges" value="friends" required id="id_challenges_1" checked' in page
    assert 'name="online" value="friends" required id="id_online_1" checked' in page


def test_a_setting_not_offered_is_refused(alice) -> None:
    page = text(signed_in(alice).post(reverse("games:account"), {"challenges": "all"}))

    assert "Select a valid choice." in page
    assert not Privacy.objects.exists()


def test_unblocking_from_the_account_page_comes_back_to_it(alice, bob) -> None:
    relations.block(alice, bob)

    response = signed_in(alice).post(reverse("games:unblock", args=["bob"]), {"next": "account"})

    assert response.url == reverse("games:account")
    assert not Block.objects.exists()


# ------------------------------------------------------------------ notifications


def test_the_notifications_page_shows_them_and_marks_them_read(alice, bob) -> None:
    notifications.notify(alice, Notification.Kind.NEW_FOLLOWER, by="bob", url="/players/bob/")
    challenge = challenges.create_challenge(bob, [alice], seat_count=2)
    client = signed_in(alice)

    page = text(client.get(reverse("games:notifications")))

    assert page.count('class="notification notification--unread"') == 2
    assert '<a href="/players/bob/">bob follows you.</a>' in page
    answer = reverse("games:challenge_answer", args=[challenge.pk])
    assert f'action="{answer}"' in page
    assert notifications.unread_count(alice) == 0
    again = text(client.get(reverse("games:notifications")))
    assert "notification--unread" not in again
    assert '<span class="bell__count">' not in again


def test_an_answered_challenge_offers_no_answer_any_more(alice, bob) -> None:
    challenge = challenges.create_challenge(bob, [alice], seat_count=2)
    challenges.cancel_challenge(challenge.pk, bob)

    page = text(signed_in(alice).get(reverse("games:notifications")))

    assert "bob cancelled their challenge." in page
    assert reverse("games:challenge_answer", args=[challenge.pk]) not in page


def test_nobody_reads_another_s_notifications(alice, bob) -> None:
    notifications.notify(alice, Notification.Kind.NEW_FOLLOWER, by="carol")

    page = text(signed_in(bob).get(reverse("games:notifications")))

    assert "carol follows you" not in page and "Nothing to tell you yet." in page
    assert notifications.unread_count(alice) == 1


# ------------------------------------------------------------------ the home page


def test_the_home_page_shows_friends_online_playing_and_a_challenge_button(
    alice, bob, carol, make_table
) -> None:
    for friend in (bob, carol):
        relations.follow(alice, friend)
        relations.follow(friend, alice)
    online.page_opened(bob)
    dave = type(alice).objects.create_user("dave")
    table = make_table(host=carol, players=[dave], start=True)

    page = text(signed_in(alice).get(reverse("games:home")))

    panel = page[page.index('id="friends-panel"') : page.index('id="open-challenges"')]
    assert 'data-friend="bob" data-state="online"' in panel
    assert 'data-friend="carol" data-state="playing"' in panel
    assert f'href="{table.page_url()}"' in panel  # a public table: watched
    assert f'href="{reverse("games:new_challenge")}?to=bob"' in panel
    assert panel.index('data-friend="bob"') < panel.index('data-friend="carol"')


def test_a_private_table_is_not_offered_to_watch(alice, bob, carol, make_table) -> None:
    relations.follow(alice, bob)
    relations.follow(bob, alice)
    table = make_table(host=bob, players=[carol], public=False, start=True)

    page = text(signed_in(alice).get(reverse("games:home")))

    assert 'data-friend="bob" data-state="playing"' in page
    assert f'href="{table.page_url()}"' not in page


def test_the_home_page_lists_open_challenges_both_ways(alice, bob, carol) -> None:
    mine = challenges.create_challenge(alice, [bob], seat_count=2)
    theirs = challenges.create_challenge(carol, [alice], seat_count=2)

    page = text(signed_in(alice).get(reverse("games:home")))

    listed = page[page.index('id="open-challenges"') :]
    assert f'href="{reverse("games:challenge", args=[mine.pk])}">Your challenge</a>' in listed
    assert f'href="{reverse("games:challenge", args=[theirs.pk])}">From carol</a>' in listed
