"""A visitor over their network's allowance of guests is told so in the browser, and offered
what they can do instead: watch a game, log in or sign up."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.urls import reverse
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e


def test_a_visitor_refused_a_guest_account_is_offered_to_watch_log_in_or_sign_up(
    live_server, new_context, settings, console
) -> None:
    # pytest-django's live server serves pages, not sockets; and the refusal is a 429.
    console.expect(r"WebSocket connection to '\S+/ws/(lobby|tables/\d+|site)/' failed")
    console.expect(r": \[object Event\]$")  # htmx's report of that socket's error
    console.expect(r"/accounts/guest/: Failed to load resource: .* 429")
    cache.clear()
    settings.GUESTS_PER_ADDRESS_PER_HOUR = 1
    first = new_context().new_page()
    first.goto(live_server.url + "/")
    first.get_by_role("button", name="Try a game against bots").click()
    first.wait_for_url(re.compile(r"/tables/\d+/$"))

    page = new_context().new_page()  # the next pupil of the class, at the same address
    page.goto(live_server.url + "/")
    page.get_by_role("button", name="Try a game against bots").click()

    expect(page.get_by_role("alert")).to_contain_text("no more guest accounts can be made")
    expect(page.get_by_role("button", name="Try a game against bots")).to_have_count(0)
    page.get_by_role("link", name="Watch a game").first.click()
    page.wait_for_url(live_server.url + reverse("games:watch"))
    page.go_back()
    page.get_by_role("link", name="Sign up").last.click()
    page.wait_for_url(live_server.url + reverse("accounts:signup"))
    cache.clear()
