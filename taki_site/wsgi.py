"""WSGI entry point, for plain HTTP servers. Websockets need the ASGI one (asgi.py)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "taki_site.settings")

application = get_wsgi_application()
