import pytest

pytestmark = pytest.mark.e2e


def test_a_visitor_sees_the_home_page_styled_and_with_htmx(live_server, page, console) -> None:
    # pytest-django's live server speaks WSGI only: the lobby's websocket is refused there.
    console.expect(r"WebSocket connection to '\S+/ws/lobby/' failed")
    console.expect(r": \[object Event\]$")  # htmx's report of that socket's error
    page.goto(live_server.url + "/")

    assert page.title() == "Taki Online"
    assert page.locator("header .site-name").inner_text() == "Taki Online"
    # The stylesheets are served and applied: the header is dark.
    header_background = page.locator("header").evaluate("e => getComputedStyle(e).backgroundColor")
    assert header_background == "rgb(29, 31, 36)"
    # htmx and its websocket extension loaded and registered.
    page.wait_for_function("() => window.htmx !== undefined")
