"""Django settings for Taki Online.

Everything that differs between a laptop and a server is read from environment variables; see
docs/configuration.md. A fresh checkout runs with no variables set: SQLite, the in-memory
channel layer, DEBUG off.
"""

import os
from pathlib import Path

from django.utils.csp import CSP

from lib.env import (
    cache_config,
    channel_layers_config,
    database_config,
    email_settings,
    env_bool,
    env_int,
    env_list,
    env_networks,
    https_settings,
    secret_key,
)
from lib.logs import logging_config

BASE_DIR = Path(__file__).resolve().parent.parent

# Without SECRET_KEY, a random key made on first run and kept in .secret_key (git ignores it):
# never a key anyone can read in the repository.
SECRET_KEY = secret_key(os.environ.get("SECRET_KEY"), BASE_DIR / ".secret_key")
DEBUG = env_bool("DEBUG", default=False)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")

# CSRF_TRUSTED_ORIGINS, SECURE_PROXY_SSL_HEADER, secure cookies, SSL redirect and HSTS: see
# docs/configuration.md and lib.env.https_settings.
globals().update(https_settings())

INSTALLED_APPS = [
    # daphne first: it replaces runserver with an ASGI server that also speaks websockets.
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "accounts",
    "social",
    "games",
    "moderation",
    "arenas",
    "outbox",
    "api",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

# Scripts, styles and sockets from the site itself only: injected markup can run nothing, and a
# page cannot be framed. No inline script or style anywhere: htmx is told not to inject its
# indicator style (templates/base.html). 'self' covers the page's own ws:// or wss:// address in
# CSP Level 3 browsers.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "connect-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "frame-ancestors": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "form-action": [CSP.SELF],
    "object-src": [CSP.NONE],
}

ROOT_URLCONF = "taki_site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "social.context_processors.bell",
                "games.context_processors.your_move",
            ],
        },
    },
    {
        # The table's live partials, drawn for every socket on every move
        # (games/presenters/jinja.py).
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "APP_DIRS": True,
        "OPTIONS": {"environment": "games.presenters.jinja.environment"},
    },
]

WSGI_APPLICATION = "taki_site.wsgi.application"
ASGI_APPLICATION = "taki_site.asgi.application"

DATABASES = {"default": database_config(os.environ.get("DATABASE_URL"), BASE_DIR / "db.sqlite3")}
CHANNEL_LAYERS = channel_layers_config(
    os.environ.get("REDIS_URL"), os.environ.get("REDIS_CHANNEL_LAYER") or "pubsub"
)
CACHES = cache_config(os.environ.get("REDIS_URL"))
# What one table socket may send: a burst of actions, then so many a second (a person clicks a
# few times a second at most, a TAKI run card by card included); a flood closes it (4429).
SOCKET_ACTIONS_BURST = 20
SOCKET_ACTIONS_PER_SECOND = 5.0
# Sockets without a log-in (the lobby's and the tables') one client address may hold open in
# one server process; the next is closed (4430) with a word the page shows.
ANONYMOUS_SOCKETS_PER_ADDRESS = env_int("ANONYMOUS_SOCKETS_PER_ADDRESS", 20, minimum=1)

# Each web process plays the bots' moves and the turn timeouts as they fall due (games/clock.py).
# Off (0) when `manage.py run_clock` runs as a process of its own, which needs REDIS_URL.
CLOCK_IN_WEB = env_bool("CLOCK_IN_WEB", default=True)
# What else every clock runs on its ticks (the web processes' and manage.py run_clock's): dotted
# paths of functions taking the tick's time (games.clock.configured_jobs).
CLOCK_JOBS = ["arenas.clock.tick"]

# Every process logs to stderr from INFO up, LOG_FORMAT=text (a line each) or json (one JSON object
# a line), with the table and game of a move (lib/logs.py). The health check's 503 is the answer
# asked for, not logged as a server error (monitoring/logs.py).
LOGGING = logging_config(
    os.environ.get("LOG_FORMAT", "text").strip().lower(),
    request_filters=["monitoring.logs.HealthAnswers"],
)

# Who may read /metrics (monitoring/metrics.py): these addresses or networks, or a request carrying
# "Authorization: Bearer <METRICS_TOKEN>". Neither set: nobody (404).
METRICS_ALLOWED_ADDRESSES = env_networks("METRICS_ALLOWED_ADDRESSES")
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "")
# SERVED_BY_HEADER=1: every response names the process that served it (X-Served-By,
# monitoring/middleware.py), to see how the proxy spreads the pages over the processes. Off by
# default: it tells the world the server's addresses.
SERVED_BY_HEADER = env_bool("SERVED_BY_HEADER", default=False)
if SERVED_BY_HEADER:
    MIDDLEWARE.insert(0, "monitoring.middleware.served_by")
# The proxy and systemd ask for /healthz, and Prometheus for /metrics, over plain HTTP too.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^metrics$"]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Usernames are unique ignoring case, and so is logging in (accounts/backends.py).
AUTHENTICATION_BACKENDS = ["accounts.backends.CaseInsensitiveModelBackend"]

# New accounts a client address may make per hour (accounts/throttle.py). Players behind one
# address (a school, a café) share it.
SIGNUPS_PER_ADDRESS_PER_HOUR = env_int("SIGNUPS_PER_ADDRESS_PER_HOUR", 10, minimum=1)
# Guest accounts ("Try a game against bots") a client address may make per hour: a class or a
# café behind one address tries the game together, so far more than sign-ups.
GUESTS_PER_ADDRESS_PER_HOUR = env_int("GUESTS_PER_ADDRESS_PER_HOUR", 200, minimum=1)
# E-mail (accounts' verification and password reset, outbox's deliveries): SMTP when EMAIL_HOST
# is set, else the console (lib.env.email_settings).
globals().update(email_settings())
# The site's own address, for the links of the e-mails and pushes sent (outbox/).
SITE_URL = os.environ.get("SITE_URL", "http://localhost:8000")
# Web Push (outbox/): the VAPID key pair (base64url, as `vapid --gen` or py-vapid make them) and
# the contact the push services may write to; without a key, push is not offered.
WEBPUSH_VAPID_PRIVATE_KEY = os.environ.get("WEBPUSH_VAPID_PRIVATE_KEY", "")
WEBPUSH_VAPID_PUBLIC_KEY = os.environ.get("WEBPUSH_VAPID_PUBLIC_KEY", "")
WEBPUSH_VAPID_SUBJECT = os.environ.get("WEBPUSH_VAPID_SUBJECT", "mailto:taki@localhost")

# Unfinished games against bots alone one person may play at once (games/services/tables.py).
BOT_GAMES_PER_PERSON = env_int("BOT_GAMES_PER_PERSON", 3, minimum=1)

LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("es", "Español"),
    ("id", "Bahasa Indonesia"),
    ("eo", "Esperanto"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
# collectstatic names each file after its contents as well (js/table.0242e0fad421.js), with a
# gzip copy, and writes the names in staticfiles.json, which {% static %} reads: a page names the
# files of its own release, which a browser may keep for good (WhiteNoise and the nginx site of
# deploy/ say so). With DEBUG off, pages are served only once collectstatic has run; with DEBUG
# on, {% static %} names the files by their own names, as the tests do (tests/conftest.py).
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
