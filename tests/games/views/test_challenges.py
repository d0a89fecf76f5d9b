"""The challenges' pages: the form, one challenge, the answers, the cancel and the start."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse

from accounts.guests import create_guest
from games.models import Challenge, Table
from games.presenters import site as fragments
from games.services import challenges
from social import relations

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def page(response) -> str:
    return response.content.decode()


def test_the_form_fills_in_whom_from_the_profile_link(alice) -> None:
    response = signed_in(alice).get(reverse("games:new_challenge") + "?to=bob")

    assert 'name="players"' in page(response) and 'value="bob"' in page(response)


def test_sending_the_form_makes_the_challenge_and_shows_it(alice, bob, carol) -> None:
    client = signed_in(alice)

    response = client.post(
        reverse("games:new_challenge"),
        {
            "players": "bob, Carol",
            "seat_count": "4",
            "mode": "standard",
            "turn_seconds": "",
            "rated": "casual",
            "empty_seats": "easy",
            "name": "",
        },
        follow=True,
    )

    challenge = Challenge.objects.get()
    assert response.redirect_chain[-1][0] == reverse("games:challenge", args=[challenge.pk])
    assert [row.user for row in challenge.invitations.order_by("pk")] == [bob, carol]
    assert (challenge.seat_count, challenge.bot_kind, challenge.turn_seconds) == (4, "easy", None)
    text = page(response)
    assert "Your challenge" in text and "bob: Not answered yet" in text
    assert "Cancel the challenge" in text and "Start with those who accepted" not in text


def test_an_unknown_name_is_refused_beside_the_field(alice) -> None:
    response = signed_in(alice).post(
        reverse("games:new_challenge"),
        {"players": "nobody-here", "seat_count": "2", "mode": "standard", "rated": "casual"},
    )

    assert "There is no player named nobody-here." in page(response)
    assert not Challenge.objects.exists()


def test_a_refusal_of_the_services_is_said_on_the_form(alice, bob) -> None:
    relations.block(bob, alice)

    response = signed_in(alice).post(
        reverse("games:new_challenge"),
        {"players": "bob", "seat_count": "2", "mode": "standard", "rated": "casual"},
    )

    assert "bob is not taking challenges from you." in page(response)
    assert not Challenge.objects.exists()


def test_a_guest_is_sent_to_keep_their_account(client) -> None:
    client.force_login(create_guest())

    response = client.get(reverse("games:new_challenge"))

    assert response.status_code == 302 and response.url == reverse("accounts:claim")


def test_only_its_people_see_a_challenge(alice, bob, carol) -> None:
    challenge = challenges.create_challenge(alice, [bob], seat_count=2)
    url = reverse("games:challenge", args=[challenge.pk])

    shown = page(signed_in(bob).get(url))

    assert "From alice" in shown and ">Accept</button>" in shown and ">Decline</button>" in shown
    assert signed_in(carol).get(url).status_code == 404


def test_accepting_a_duel_goes_to_the_started_table(alice, bob) -> None:
    challenge = challenges.create_challenge(alice, [bob], seat_count=2)

    response = signed_in(bob).post(
        reverse("games:challenge_answer", args=[challenge.pk]), {"answer": "accept"}
    )

    table = Table.objects.get()
    assert response.url == reverse("games:table", args=[table.pk])
    assert table.status == Table.Status.PLAYING


def test_accepting_a_cancelled_challenge_says_so(alice, bob) -> None:
    challenge = challenges.create_challenge(alice, [bob], seat_count=2)
    challenges.cancel_challenge(challenge.pk, alice)

    response = signed_in(bob).post(
        reverse("games:challenge_answer", args=[challenge.pk]), {"answer": "accept"}, follow=True
    )

    text = page(response)
    assert "This challenge was cancelled." in text
    assert ">Accept</button>" not in text
    assert not Table.objects.exists()


def test_the_challenger_starts_with_those_who_accepted(alice, bob, carol) -> None:
    challenge = challenges.create_challenge(alice, [bob, carol], seat_count=3)
    challenges.accept_challenge(challenge.pk, bob)
    client = signed_in(alice)
    assert "Start with those who accepted" in page(
        client.get(reverse("games:challenge", args=[challenge.pk]))
    )

    response = client.post(reverse("games:challenge_start", args=[challenge.pk]))

    table = Table.objects.get()
    assert response.url == reverse("games:table", args=[table.pk])
    assert sorted(seat.user.username for seat in table.seats.all()) == ["alice", "bob"]


class _Forms(HTMLParser):
    """The forms of a piece of HTML: each one's attributes and its inputs' names and values."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[tuple[dict[str, str], dict[str, str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "form":
            self.forms.append((dict(attrs), {}))
        elif tag == "input" and self.forms:
            fields = dict(attrs)
            self.forms[-1][1][fields.get("name") or ""] = fields.get("value") or ""


def submit_as_the_browser_does(client: Client, page_html: str, form_html: str, button: str):
    """Send the form around ``button`` in ``form_html`` (swapped into the page ``page_html``)
    as the browser would: htmx posts an ``hx-post`` form with the page's CSRF header
    (base.html's ``hx-headers``); any other form is posted with its own fields."""
    index = form_html.index(button)
    parser = _Forms()
    parser.feed(form_html[: form_html.index("</form>", index) + len("</form>")])
    attrs, fields = parser.forms[-1]
    if "hx-post" in attrs:
        token = re.search(r'"X-CSRFToken": "([^"]+)"', page_html).group(1)
        headers = {"HX-Request": "true", "X-CSRFToken": token}
        return client.post(attrs["hx-post"], fields, headers=headers)
    return client.post(attrs["action"], fields)


def test_the_start_pushed_to_the_challenger_s_page_is_accepted(alice, bob, carol) -> None:
    """The socket draws the challenge without a request (no token of its own in its forms):
    the Start it pushes once someone accepts still starts the table."""
    challenge = challenges.create_challenge(alice, [bob, carol], seat_count=3)
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    page_html = page(client.get(reverse("games:challenge", args=[challenge.pk])))
    challenges.accept_challenge(challenge.pk, bob)

    pushed = fragments.challenge_fragment(challenge.pk, alice)
    response = submit_as_the_browser_does(
        client, page_html, pushed, "Start with those who accepted"
    )

    assert response.status_code != 403
    table = Table.objects.get()
    assert sorted(seat.user.username for seat in table.seats.filter(user__isnull=False)) == [
        "alice",
        "bob",
    ]


def test_the_answers_pushed_to_an_asked_page_are_accepted(alice, bob) -> None:
    challenge = challenges.create_challenge(alice, [bob], seat_count=2)
    client = Client(enforce_csrf_checks=True)
    client.force_login(bob)
    page_html = page(client.get(reverse("games:challenge", args=[challenge.pk])))

    pushed = fragments.challenge_fragment(challenge.pk, bob)
    response = submit_as_the_browser_does(client, page_html, pushed, ">Decline<")

    assert response.status_code != 403
    assert challenge.invitations.get().answer == "declined"


def test_one_who_declined_is_told_so_and_offered_no_table_they_may_not_see(
    alice, bob, carol
) -> None:
    challenge = challenges.create_challenge(alice, [bob, carol], seat_count=3)
    challenges.accept_challenge(challenge.pk, bob)
    challenges.decline_challenge(challenge.pk, carol)
    table = challenges.start_challenge(challenge.pk, alice)
    table_url = reverse("games:table", args=[table.pk])
    client = signed_in(carol)

    text = page(client.get(reverse("games:challenge", args=[challenge.pk])))

    assert "You declined." in text and "carol: Declined" in text
    assert table_url not in text
    assert client.get(table_url).status_code == 403  # a private table of others
    for player in (alice, bob):
        shown = page(signed_in(player).get(reverse("games:challenge", args=[challenge.pk])))
        assert table_url in shown and "You declined." not in shown


def test_the_socket_s_way_to_the_table_is_for_its_players_only(alice, bob, carol) -> None:
    challenge = challenges.create_challenge(alice, [bob], seat_count=2)
    challenges.accept_challenge(challenge.pk, bob)
    table = Table.objects.get()
    url = reverse("games:challenge_go", args=[table.pk])

    response = signed_in(bob).get(url, headers={"HX-Request": "true"})

    assert response.headers["HX-Redirect"] == reverse("games:table", args=[table.pk])
    assert signed_in(carol).get(url).status_code == 404


def test_answers_are_posted_only(alice, bob) -> None:
    challenge = challenges.create_challenge(alice, [bob], seat_count=2)

    response = signed_in(bob).get(reverse("games:challenge_answer", args=[challenge.pk]))

    assert response.status_code == 405
