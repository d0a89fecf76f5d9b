"""In a real browser the site's strict Content-Security-Policy refuses nothing the site itself
does: htmx, its websocket extension, the table's script, a move sent and pushed back."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.pages import (
    CONTROLS,
    HAND_CARDS,
    TIMEOUT,
    fill_sign_up_form,
    take_turn,
    unique_name,
    version,
    wait_for_version,
)

pytestmark = pytest.mark.e2e

# Collects every violation the page reports, from before its first script runs.
RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(event.violatedDirective + " " + event.blockedURI);
});
"""


def violations(page: Page) -> list[str]:
    return page.evaluate("() => window.__cspViolations")


def test_the_lobby_and_a_live_table_break_no_content_security_policy(
    site_server, new_context
) -> None:
    context = new_context()
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    console: list[str] = []
    page.on("console", lambda message: console.append(message.text))
    sockets: list[str] = []
    page.on("websocket", lambda socket: sockets.append(socket.url))

    page.goto(site_server.url + "/accounts/signup/")
    assert page.evaluate("() => htmx.config.includeIndicatorStyles") is False
    fill_sign_up_form(page, site_server.url, unique_name("csp"))
    page.wait_for_function("() => window.htmx !== undefined")
    assert violations(page) == []

    page.get_by_role("button", name="Play against bots").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    expect(page.locator(HAND_CARDS)).to_have_count(8, timeout=TIMEOUT)
    # A move over the table's socket, and the position pushed back over it.
    expect(page.locator(CONTROLS).first).to_be_visible(timeout=30_000)
    moves = version(page)
    take_turn(page)
    wait_for_version(page, moves + 1)

    assert any(re.search(r"/ws/tables/\d+/$", url) for url in sockets), sockets
    assert violations(page) == []
    assert not [text for text in console if "Content Security Policy" in text], console
