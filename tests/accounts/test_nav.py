"""The header of every page (templates/base.html)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.guests import create_guest

pytestmark = pytest.mark.django_db


def header(client: Client) -> str:
    page = client.get(reverse("games:home")).content.decode()
    return page[page.index("<header") : page.index("</header>")]


def test_it_offers_a_visitor_log_in_and_sign_up(client: Client) -> None:
    nav = header(client)

    assert f'href="{reverse("games:home")}">Lobby</a>' in nav
    assert f'href="{reverse("accounts:login")}">Log in</a>' in nav
    assert f'href="{reverse("accounts:signup")}">Sign up</a>' in nav
    assert "Log out" not in nav


def test_it_offers_a_player_their_profile_and_a_log_out_form(client: Client, dana) -> None:
    client.force_login(dana)

    nav = header(client)

    assert f'href="{reverse("games:profile", args=["Dana"])}">My profile</a>' in nav
    assert f'method="post" action="{reverse("accounts:logout")}"' in nav
    assert "Log out (Dana)" in nav
    assert "Sign up" not in nav


def test_it_links_the_finished_games(client: Client) -> None:
    assert f'href="{reverse("games:games")}">Finished games</a>' in header(client)


def test_it_offers_the_four_languages_each_in_its_own_words(client: Client) -> None:
    nav = header(client)

    assert f'action="{reverse("set_language")}"' in nav
    for code, name in [
        ("en", "English"),
        ("es", "español"),
        ("id", "Bahasa Indonesia"),
        ("eo", "Esperanto"),
    ]:
        assert f'<option value="{code}" lang="{code}"' in nav
        assert f">{name}</option>" in nav


def test_it_keeps_htmx_and_the_csrf_header(client: Client) -> None:
    response = client.get(reverse("games:home"))
    page = response.content.decode()

    assert "/static/django_htmx/ext/hx-ws-2.min.js" in page
    assert f"""<body hx-headers='{{"X-CSRFToken": "{response.context["csrf_token"]}"}}'>""" in page


def test_it_warns_a_guest_before_the_log_out_and_offers_to_keep_the_account(
    client: Client,
) -> None:
    guest = create_guest()
    client.force_login(guest)

    nav = header(client)

    warning = nav[nav.index('<details class="nav-logout">') :]
    assert f"<summary>Log out ({guest.get_username()})</summary>" in warning
    assert "this account and its games cannot be reached again" in warning
    assert f'href="{reverse("accounts:claim")}"' in warning
    assert f'method="post" action="{reverse("accounts:logout")}"' in warning
    assert "Log out anyway" in warning


def test_it_folds_the_links_behind_a_menu_button_the_script_shows(client: Client) -> None:
    nav = header(client)

    assert (
        '<button type="button" class="menu-button" aria-expanded="false"'
        ' aria-controls="site-nav" hidden>Menu</button>'
    ) in nav
    assert '<nav id="site-nav" class="site-nav"' in nav


def test_a_player_s_own_links_and_log_out_are_in_a_menu_under_their_name(
    client: Client, dana
) -> None:
    client.force_login(dana)

    nav = header(client)

    menu = nav[nav.index('<div class="account-menu">') :]
    button = menu[: menu.index("</button>")]
    assert 'aria-expanded="false" aria-controls="account-menu"' in button
    assert button.endswith(">Dana")
    listed = menu[menu.index('<div id="account-menu"') :]
    for url in (
        reverse("games:my_games"),
        reverse("games:profile", args=["Dana"]),
        reverse("games:account"),
    ):
        assert f'href="{url}"' in listed
    assert f'method="post" action="{reverse("accounts:logout")}"' in listed
    # The site's own links stay outside it.
    assert f'href="{reverse("games:watch")}"' not in listed


def test_a_visitor_has_no_account_menu(client: Client, db) -> None:
    assert "account-menu" not in header(client)
