"""Following, blocking, friends and the privacy settings, and the questions the site asks of
them.

Friends are two people who follow each other, neither having blocked the other. Blocking ends
the follows both ways. Someone blocked who follows their blocker is answered as anyone who
follows is (the row is kept, and counts for nothing while the block holds: no notification, no
friendship, not among the blocker's followers), so that nothing tells them who blocked them.
Guests (``accounts.guests``) neither follow nor challenge: they are told why, and offered to
keep their account.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.urls import reverse
from django.utils.translation import gettext as _

from accounts import guests
from social import notifications
from social.errors import Refused
from social.models import Block, Follow, Notification, Privacy

User = AbstractBaseUser

# People one person may follow, and block: lichess's limits, far above what a person uses.
MAX_FOLLOWING = 1000
MAX_BLOCKING = 1000


def _check_signed_up(user: User, refusal: str) -> None:
    if user is None or not user.is_authenticated:
        raise Refused("forbidden", _("Log in first."))
    if guests.is_guest(user):
        raise Refused("guest", refusal)


def blocked_either_way(a: User | int, b: User | int) -> bool:
    """Whether ``a`` blocked ``b`` or ``b`` blocked ``a``."""
    a_id, b_id = _id(a), _id(b)
    return Block.objects.filter(
        Q(blocker_id=a_id, blocked_id=b_id) | Q(blocker_id=b_id, blocked_id=a_id)
    ).exists()


def has_blocked(blocker: User | int, blocked: User | int) -> bool:
    """Whether ``blocker`` blocked ``blocked``."""
    return Block.objects.filter(blocker_id=_id(blocker), blocked_id=_id(blocked)).exists()


def blocked_by(user: User) -> set[int]:
    """The ids of the people ``user`` blocked."""
    if not user.is_authenticated:
        return set()
    return set(Block.objects.filter(blocker=user).values_list("blocked_id", flat=True))


def blockers_among(blocked: User | int, user_ids: set[int]) -> set[int]:
    """Which of ``user_ids`` blocked ``blocked``."""
    return set(
        Block.objects.filter(blocked_id=_id(blocked), blocker_id__in=user_ids).values_list(
            "blocker_id", flat=True
        )
    )


def follow(follower: User, followed: User) -> None:
    """``follower`` follows ``followed``; following again changes nothing. ``followed`` is told
    (a new follower), unless they blocked ``follower``: then nothing counts, and nothing says so.

    :raises Refused: ``forbidden`` (not logged in, themselves, someone they blocked, too many
        follows); ``guest``; ``not_found`` (a closed account).
    """
    _check_signed_up(
        follower, _("Guests cannot follow players. Keep your account to follow people.")
    )
    if follower.pk == followed.pk:
        raise Refused("forbidden", _("You cannot follow yourself."))
    if not followed.is_active:
        raise Refused("not_found", _("There is no such player."))
    if has_blocked(follower, followed):
        raise Refused(
            "forbidden",
            _("You blocked %(username)s: unblock them to follow them.")
            % {"username": followed.get_username()},
        )
    with transaction.atomic():
        # Serialise one person's follows, so that two at once cannot both pass the count.
        get_user_model().objects.select_for_update().filter(pk=follower.pk).first()
        if Follow.objects.filter(follower=follower, followed=followed).exists():
            return
        if Follow.objects.filter(follower=follower).count() >= MAX_FOLLOWING:
            raise Refused(
                "forbidden",
                _("You follow %(count)d players already: unfollow some first.")
                % {"count": MAX_FOLLOWING},
            )
        try:
            with transaction.atomic():
                Follow.objects.create(follower=follower, followed=followed)
        except IntegrityError:  # followed in another tab meanwhile
            return
        if has_blocked(followed, follower):
            return  # kept, counting for nothing while the block holds
        friends = Follow.objects.filter(follower=followed, followed=follower).exists()
        notifications.notify(
            followed,
            Notification.Kind.NEW_FOLLOWER,
            by=follower.get_username(),
            friends=friends,
            url=reverse("games:profile", args=[follower.get_username()]),
        )


def unfollow(follower: User, followed: User) -> None:
    """``follower`` no longer follows ``followed`` (nothing happens if they did not)."""
    Follow.objects.filter(follower=follower, followed=followed).delete()


def block(blocker: User, blocked: User) -> None:
    """``blocker`` blocks ``blocked``: the follows between them end, both ways. Blocking again
    changes nothing. ``blocked`` is not told.

    :raises Refused: ``forbidden`` (not logged in, themselves, too many blocks).
    """
    if blocker is None or not blocker.is_authenticated:
        raise Refused("forbidden", _("Log in first."))
    if blocker.pk == blocked.pk:
        raise Refused("forbidden", _("You cannot block yourself."))
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=blocker.pk).first()
        Follow.objects.filter(
            Q(follower=blocker, followed=blocked) | Q(follower=blocked, followed=blocker)
        ).delete()
        if Block.objects.filter(blocker=blocker, blocked=blocked).exists():
            return
        if Block.objects.filter(blocker=blocker).count() >= MAX_BLOCKING:
            raise Refused(
                "forbidden",
                _("You block %(count)d players already: unblock some first.")
                % {"count": MAX_BLOCKING},
            )
        try:
            with transaction.atomic():
                Block.objects.create(blocker=blocker, blocked=blocked)
        except IntegrityError:  # blocked in another tab meanwhile
            return


def unblock(blocker: User, blocked: User) -> None:
    """``blocker`` no longer blocks ``blocked``. The follows the block ended stay ended."""
    Block.objects.filter(blocker=blocker, blocked=blocked).delete()


def _unblocked(people: QuerySet, user: User) -> QuerySet:
    """``people`` but those ``user`` blocked or who blocked ``user``."""
    return people.exclude(
        Exists(Block.objects.filter(blocker=user, blocked=OuterRef("pk")))
    ).exclude(Exists(Block.objects.filter(blocker=OuterRef("pk"), blocked=user)))


def following(user: User) -> QuerySet:
    """The people ``user`` follows (those they blocked or who blocked them left out), by name."""
    people = get_user_model().objects.filter(follower_rows__follower=user, is_active=True)
    return _unblocked(people, user).order_by("username")


def followers(user: User) -> QuerySet:
    """The people who follow ``user`` (those they blocked or who blocked them left out), by
    name."""
    people = get_user_model().objects.filter(following_rows__followed=user, is_active=True)
    return _unblocked(people, user).order_by("username")


def friends_of(user: User) -> QuerySet:
    """``user``'s friends: the people who follow them and whom they follow, neither having
    blocked the other, by name."""
    if not user.is_authenticated:
        return get_user_model().objects.none()
    return following(user).filter(following_rows__followed=user)


def friend_ids_of_any(user_ids: Iterable[int]) -> set[int]:
    """The ids of the friends of any of ``user_ids`` (each as :func:`friends_of` tells them),
    in one query however many people."""
    followed_back = Follow.objects.filter(
        follower_id=OuterRef("followed_id"), followed_id=OuterRef("follower_id")
    )
    blocked_either_way = Block.objects.filter(
        Q(blocker_id=OuterRef("follower_id"), blocked_id=OuterRef("followed_id"))
        | Q(blocker_id=OuterRef("followed_id"), blocked_id=OuterRef("follower_id"))
    )
    rows = (
        Follow.objects.filter(follower_id__in=list(user_ids), followed__is_active=True)
        .filter(Exists(followed_back))
        .exclude(Exists(blocked_either_way))
    )
    return set(rows.values_list("followed_id", flat=True))


def are_friends(a: User, b: User) -> bool:
    """Whether ``a`` and ``b`` follow each other, neither having blocked the other."""
    if a.pk == b.pk or not (a.is_authenticated and b.is_authenticated):
        return False
    mutual = (
        Follow.objects.filter(
            Q(follower_id=a.pk, followed_id=b.pk) | Q(follower_id=b.pk, followed_id=a.pk)
        ).count()
        == 2
    )
    return mutual and not blocked_either_way(a, b)


def blocking(user: User) -> QuerySet:
    """The people ``user`` blocked, by name."""
    return get_user_model().objects.filter(blocked_by_rows__blocker=user).order_by("username")


@dataclass(frozen=True)
class Relation:
    """What one person's page shows another about the two of them."""

    following: bool  # the viewer follows them
    friends: bool
    blocked: bool  # the viewer blocked them


def relation(viewer: User, person: User) -> Relation | None:
    """How ``viewer`` stands towards ``person``; None for a visitor, or one's own page."""
    if not viewer.is_authenticated or viewer.pk == person.pk:
        return None
    blocked = has_blocked(viewer, person)
    follows = not blocked and Follow.objects.filter(follower=viewer, followed=person).exists()
    return Relation(
        following=follows, friends=follows and are_friends(viewer, person), blocked=blocked
    )


# ------------------------------------------------------------------ privacy


def privacy_of(user: User) -> Privacy:
    """``user``'s privacy settings (the defaults, unsaved, if they never changed them)."""
    return Privacy.objects.filter(user_id=user.pk).first() or Privacy(user_id=user.pk)


def set_privacy(user: User, *, challenges: str, online: str) -> Privacy:
    """Save ``user``'s privacy settings.

    :raises Refused: ``bad_request`` for a choice that is not offered; ``forbidden`` for a
        visitor.
    """
    if user is None or not user.is_authenticated:
        raise Refused("forbidden", _("Log in first."))
    if challenges not in Privacy.Challenges.values or online not in Privacy.Online.values:
        raise Refused("bad_request", _("Choose one of the settings offered."))
    privacy, _created = Privacy.objects.update_or_create(
        user_id=user.pk, defaults={"challenges": challenges, "online": online}
    )
    return privacy


def check_may_challenge(challenger: User, challenged: User) -> None:
    """Whether ``challenger`` may challenge ``challenged``: both signed up, not the same
    person, neither blocking the other, and ``challenged``'s settings allow it. A block and a
    setting are refused in the same words, so that nothing tells who blocked whom.

    :raises Refused: ``forbidden``, ``guest`` (the challenger is a guest), ``not_found``.
    """
    _check_signed_up(
        challenger,
        _("Guests cannot challenge players. Keep your account to play with people."),
    )
    if challenger.pk == challenged.pk:
        raise Refused("forbidden", _("You cannot challenge yourself."))
    if not challenged.is_active:
        raise Refused("not_found", _("There is no such player."))
    if guests.is_guest(challenged):
        raise Refused(
            "forbidden",
            _("%(username)s plays as a guest, against bots only.")
            % {"username": challenged.get_username()},
        )
    setting = privacy_of(challenged).challenges
    allowed = setting == Privacy.Challenges.EVERYONE or (
        setting == Privacy.Challenges.FRIENDS and are_friends(challenger, challenged)
    )
    if not allowed or blocked_either_way(challenger, challenged):
        raise Refused(
            "forbidden",
            _("%(username)s is not taking challenges from you.")
            % {"username": challenged.get_username()},
        )


def may_challenge(challenger: User, challenged: User) -> bool:
    """:func:`check_may_challenge` as a yes or no (for showing a Challenge button)."""
    try:
        check_may_challenge(challenger, challenged)
    except Refused:
        return False
    return True


def friends_who_take_challenges(challenger: User, friends: Iterable[User]) -> set[int]:
    """Which of ``challenger``'s ``friends`` (as :func:`friends_of` gives them) they may
    challenge, by id: :func:`may_challenge` for many friends in two queries. Friends follow each
    other and neither blocked the other, so only a guest and the settings can refuse."""
    people = {person.pk: person for person in friends if person.is_active}
    if not people or guests.is_guest(challenger):
        return set()
    guest_ids = guests.guests_among(people)
    refusing = set(
        Privacy.objects.filter(
            user_id__in=list(people), challenges=Privacy.Challenges.NOBODY
        ).values_list("user_id", flat=True)
    )
    return {pk for pk in people if pk not in guest_ids and pk not in refusing}


def may_see_online(viewer: User, person: User) -> bool:
    """Whether ``viewer`` may see that ``person`` is online: their setting (everyone, or
    friends only), and never across a block."""
    if viewer.is_authenticated and viewer.pk == person.pk:
        return True
    if viewer.is_authenticated and blocked_either_way(viewer, person):
        return False
    if privacy_of(person).online == Privacy.Online.EVERYONE:
        return True
    return viewer.is_authenticated and are_friends(viewer, person)


def _id(user: User | int) -> int:
    return user if isinstance(user, int) else user.pk
