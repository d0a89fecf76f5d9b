"""The one check of sanctions (accounts.sanctions.refuse_if_active) and its words."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from accounts.models import Sanction
from accounts.sanctions import Sanctioned, refuse_if_active

pytestmark = pytest.mark.django_db

PLAY_BAN, CHAT_MUTE = Sanction.Kind.PLAY_BAN, Sanction.Kind.CHAT_MUTE


def sanction(user, kind: str, ends_at: datetime | None = None, **fields) -> Sanction:
    return Sanction.objects.create(user=user, kind=kind, reason="spam", ends_at=ends_at, **fields)


def test_it_lets_a_player_without_a_sanction_through(dana) -> None:
    assert refuse_if_active(dana, PLAY_BAN) is None
    assert refuse_if_active(dana, CHAT_MUTE) is None


def test_it_says_a_permanent_play_ban_is_for_good(dana) -> None:
    sanction(dana, PLAY_BAN)

    with pytest.raises(Sanctioned) as refusal:
        refuse_if_active(dana, PLAY_BAN)

    assert refusal.value.kind == PLAY_BAN
    assert refusal.value.message == "A moderator has banned you from playing."
    assert str(refusal.value) == refusal.value.message


def test_it_says_until_when_a_chat_mute_holds(dana, settings) -> None:
    settings.TIME_ZONE = "UTC"
    sanction(dana, CHAT_MUTE, ends_at=datetime(2099, 3, 4, 5, 6, tzinfo=UTC))

    with pytest.raises(Sanctioned) as refusal:
        refuse_if_active(dana, CHAT_MUTE)

    until = "March 4, 2099, 5:06 a.m."  # its own full stop ends the sentence: no second one
    assert refusal.value.message == f"A moderator has muted your chat until {until}"


def test_it_names_the_longest_of_several_sanctions_a_permanent_one_first(dana) -> None:
    sanction(dana, PLAY_BAN, ends_at=timezone.now() + timedelta(days=1))
    sanction(dana, PLAY_BAN)

    with pytest.raises(Sanctioned, match="banned you from playing.$"):
        refuse_if_active(dana, PLAY_BAN)


def test_a_sanction_of_another_kind_ended_or_lifted_refuses_nothing(dana) -> None:
    sanction(dana, CHAT_MUTE)
    sanction(dana, PLAY_BAN, ends_at=timezone.now() - timedelta(minutes=1))
    sanction(dana, PLAY_BAN, lifted_at=timezone.now())

    assert refuse_if_active(dana, PLAY_BAN) is None


def test_a_visitor_who_is_not_logged_in_is_never_refused() -> None:
    assert refuse_if_active(AnonymousUser(), PLAY_BAN) is None
    assert refuse_if_active(None, CHAT_MUTE) is None
