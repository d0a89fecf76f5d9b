"""When the server closes a page's live connection for good, the page says why instead of going
quiet: here, one address opening more pages without a log-in than the site allows."""

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from tests.e2e.pages import TIMEOUT
from tests.e2e.site_server import SiteServer

pytestmark = pytest.mark.e2e

TOO_MANY = (
    "Too many pages are open from your address without a log-in. Close some, or log in, "
    "then reload this one."
)


@pytest.fixture
def one_visitor_socket_site(tmp_path_factory) -> Iterator[SiteServer]:
    """A site of the test's own where an address holds one socket without a log-in."""
    server = SiteServer(tmp_path_factory.mktemp("one-visitor-socket"))
    server.env["ANONYMOUS_SOCKETS_PER_ADDRESS"] = "1"
    server.prepare()
    server.start()
    yield server
    server.stop()


def test_a_page_past_the_address_limit_says_why_its_live_connection_closed(
    one_visitor_socket_site, new_context
) -> None:
    site = one_visitor_socket_site
    context = new_context()
    first = context.new_page()
    first.goto(site.url + "/")
    first.wait_for_function("() => document.querySelector('[ws-connect]') !== null")
    first.wait_for_timeout(500)  # its socket is open and counted

    second = context.new_page()
    second.goto(site.url + "/")

    expect(second.locator("#socket-closed")).to_have_text(TOO_MANY, timeout=TIMEOUT)
    expect(second.locator("#socket-closed")).to_be_visible()
    expect(first.locator("#socket-closed")).to_be_empty()
    expect(first.locator("#socket-closed")).to_be_hidden()
