from django.test import Client
from django.urls import reverse


def url(table) -> str:
    return reverse("games:join", args=[table.pk])


def test_it_rejects_get(client: Client, make_table, bob) -> None:
    table = make_table()
    client.force_login(bob)

    assert client.get(url(table)).status_code == 405


def test_it_requires_login(client: Client, make_table) -> None:
    table = make_table()

    response = client.post(url(table))

    assert response.status_code == 302
    assert response.url.startswith(reverse("accounts:login"))


def test_it_seats_the_player_and_goes_to_the_table(client: Client, make_table, bob) -> None:
    table = make_table()
    client.force_login(bob)

    response = client.post(url(table))

    assert response.url == reverse("games:table", args=[table.pk])
    assert table.seats.get(position=1).user == bob


def test_it_refuses_a_forged_invite_even_one_that_is_not_ascii(
    client: Client, make_table, bob
) -> None:
    table = make_table(public=False)
    client.force_login(bob)

    for forged in ("wrong-token", "ünïcödé-token"):
        response = client.post(url(table), {"invite": forged})

        assert response.status_code == 403
    assert not table.seats.filter(user=bob).exists()


def test_it_explains_a_full_table(client: Client, make_table, bob, carol) -> None:
    table = make_table(players=[bob])
    client.force_login(carol)

    response = client.post(url(table), follow=True)

    assert "This table is full." in response.content.decode()


def test_it_joins_a_private_table_with_its_invite(client: Client, make_table, bob) -> None:
    table = make_table(public=False)
    client.force_login(bob)

    client.post(url(table), {"invite": table.invite_token})

    assert table.seats.get(position=1).user == bob


def test_it_sends_htmx_a_redirect_or_the_refusal_in_the_flash(
    client: Client, make_table, bob, carol
) -> None:
    table = make_table()
    client.force_login(bob)

    response = client.post(url(table), headers={"HX-Request": "true"})
    assert response["HX-Redirect"] == reverse("games:table", args=[table.pk])

    client.force_login(carol)
    response = client.post(url(table), headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert response["HX-Retarget"] == "#flash"
    assert "This table is full." in response.content.decode()


def test_someone_the_host_blocked_is_refused_in_plain_words(
    client: Client, make_table, alice, bob
) -> None:
    from social import relations

    table = make_table(seat_count=3)
    relations.block(alice, bob)
    client.force_login(bob)

    page = client.post(url(table), follow=True).content.decode()

    assert "This table is not taking you." in page
    assert not table.seats.filter(user=bob).exists()
