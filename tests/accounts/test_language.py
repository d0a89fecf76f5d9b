"""Switching the site's language with Django's set_language view (/i18n/setlang/)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

URL = reverse("set_language")


@pytest.fixture(autouse=True)
def compiled_translations() -> None:
    for code in ("es", "id", "eo"):
        mo = Path(settings.BASE_DIR) / "locale" / code / "LC_MESSAGES" / "django.mo"
        assert mo.exists(), f"{mo} is missing: run `make messages` (needs gettext's msgfmt)"


def nav_after_choosing(client: Client, language: str) -> str:
    response = client.post(URL, {"language": language, "next": "/"})
    assert response.status_code == 302
    assert response.url == "/"
    page = client.get("/").content.decode()
    return page[page.index("<header") : page.index("</header>")]


def test_it_shows_the_spanish_nav_after_choosing_spanish(client: Client) -> None:
    nav = nav_after_choosing(client, "es")

    assert "Iniciar sesión" in nav
    assert "Registrarse" in nav
    assert "Sala" in nav
    assert '<option value="es" lang="es" selected>' in nav


def test_it_shows_the_indonesian_nav_after_choosing_indonesian(client: Client) -> None:
    nav = nav_after_choosing(client, "id")

    assert "Masuk" in nav
    assert "Daftar" in nav


def test_it_shows_the_esperanto_nav_after_choosing_esperanto(client: Client) -> None:
    nav = nav_after_choosing(client, "eo")

    assert "Ensaluti" in nav
    assert "Registriĝi" in nav


def test_it_marks_the_page_with_the_chosen_language(client: Client) -> None:
    client.post(URL, {"language": "eo", "next": "/"})

    assert '<html lang="eo">' in client.get("/").content.decode()


def test_it_words_form_errors_in_the_chosen_language(client: Client) -> None:
    client.post(URL, {"language": "es", "next": "/"})

    response = client.post(
        reverse("accounts:signup"),
        {"username": "ab", "password1": "x-long-pass-1", "password2": "x-long-pass-1"},
    )

    assert "al menos 3 caracteres" in response.content.decode()


def test_it_ignores_a_language_the_site_does_not_offer(client: Client) -> None:
    client.post(URL, {"language": "xx", "next": "/"})

    assert '<html lang="en">' in client.get("/").content.decode()
