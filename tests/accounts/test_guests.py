"""Guest accounts (accounts.guests): made with a readable name and no password, claimed with a
name and password of the player's own, and deleted when left unclaimed."""

from __future__ import annotations

import io
import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from accounts import guests
from accounts.models import Guest, Sanction
from accounts.signals import password_changed
from moderation import actions as moderation
from moderation.models import ModerationLog, Report
from tests.accounts.conftest import PASSWORD

User = get_user_model()
pytestmark = pytest.mark.django_db


def claim(client: Client, username: str = "ana"):
    data = {"username": username, "password1": PASSWORD, "password2": PASSWORD}
    return client.post(reverse("accounts:claim"), data)


@pytest.fixture
def guest_client(client: Client) -> Client:
    client.force_login(guests.create_guest())
    return client


def test_a_guest_has_a_readable_name_and_no_usable_password() -> None:
    guest = guests.create_guest()

    assert re.fullmatch(r"Guest-\d{4}", guest.get_username())
    assert not guest.has_usable_password()
    assert guests.is_guest(guest)


def test_claiming_keeps_the_same_account_under_the_new_name(guest_client: Client) -> None:
    guest = User.objects.get()

    response = claim(guest_client)

    assert response.url == reverse("games:profile", args=["ana"])
    guest.refresh_from_db()
    assert guest.get_username() == "ana" and guest.check_password(PASSWORD)
    assert not guests.is_guest(guest)
    assert Client().login(username="ana", password=PASSWORD)


def test_claiming_tells_the_site_the_account_has_a_password(guest_client: Client) -> None:
    told = []

    def receive(sender, user, **kwargs) -> None:
        told.append(user.get_username())

    password_changed.connect(receive)
    try:
        claim(guest_client)
    finally:
        password_changed.disconnect(receive)

    assert told == ["ana"]


def test_someone_who_is_not_a_guest_has_nothing_to_claim(client: Client, dana) -> None:
    client.force_login(dana)

    response = claim(client)

    assert response.url == reverse("games:profile", args=["Dana"])
    assert User.objects.get(pk=dana.pk).get_username() == "Dana"


def test_stale_unclaimed_guests_are_deleted_and_recent_ones_kept(dana) -> None:
    old, fresh = guests.create_guest(), guests.create_guest()
    Guest.objects.filter(user=old).update(created_at=timezone.now() - timedelta(days=30))

    call_command("delete_stale_guests", "--days", "7", stdout=io.StringIO())

    assert set(User.objects.values_list("pk", flat=True)) == {dana.pk, fresh.pk}


@pytest.mark.parametrize(
    ("language", "word"), [("en", "Guest"), ("es", "Invitado"), ("id", "Tamu"), ("eo", "Gasto")]
)
def test_a_guest_is_named_in_the_visitors_language(language: str, word: str) -> None:
    with translation.override(language):
        guest = guests.create_guest()

    assert re.fullmatch(rf"{word}-\d{{4}}", guest.get_username())


def test_a_guest_name_cannot_be_claimed_by_another(guest_client: Client) -> None:
    response = claim(guest_client, "Guest-0001")

    assert response.status_code == 200
    assert "are kept for guest accounts" in response.content.decode()
    assert guests.is_guest(User.objects.get())


def make_stale(*users) -> None:
    Guest.objects.filter(user__in=users).update(created_at=timezone.now() - timedelta(days=30))


def test_a_stale_guest_named_in_reports_is_kept_inactive_with_the_reports(dana) -> None:
    reported, reporter, forgotten = (guests.create_guest() for _ in range(3))
    make_stale(reported, reporter, forgotten)
    against = moderation.file_report(dana, reported, "abusive_chat", "insults")
    by = moderation.file_report(reporter, dana, "cheating", "colluding")

    out = io.StringIO()
    call_command("delete_stale_guests", "--days", "7", stdout=out)

    assert out.getvalue().strip() == "deleted 1 guest account(s)"
    assert not User.objects.filter(pk=forgotten.pk).exists()
    assert set(Report.objects.values_list("pk", flat=True)) == {against.pk, by.pk}
    for kept in (reported, reporter):
        kept.refresh_from_db()
        assert not kept.is_active
    assert Report.objects.get(pk=against.pk).target.get_username() == reported.get_username()


def test_a_stale_guest_named_in_the_moderation_log_or_sanctioned_is_kept(dana, moderator) -> None:
    logged, muted = guests.create_guest(), guests.create_guest()
    make_stale(logged, muted)
    ModerationLog.objects.create(actor=moderator, action="watch", target=logged)
    Sanction.objects.create(user=muted, kind="chat_mute", reason="spam")

    guests.delete_stale_guests()
    guests.delete_stale_guests()  # a second run finds them again and keeps them again

    assert ModerationLog.objects.filter(target=logged).count() == 1
    assert Sanction.objects.filter(user=muted).count() == 1
    assert set(User.objects.filter(is_active=False).values_list("pk", flat=True)) == {
        logged.pk,
        muted.pk,
    }
