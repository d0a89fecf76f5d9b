"""Personal access tokens: kept as a hash, shown once, working only for an account that may
sign in, revoked by their person or a moderator, and never made with a token (``api.tokens``,
``api.views``, ``api.admin``)."""

from __future__ import annotations

import hashlib
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts import guests
from accounts.models import Sanction
from api import tokens
from api.models import AccessToken
from games.services.errors import ServiceError

pytestmark = pytest.mark.django_db


def test_a_token_is_kept_as_the_hash_of_its_bearer_only(alice):
    token, bearer = tokens.create_token(alice, "my bot", ["read:games", "bot:play"])
    assert token.pk == hashlib.sha256(bearer.encode()).hexdigest()
    kept = [str(value) for row in AccessToken.objects.values() for value in row.values()]
    assert not any(bearer in value for value in kept)
    assert token.scopes == ["read:games", "bot:play"]
    assert tokens.authenticate(bearer).user == alice


def test_an_unknown_scope_or_none_or_no_name_is_refused(alice):
    for name, scopes in [("x", ["write:everything"]), ("x", []), ("  ", ["read:games"])]:
        with pytest.raises(ServiceError) as refusal:
            tokens.create_token(alice, name, scopes)
        assert refusal.value.code == "bad_request"
    assert not AccessToken.objects.exists()


def test_guests_get_no_token():
    guest = guests.create_guest()
    with pytest.raises(ServiceError) as refusal:
        tokens.create_token(guest, "bot", ["read:games"])
    assert refusal.value.code == "guest"


def test_the_last_use_is_written(alice, api_client, time_machine):
    time_machine.move_to("2026-12-01 10:00:00+00:00", tick=False)
    token, bearer = tokens.create_token(alice, "bot", ["read:profile"])
    assert token.last_used_at is None
    assert api_client(bearer).get("/api/account").status_code == 200
    token.refresh_from_db()
    assert token.last_used_at == timezone.now()


def test_a_banned_or_deactivated_account_s_tokens_stop_at_once(alice, bob, api_client, bearer):
    alice_bearer, bob_bearer = bearer(alice), bearer(bob)
    Sanction.objects.create(user=alice, kind=Sanction.Kind.ACCOUNT_BAN, reason="cheating")
    bob.is_active = False
    bob.save()
    for value in (alice_bearer, bob_bearer):
        answer = api_client(value).get("/api/account")
        assert answer.status_code == 401
        assert answer.json()["error"]["code"] == "unauthorized"


def test_a_deleted_account_s_tokens_go_with_it(alice, api_client, bearer):
    value = bearer(alice)
    alice.delete()
    assert not AccessToken.objects.exists()
    assert api_client(value).get("/api/account").status_code == 401


def test_the_tokens_page_shows_a_new_bearer_once_and_revokes(alice):
    client = Client()
    client.force_login(alice)
    made = client.post("/account/tokens/", {"name": "my bot", "scopes": ["bot:play"]})
    assert made.status_code == 200
    [bearer] = re.findall(r"data-bearer>(taki_[^<]+)<", made.content.decode())
    assert tokens.authenticate(bearer).name == "my bot"
    again = client.get("/account/tokens/").content.decode()
    assert bearer not in again and "my bot" in again
    token = AccessToken.objects.get()
    client.post(f"/account/tokens/{token.pk}/revoke/")
    assert tokens.authenticate(bearer) is None
    assert (
        Client(headers={"Authorization": f"Bearer {bearer}"}).get("/api/account").status_code == 401
    )


def test_the_tokens_page_needs_csrf_and_a_session_not_a_token(alice, bearer):
    with_token = Client(headers={"Authorization": f"Bearer {bearer(alice)}"})
    answer = with_token.post("/account/tokens/", {"name": "more", "scopes": ["bot:play"]})
    assert answer.status_code == 302 and "/accounts/login/" in answer["Location"]
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(alice)
    assert strict.post("/account/tokens/", {"name": "x", "scopes": ["bot:play"]}).status_code == 403
    assert AccessToken.objects.count() == 1


def test_someone_else_cannot_revoke_a_token(alice, bob, bearer):
    value = bearer(alice)
    client = Client()
    client.force_login(bob)
    client.post(f"/account/tokens/{tokens.hashed(value)}/revoke/")
    assert tokens.authenticate(value) is not None


def test_a_moderator_revokes_tokens_in_the_admin(alice, moderator, bearer):
    value = bearer(alice)
    client = Client()
    client.force_login(moderator)
    answer = client.post(
        "/admin/api/accesstoken/",
        {"action": "revoke", "_selected_action": [tokens.hashed(value)]},
    )
    assert answer.status_code == 302
    assert tokens.authenticate(value) is None


def test_a_request_s_token_is_found_in_one_query_and_its_last_use_written_once_a_minute(
    alice, bearer, django_assert_num_queries, time_machine
):
    time_machine.move_to("2026-12-01 10:00:00+00:00", tick=False)
    value = bearer(alice)
    with django_assert_num_queries(2):  # the token with its account, then its last use
        assert tokens.authenticate(value).user == alice
    time_machine.shift(59)
    with django_assert_num_queries(1):
        token = tokens.authenticate(value)
    assert token.user.username == alice.username
    assert token.last_used_at == timezone.now() - timedelta(seconds=59)
    time_machine.shift(2)
    with django_assert_num_queries(2):
        assert tokens.authenticate(value).last_used_at == timezone.now()


def test_a_guest_s_token_or_one_of_an_account_banned_for_a_while_does_not_work(alice, time_machine):
    time_machine.move_to("2026-12-01 10:00:00+00:00", tick=False)
    guest = guests.create_guest()
    AccessToken.objects.create(id=tokens.hashed("taki_guest"), user=guest, name="x", scopes=[])
    assert tokens.authenticate("taki_guest") is None
    _token, value = tokens.create_token(alice, "bot", ["read:games"])
    ends = timezone.now() + timedelta(hours=1)
    Sanction.objects.create(user=alice, kind=Sanction.Kind.ACCOUNT_BAN, reason="x", ends_at=ends)
    assert tokens.authenticate(value) is None
    time_machine.shift(3601)
    assert tokens.authenticate(value).user == alice
