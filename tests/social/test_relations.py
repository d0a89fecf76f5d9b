"""social.relations: following, friends, blocking and the privacy settings."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from accounts.guests import create_guest
from social import relations
from social.errors import Refused
from social.models import Block, Follow, Notification, Privacy

pytestmark = pytest.mark.django_db

User = get_user_model()


def refusal(call, *args, **kwargs) -> Refused:
    with pytest.raises(Refused) as caught:
        call(*args, **kwargs)
    return caught.value


def test_following_tells_the_followed_once(alice, bob) -> None:
    relations.follow(alice, bob)
    relations.follow(alice, bob)

    assert list(relations.following(alice)) == [bob]
    assert list(relations.followers(bob)) == [alice]
    told = Notification.objects.get(recipient=bob)
    assert told.kind == Notification.Kind.NEW_FOLLOWER
    assert told.data["by"] == "alice" and told.data["friends"] is False
    assert told.data["url"] == "/players/alice/"


def test_people_who_follow_each_other_are_friends(alice, bob, carol) -> None:
    relations.follow(alice, bob)
    relations.follow(carol, alice)
    assert list(relations.friends_of(alice)) == []

    relations.follow(bob, alice)

    assert list(relations.friends_of(alice)) == [bob]
    assert list(relations.friends_of(bob)) == [alice]
    assert relations.are_friends(alice, bob) and not relations.are_friends(alice, carol)
    assert Notification.objects.get(recipient=alice, data__by="bob").data["friends"] is True


def test_the_friends_of_several_people_at_once_are_each_one_s_friends(alice, bob, carol) -> None:
    dave, erin, frank = (
        User.objects.create_user(name, password=f"{name}-password-1")
        for name in ("dave", "erin", "frank")
    )
    for one, other in ((alice, bob), (bob, carol), (alice, frank)):
        relations.follow(one, other)
        relations.follow(other, one)
    relations.follow(erin, alice)  # one way: not a friend
    Block.objects.create(blocker=dave, blocked=carol)  # follows both ways, and a block between
    Follow.objects.create(follower=carol, followed=dave)
    Follow.objects.create(follower=dave, followed=carol)
    User.objects.filter(pk=frank.pk).update(is_active=False)

    assert relations.friend_ids_of_any([alice.pk]) == {bob.pk}
    assert relations.friend_ids_of_any([alice.pk, carol.pk]) == {bob.pk}
    assert relations.friend_ids_of_any([bob.pk, dave.pk, erin.pk]) == {alice.pk, carol.pk}
    assert relations.friend_ids_of_any([]) == set()
    for person in (alice, bob, carol, dave, erin):
        friends = {friend.pk for friend in relations.friends_of(person)}
        assert relations.friend_ids_of_any([person.pk]) == friends


def test_unfollowing_ends_the_friendship(alice, bob) -> None:
    relations.follow(alice, bob)
    relations.follow(bob, alice)

    relations.unfollow(bob, alice)

    assert list(relations.friends_of(alice)) == []
    assert list(relations.followers(bob)) == [alice]


def test_a_guest_is_told_why_they_cannot_follow(bob) -> None:
    guest = create_guest()

    refused = refusal(relations.follow, guest, bob)

    assert refused.code == "guest"
    assert "Keep your account" in refused.message
    assert not Follow.objects.exists()


def test_nobody_follows_themselves(alice) -> None:
    assert refusal(relations.follow, alice, alice).code == "forbidden"


def test_blocking_ends_the_follows_both_ways(alice, bob) -> None:
    relations.follow(alice, bob)
    relations.follow(bob, alice)

    relations.block(alice, bob)

    assert not Follow.objects.exists()
    assert Block.objects.filter(blocker=alice, blocked=bob).count() == 1
    assert relations.blocked_either_way(bob, alice)
    assert relations.blocked_by(alice) == {bob.pk} and relations.blocked_by(bob) == set()


def test_the_blocker_is_told_to_unblock_before_following(alice, bob) -> None:
    relations.block(alice, bob)

    refused = refusal(relations.follow, alice, bob)

    assert "unblock" in refused.message


def test_someone_blocked_who_follows_is_answered_as_anyone_and_it_counts_for_nothing(
    alice, bob
) -> None:
    relations.follow(alice, bob)
    relations.block(alice, bob)

    relations.follow(bob, alice)  # no refusal: nothing tells bob he is blocked

    assert relations.relation(bob, alice).following  # his page shows him following
    assert list(relations.followers(alice)) == []
    assert list(relations.following(bob)) == []
    assert not relations.are_friends(alice, bob)
    assert not Notification.objects.filter(recipient=alice).exists()


def test_unblocking_lets_the_two_follow_again(alice, bob) -> None:
    relations.block(alice, bob)
    relations.unblock(alice, bob)

    relations.follow(alice, bob)

    assert list(relations.following(alice)) == [bob]
    assert not relations.blocked_either_way(alice, bob)


def test_a_relation_says_what_a_profile_shows(alice, bob) -> None:
    assert relations.relation(alice, alice) is None
    assert relations.relation(alice, bob) == relations.Relation(False, False, False)

    relations.follow(alice, bob)
    relations.follow(bob, alice)
    assert relations.relation(alice, bob) == relations.Relation(True, True, False)

    relations.block(alice, bob)
    assert relations.relation(alice, bob) == relations.Relation(False, False, True)


def test_anyone_may_challenge_by_default(alice, bob) -> None:
    relations.check_may_challenge(alice, bob)

    assert relations.may_challenge(alice, bob)


def test_friends_only_refuses_others_and_nobody_refuses_friends(alice, bob, carol) -> None:
    relations.follow(alice, bob)
    relations.follow(bob, alice)
    relations.set_privacy(bob, challenges=Privacy.Challenges.FRIENDS, online="everyone")

    assert relations.may_challenge(alice, bob)
    assert "not taking challenges" in refusal(relations.check_may_challenge, carol, bob).message

    relations.set_privacy(bob, challenges=Privacy.Challenges.NOBODY, online="everyone")
    assert not relations.may_challenge(alice, bob)


def test_a_block_is_refused_in_the_words_of_a_setting_either_way(alice, bob, carol) -> None:
    relations.set_privacy(carol, challenges=Privacy.Challenges.NOBODY, online="everyone")
    relations.block(alice, bob)

    by_block = refusal(relations.check_may_challenge, bob, alice).message
    by_setting = refusal(relations.check_may_challenge, bob, carol).message

    assert by_block == by_setting.replace("carol", "alice")
    assert not relations.may_challenge(alice, bob)  # the blocker cannot challenge either


def test_guests_neither_challenge_nor_are_challenged(alice) -> None:
    guest = create_guest()

    assert refusal(relations.check_may_challenge, guest, alice).code == "guest"
    assert "guest" in refusal(relations.check_may_challenge, alice, guest).message


def test_a_setting_not_offered_is_refused(alice) -> None:
    assert refusal(relations.set_privacy, alice, challenges="all", online="everyone").code == (
        "bad_request"
    )
    assert relations.privacy_of(alice).challenges == Privacy.Challenges.EVERYONE


def test_who_sees_that_one_is_online(alice, bob, carol) -> None:
    relations.follow(alice, bob)
    relations.follow(bob, alice)
    assert relations.may_see_online(carol, bob)

    relations.set_privacy(bob, challenges="everyone", online=Privacy.Online.FRIENDS)

    assert relations.may_see_online(alice, bob)
    assert not relations.may_see_online(carol, bob)
    relations.block(bob, alice)
    assert not relations.may_see_online(alice, bob)
