from django.test import Client
from django.urls import reverse


def test_it_shows_the_site_name_and_the_coming_lobby(client: Client) -> None:
    response = client.get(reverse("games:home"))

    assert response.status_code == 200
    assert response.templates[0].name == "games/home.html"
    page = response.content.decode()
    assert "<title>Taki Online</title>" in page
    assert "The lobby is coming soon" in page


def test_it_loads_htmx_with_the_websocket_extension(client: Client) -> None:
    page = client.get(reverse("games:home")).content.decode()

    assert '<script src="/static/django_htmx/htmx-2.min.js" defer></script>' in page
    assert '<script src="/static/django_htmx/ext/hx-ws-2.min.js" defer></script>' in page


def test_it_sends_the_csrf_token_with_every_htmx_request(client: Client) -> None:
    response = client.get(reverse("games:home"))

    token = response.context["csrf_token"]
    assert f"""hx-headers='{{"X-CSRFToken": "{token}"}}'""" in response.content.decode()


def test_it_links_the_site_stylesheet(client: Client) -> None:
    page = client.get(reverse("games:home")).content.decode()

    assert '<link rel="stylesheet" href="/static/css/site.css">' in page
