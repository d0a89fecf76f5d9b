"""The e-mail settings from the environment: the console unless EMAIL_HOST names a server."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from lib.env import email_settings


def test_without_a_host_every_email_goes_to_the_console(monkeypatch) -> None:
    monkeypatch.delenv("EMAIL_HOST", raising=False)
    found = email_settings()
    assert found["MAILERS"]["default"]["BACKEND"].endswith("console.EmailBackend")


def test_a_host_sends_through_smtp_with_tls_by_default(monkeypatch) -> None:
    monkeypatch.setenv("EMAIL_HOST", "smtp.example.org")
    monkeypatch.setenv("EMAIL_HOST_USER", "taki")
    monkeypatch.setenv("DEFAULT_FROM_EMAIL", "Taki <no-reply@example.org>")
    found = email_settings()
    smtp = found["MAILERS"]["default"]
    assert smtp["BACKEND"].endswith("smtp.EmailBackend")
    assert smtp["OPTIONS"]["port"] == 587 and smtp["OPTIONS"]["use_tls"]
    assert smtp["OPTIONS"]["username"] == "taki"
    assert found["DEFAULT_FROM_EMAIL"] == "Taki <no-reply@example.org>"


def test_tls_and_ssl_at_once_are_refused(monkeypatch) -> None:
    monkeypatch.setenv("EMAIL_HOST", "smtp.example.org")
    monkeypatch.setenv("EMAIL_USE_SSL", "1")
    monkeypatch.setenv("EMAIL_USE_TLS", "1")
    with pytest.raises(ImproperlyConfigured):
        email_settings()
