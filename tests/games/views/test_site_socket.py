"""Every signed-in page holds the site socket and the bell; the page says in the socket's
address which of its panels the socket keeps live."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.guests import create_guest
from games.services import challenges
from social import notifications
from social.models import Notification

pytestmark = pytest.mark.django_db


def shown(client: Client, url: str) -> str:
    return client.get(url).content.decode()


def test_a_visitor_s_page_has_no_site_socket(client) -> None:
    page = shown(client, reverse("games:rules"))

    assert "/ws/site/" not in page and 'id="bell"' not in page


def test_a_signed_in_page_has_the_socket_and_the_bell_with_the_unread_count(client, alice):
    notifications.notify(alice, Notification.Kind.NEW_FOLLOWER, by="bob")
    client.force_login(alice)

    page = shown(client, reverse("games:rules"))

    assert 'ws-connect="/ws/site/"' in page
    assert (
        f'<a id="bell" class="bell bell--unread" href="{reverse("games:notifications")}">' in page
    )
    assert '<span class="bell__count">1</span>' in page
    assert '<div id="site-alert"' in page and '<div id="site-go"></div>' in page


def test_the_home_page_asks_for_its_friends_panel_and_challenges(client, alice) -> None:
    client.force_login(alice)

    page = shown(client, reverse("games:home"))

    assert 'ws-connect="/ws/site/?friends=1&amp;challenges=1"' in page
    assert '<section id="friends-panel"' in page and '<section id="open-challenges"' in page


def test_a_guest_s_home_page_asks_for_no_panel_it_does_not_show(client) -> None:
    client.force_login(create_guest())

    page = shown(client, reverse("games:home"))

    assert 'ws-connect="/ws/site/"' in page
    assert "friends-panel" not in page and "open-challenges" not in page


def test_a_challenge_s_page_asks_for_that_challenge(client, alice, bob) -> None:
    challenge = challenges.create_challenge(alice, [bob], seat_count=2)
    client.force_login(bob)

    page = shown(client, reverse("games:challenge", args=[challenge.pk]))

    assert f'ws-connect="/ws/site/?challenge={challenge.pk}"' in page
    assert f'<section id="challenge-{challenge.pk}"' in page
