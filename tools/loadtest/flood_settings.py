"""The site's settings for ``make bench-flood``: the site's own limits on sockets, and only a
fast password hasher (see ``tools.loadtest.settings`` for why)."""

from tools.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
