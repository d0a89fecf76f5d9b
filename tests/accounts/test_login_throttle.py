"""The log-in throttle lives in the authentication backend, so that every way in shares it:
the players' log-in page, the admin's, and anything else that calls ``authenticate``."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from django.contrib.auth import authenticate, get_user_model
from django.core.cache import cache
from django.db import connection
from django.test import Client, RequestFactory
from django.urls import reverse

from accounts import backends, throttle
from tests.accounts.conftest import PASSWORD

User = get_user_model()
LOGIN = reverse("accounts:login")
ADMIN_LOGIN = reverse("admin:login")
THROTTLED = (
    "Too many failed log-ins for this username or from your network. "
    "Please wait 15 minutes and try again."
)


@pytest.fixture
def moderator(db):
    return User.objects.create_superuser("mod", "mod@example.com", PASSWORD)


@pytest.fixture
def password_checks(monkeypatch) -> list[str]:
    """Every password the backend really checks, in order; safe to append to from threads."""
    checked: list[str] = []
    real = backends.check_password_with_timing_attack_mitigation

    def counting(user, password):
        checked.append(password)
        return real(user, password)

    monkeypatch.setattr(backends, "check_password_with_timing_attack_mitigation", counting)
    return checked


def admin_log_in(client: Client, password: str):
    return client.post(ADMIN_LOGIN, {"username": "mod", "password": password, "next": "/admin/"})


@pytest.mark.django_db
def test_the_admin_log_in_is_throttled_after_five_failures_and_says_so(
    client: Client, moderator, password_checks
) -> None:
    for _ in range(throttle.MAX_FAILURES_PER_USERNAME):
        admin_log_in(client, "wrong")

    response = admin_log_in(client, PASSWORD)

    assert response.status_code == 200
    assert THROTTLED in response.content.decode()
    assert "_auth_user_id" not in client.session
    assert len(password_checks) == throttle.MAX_FAILURES_PER_USERNAME


@pytest.mark.django_db
def test_a_name_locked_at_the_players_log_in_is_locked_at_the_admin_log_in(
    client: Client, moderator
) -> None:
    for _ in range(throttle.MAX_FAILURES_PER_USERNAME):
        client.post(LOGIN, {"username": "MOD", "password": "wrong"})

    response = admin_log_in(Client(), PASSWORD)

    assert THROTTLED in response.content.decode()


@pytest.mark.django_db
def test_authenticate_itself_stops_checking_passwords_at_the_limit(
    moderator, password_checks
) -> None:
    request = RequestFactory().post("/", REMOTE_ADDR="203.0.113.7")
    for _ in range(throttle.MAX_FAILURES_PER_USERNAME + 3):
        assert authenticate(request, username="mod", password="wrong") is None

    assert authenticate(request, username="mod", password=PASSWORD) is None
    assert len(password_checks) == throttle.MAX_FAILURES_PER_USERNAME


@pytest.mark.django_db
def test_a_good_log_in_gives_back_the_attempt_it_reserved(moderator) -> None:
    request = RequestFactory().post("/", REMOTE_ADDR="203.0.113.7")
    for _ in range(throttle.MAX_FAILURES_PER_ADDRESS + 5):
        assert authenticate(request, username="mod", password=PASSWORD) == moderator

    assert authenticate(request, username="nobody", password="wrong") is None


@pytest.fixture
def redis_cache(redis_url: str, settings) -> Iterator[None]:
    """Django's cache on the test's own redis-server, as on a site with REDIS_URL set."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_url,
            "KEY_PREFIX": "test-throttle",
        }
    }
    cache.clear()
    yield
    cache.clear()


def guess_at_once(guesses: int, username: str) -> None:
    """``guesses`` threads, released together, each trying a wrong password for ``username``."""
    start = threading.Barrier(guesses)

    def guess(number: int) -> None:
        request = RequestFactory().post("/", REMOTE_ADDR=f"198.51.100.{number}")
        start.wait()
        try:
            authenticate(request, username=username, password=f"wrong-{number}")
        finally:
            connection.close()  # back to the pool: a thread's connection is its own

    threads = [threading.Thread(target=guess, args=(n,)) for n in range(guesses)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("shared_cache", ["in-memory", "redis"])
def test_concurrent_guesses_get_no_more_password_checks_than_the_limit(
    request, shared_cache: str, moderator, password_checks
) -> None:
    if shared_cache == "redis":
        request.getfixturevalue("redis_cache")

    guess_at_once(24, "mod")

    assert len(password_checks) == throttle.MAX_FAILURES_PER_USERNAME
    assert authenticate(None, username="mod", password=PASSWORD) is None


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("username", "password"),
    [("d" * 60_000, PASSWORD), ("d" * 151, PASSWORD), ("Dana", "p" * 4097)],
)
def test_an_over_long_name_or_password_is_refused_before_any_query(
    django_assert_num_queries, dana, password_checks, username: str, password: str
) -> None:
    with django_assert_num_queries(0):
        assert authenticate(None, username=username, password=password) is None
    assert password_checks == []


@pytest.mark.django_db
@pytest.mark.parametrize("url", [LOGIN, ADMIN_LOGIN])
def test_a_sixty_thousand_character_name_gets_a_page_not_a_server_error(
    client: Client, url: str
) -> None:
    response = client.post(url, {"username": "d" * 60_000, "password": PASSWORD})

    assert response.status_code == 200
    assert "at most 150 characters" in response.content.decode()


@pytest.mark.django_db
def test_an_over_long_password_gets_a_clear_error_at_log_in(client: Client, dana) -> None:
    response = client.post(LOGIN, {"username": "Dana", "password": "p" * 4097})

    assert response.status_code == 200
    assert "at most 4096 characters" in response.content.decode()
