"""Monitors and link checkers ask for the home page with HEAD."""

from django.test import Client


def test_the_home_page_answers_head_like_get(client: Client, db) -> None:
    response = client.head("/")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")


def test_the_home_page_still_refuses_post(client: Client, db) -> None:
    assert client.post("/").status_code == 405
