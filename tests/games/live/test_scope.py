"""A socket's person and language, read from its scope."""

from __future__ import annotations

from channels.auth import UserLazyObject
from django.contrib.auth.models import AnonymousUser

from games.live.scope import language_of, user_of


def test_a_socket_keeps_the_user_out_of_the_scope_s_lazy_object(alice) -> None:
    lazy = UserLazyObject()
    lazy._wrapped = alice
    anonymous = AnonymousUser()

    assert type(user_of({"user": lazy})) is type(alice) and user_of({"user": lazy}) is alice
    assert user_of({"user": anonymous}) is anonymous
    assert user_of({}) is None


def test_the_language_cookie_comes_before_the_accept_language_header() -> None:
    headers = [(b"accept-language", b"id;q=0.9, es;q=0.8")]

    assert language_of({"cookies": {"django_language": "eo"}, "headers": headers}) == "eo"
    assert language_of({"headers": headers}) == "id"


def test_a_language_the_site_does_not_speak_falls_back_to_english() -> None:
    assert language_of({"headers": [(b"accept-language", b"fr, de")]}) == "en"
    assert language_of({}) == "en"
