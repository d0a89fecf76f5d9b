"""The optional e-mail address, verified by a signed link, and the password reset by e-mail."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts import emails
from tests.accounts.conftest import PASSWORD

User = get_user_model()
pytestmark = pytest.mark.django_db


def link_in(message) -> str:
    return re.search(r"https?://\S+", message.body).group(0)


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_sign_up_with_an_address_sends_it_a_link_and_keeps_it_once_opened(client) -> None:
    client.post(
        reverse("accounts:signup"),
        {"username": "erin", "password1": PASSWORD, "password2": PASSWORD, "email": "e@x.org"},
    )
    erin = User.objects.get(username="erin")
    assert erin.email == ""  # not hers until she opens the link
    [sent] = mail.outbox
    assert sent.to == ["e@x.org"] and "erin" in sent.body
    page = client.get(link_in(sent))
    assert "e@x.org is now the address of your account." in page.content.decode()
    erin.refresh_from_db()
    assert erin.email == "e@x.org"


def test_the_account_page_sends_a_new_address_its_link(dana) -> None:
    client = signed_in(dana)
    assert 'action="/accounts/email/"' in client.get(reverse("games:account")).content.decode()
    client.post(reverse("accounts:email"), {"email": "dana@new.example"})
    dana.refresh_from_db()
    assert dana.email == "dana@example.com"
    client.get(link_in(mail.outbox[0]))
    dana.refresh_from_db()
    assert dana.email == "dana@new.example"


def test_an_altered_or_old_link_verifies_nothing(dana, client) -> None:
    token = emails.verification_token(dana, "evil@example.com")
    page = client.get(reverse("accounts:verify_email", args=[token[:-2] + "xx"]))
    assert "This link is not valid." in page.content.decode()
    with time_machine.travel(timedelta(days=4)):
        page = client.get(reverse("accounts:verify_email", args=[token]))
    assert "This link has expired" in page.content.decode()
    dana.refresh_from_db()
    assert dana.email == "dana@example.com"


def test_an_address_is_one_accounts_at_most(dana) -> None:
    other = User.objects.create_user("frank", password=PASSWORD)
    client = signed_in(other)
    response = client.post(reverse("accounts:email"), {"email": "DANA@example.com"}, follow=True)
    assert "Another account uses this address already." in response.content.decode()
    assert mail.outbox == []


def test_the_address_can_be_removed(dana) -> None:
    signed_in(dana).post(reverse("accounts:email"), {"remove": "1"})
    dana.refresh_from_db()
    assert dana.email == ""


def ask_reset(client: Client, address: str):
    return client.post(reverse("accounts:password_reset"), {"email": address}, follow=True)


def test_a_reset_says_the_same_whether_or_not_the_address_is_known(dana, client) -> None:
    known = ask_reset(client, "dana@example.com").content.decode()
    unknown = ask_reset(client, "nobody@example.com").content.decode()
    said = "If an account has this address, a link to choose a new password is on its way."
    assert said in known and said in unknown
    assert [message.to for message in mail.outbox] == [["dana@example.com"]]


def test_the_reset_link_sets_a_new_password(dana, client) -> None:
    ask_reset(client, "dana@example.com")
    form = client.get(link_in(mail.outbox[0]), follow=True)
    assert form.context["validlink"]
    new = "another-long-passphrase"
    done = client.post(
        form.redirect_chain[-1][0], {"new_password1": new, "new_password2": new}, follow=True
    )
    assert "Your new password is set" in done.content.decode()
    dana.refresh_from_db()
    assert dana.check_password(new)


def test_resets_are_throttled_per_address(dana, client) -> None:
    for _attempt in range(3):
        ask_reset(client, "dana@example.com")
    refused = ask_reset(client, "dana@example.com").content.decode()
    assert "Too many e-mails asked for" in refused
    assert len(mail.outbox) == 3


def test_the_log_in_page_links_the_reset(client) -> None:
    page = client.get(reverse("accounts:login")).content.decode()
    assert reverse("accounts:password_reset") in page
