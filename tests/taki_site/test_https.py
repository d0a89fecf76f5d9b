"""The site behind a TLS-terminating proxy: HTTPS settings read from the environment, CSRF on
forms, and which pages may open the site's websockets."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from channels.testing import WebsocketCommunicator
from django.core.exceptions import ImproperlyConfigured
from django.test import Client

from lib.env import env_origins, https_settings

ROOT = Path(__file__).resolve().parents[2]
SITE = "site.example"

PRODUCTION = {
    "SECRET_KEY": secrets.token_urlsafe(50),
    "DEBUG": "0",
    "ALLOWED_HOSTS": SITE,
    "CSRF_TRUSTED_ORIGINS": f"https://{SITE}",
    "SECURE_PROXY_SSL_HEADER": "1",
    "SECURE_SSL_REDIRECT": "1",
    "SESSION_COOKIE_SECURE": "1",
    "CSRF_COOKIE_SECURE": "1",
    "SECURE_HSTS_SECONDS": "31536000",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": "1",
    "SECURE_HSTS_PRELOAD": "1",
    # The site sends e-mails (password resets, verification links): Django's check refuses the
    # console in production.
    "EMAIL_HOST": "smtp.example.org",
}
HTTPS_NAMES = [
    name
    for name in PRODUCTION
    if name not in ("SECRET_KEY", "DEBUG", "ALLOWED_HOSTS", "EMAIL_HOST")
]


@pytest.fixture
def environment(monkeypatch):
    """Set the HTTPS variables (and only those given), then apply them as settings.py does."""

    def apply(settings, **variables: str) -> None:
        for name in HTTPS_NAMES:
            monkeypatch.delenv(name, raising=False)
        for name, value in variables.items():
            monkeypatch.setenv(name, value)
        for name, value in https_settings().items():
            setattr(settings, name, value)
        settings.ALLOWED_HOSTS = [SITE]

    return apply


def post_through_tls_proxy(client: Client, forwarded_proto: str = "https"):
    """A form posted from https://site.example/, through a proxy that ends TLS."""
    headers = {"HTTP_HOST": SITE, "HTTP_X_FORWARDED_PROTO": forwarded_proto}
    client.get("/accounts/login/", **headers)
    token = client.cookies["csrftoken"].value
    return client.post(
        "/i18n/setlang/",
        {"language": "es", "next": "/", "csrfmiddlewaretoken": token},
        HTTP_ORIGIN=f"https://{SITE}",
        HTTP_REFERER=f"https://{SITE}/accounts/login/",
        **headers,
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("variables", "status"),
    [
        ({"SECURE_PROXY_SSL_HEADER": "1", "CSRF_TRUSTED_ORIGINS": f"https://{SITE}"}, 302),
        ({"CSRF_TRUSTED_ORIGINS": f"https://{SITE}"}, 302),
        ({"SECURE_PROXY_SSL_HEADER": "1"}, 302),  # the request is known to be HTTPS: same origin
        ({}, 403),  # looks like http://site.example, posted from https://site.example
    ],
)
def test_a_form_posted_through_a_tls_proxy_passes_csrf_only_when_configured(
    settings, environment, variables: dict[str, str], status: int
) -> None:
    environment(settings, **variables)

    response = post_through_tls_proxy(Client(enforce_csrf_checks=True))

    assert response.status_code == status


@pytest.mark.django_db
def test_with_the_production_settings_https_is_enforced(settings, environment) -> None:
    environment(settings, **{name: PRODUCTION[name] for name in HTTPS_NAMES})
    client = Client(enforce_csrf_checks=True)

    plain = client.get("/accounts/login/", HTTP_HOST=SITE, HTTP_X_FORWARDED_PROTO="http")
    secure = client.get("/accounts/login/", HTTP_HOST=SITE, HTTP_X_FORWARDED_PROTO="https")

    assert plain.status_code == 301
    assert plain.url == f"https://{SITE}/accounts/login/"
    assert secure.status_code == 200
    assert secure["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains; preload"
    assert secure.cookies["csrftoken"]["secure"]
    assert post_through_tls_proxy(client).status_code == 302


def check_deploy(tmp_path: Path, redis_url: str | None) -> subprocess.CompletedProcess[str]:
    """manage.py check --deploy --fail-level WARNING with the production settings (and Redis,
    which nothing connects to for the checks)."""
    env = {
        **os.environ,
        **PRODUCTION,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
    }
    env.pop("REDIS_URL", None)
    if redis_url:
        env["REDIS_URL"] = redis_url
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )


def test_manage_py_check_deploy_passes_with_production_settings(tmp_path: Path) -> None:
    result = check_deploy(tmp_path, "redis://127.0.0.1:6379/0")

    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_manage_py_check_deploy_warns_of_production_without_redis(tmp_path: Path) -> None:
    result = check_deploy(tmp_path, None)

    assert result.returncode == 1
    assert "(taki.W001)" in result.stderr
    assert "identified 1 issue" in result.stderr  # nothing else is missing


def test_the_https_settings_are_off_without_variables(monkeypatch) -> None:
    for name in HTTPS_NAMES:
        monkeypatch.delenv(name, raising=False)

    assert https_settings() == {
        "CSRF_TRUSTED_ORIGINS": [],
        "SECURE_PROXY_SSL_HEADER": None,
        "SECURE_SSL_REDIRECT": False,
        "SESSION_COOKIE_SECURE": False,
        "CSRF_COOKIE_SECURE": False,
        "SECURE_HSTS_SECONDS": 0,
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": False,
        "SECURE_HSTS_PRELOAD": False,
    }


@pytest.mark.parametrize(
    ("name", "bad"),
    [
        ("SECURE_PROXY_SSL_HEADER", "X-Forwarded-Proto"),
        ("SECURE_SSL_REDIRECT", "always"),
        ("SESSION_COOKIE_SECURE", "2"),
        ("CSRF_COOKIE_SECURE", "y"),
        ("SECURE_HSTS_SECONDS", "1 year"),
        ("SECURE_HSTS_SECONDS", "-1"),
        ("SECURE_HSTS_INCLUDE_SUBDOMAINS", "sure"),
        ("SECURE_HSTS_PRELOAD", "please"),
        ("CSRF_TRUSTED_ORIGINS", "site.example"),
        ("CSRF_TRUSTED_ORIGINS", "https://site.example/path"),
        ("CSRF_TRUSTED_ORIGINS", "ftp://site.example"),
        ("CSRF_TRUSTED_ORIGINS", "https://"),
    ],
)
def test_a_bad_https_variable_stops_the_site(monkeypatch, name: str, bad: str) -> None:
    monkeypatch.setenv(name, bad)

    with pytest.raises(ImproperlyConfigured, match=name):
        https_settings()


def test_it_reads_trusted_origins_with_ports_and_wildcards(monkeypatch) -> None:
    monkeypatch.setenv("CSRF_TRUSTED_ORIGINS", "https://site.example, http://127.0.0.1:8000,")
    monkeypatch.setenv("OTHER", "https://*.site.example")

    assert env_origins("CSRF_TRUSTED_ORIGINS") == ["https://site.example", "http://127.0.0.1:8000"]
    assert env_origins("OTHER") == ["https://*.site.example"]


async def open_lobby_socket(origin: str, host: str) -> bool:
    from taki_site.asgi import application

    socket = WebsocketCommunicator(
        application,
        "/ws/lobby/",
        headers=[(b"origin", origin.encode()), (b"host", host.encode())],
    )
    connected, _ = await socket.connect(timeout=3)
    await socket.disconnect()
    return connected


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("origin", "host", "opens"),
    [
        ("http://127.0.0.1:8000", "127.0.0.1:8000", True),
        ("http://localhost:8000", "localhost:8000", True),
        ("https://evil.example", "127.0.0.1:8000", False),
        # Another program's page on this machine, e.g. a dev server: same host, other port.
        ("http://localhost:3000", "localhost:8000", False),
        ("http://127.0.0.1:5173", "127.0.0.1:8000", False),
    ],
)
async def test_with_the_default_hosts_only_the_sites_own_pages_open_a_socket(
    origin: str, host: str, opens: bool
) -> None:
    assert await open_lobby_socket(origin, host) is opens


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("origin", "opens"),
    [
        (f"https://{SITE}", True),
        ("https://localhost", False),
        ("http://localhost:8000", False),
        ("https://evil.example", False),
    ],
)
async def test_in_production_only_the_allowed_hosts_open_a_socket(
    settings, origin: str, opens: bool
) -> None:
    settings.DEBUG = False
    settings.ALLOWED_HOSTS = [SITE]

    assert await open_lobby_socket(origin, SITE) is opens
