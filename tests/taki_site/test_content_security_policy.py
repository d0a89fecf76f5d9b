"""Every page carries a strict Content-Security-Policy: scripts, styles and sockets from the
site itself only, so that injected markup can run nothing."""

import pytest
from django.test import Client

EXPECTED = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "connect-src": "'self'",
    "img-src": "'self' data:",
    "frame-ancestors": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "object-src": "'none'",
}


def policy_of(response) -> dict[str, str]:
    directives = [part.strip() for part in response["Content-Security-Policy"].split(";")]
    return dict(directive.split(" ", 1) for directive in directives if directive)


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/", "/accounts/login/", "/accounts/signup/", "/admin/login/"])
def test_every_page_carries_the_strict_policy(client: Client, url: str) -> None:
    response = client.get(url)

    assert response.status_code == 200
    assert policy_of(response) == EXPECTED


@pytest.mark.django_db
def test_htmx_is_told_not_to_inject_its_indicator_style_nor_settle_style_attributes(
    client: Client,
) -> None:
    page = client.get("/").content.decode()

    config = (
        '<meta name="htmx-config" content=\'{"includeIndicatorStyles": false,'
        ' "attributesToSettle": ["class", "width", "height"]}\'>'
    )
    assert config in page
    assert page.index('name="htmx-config"') < page.index("htmx-2.min.js")
