"""ASGI entry point: Daphne serves HTTP and websockets from here."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "taki_site.settings")

# Set up Django (apps, settings) before importing anything that touches models.
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter  # noqa: E402
from django.conf import settings  # noqa: E402

from arenas import routing as arena_routing  # noqa: E402
from games import clock  # noqa: E402
from games.live import restarts, routing  # noqa: E402
from games.live.limits import RefuseFlooders  # noqa: E402
from games.live.scope import visitor_stack  # noqa: E402
from lib.metrics import CountSockets  # noqa: E402
from lib.origins import SameOriginValidator  # noqa: E402
from outbox import sending  # noqa: E402

# The websockets and the process's live side: the table hub they share, which the services tell.
live = routing.application(arena_routing.websocket_urlpatterns)

application = ProtocolTypeRouter(
    {
        # The table hub in each request's scope too: the API's game streams listen through it.
        "http": live.http(django_asgi_app),
        # Stricter than channels' AllowedHostsOriginValidator: the port must match too.
        # A client closed for flooding is refused before its session is read.
        "websocket": CountSockets(SameOriginValidator(RefuseFlooders(visitor_stack(live)))),
    }
)

# The live side first: the clock's first move already goes through its hub.
live.start_with_server()
if settings.CLOCK_IN_WEB:
    clock.start_with_server(clock.Clock(jobs=clock.configured_jobs(), deliver=sending.deliver_due))
# On SIGTERM the sockets are closed for a restart (1012) and reconnect elsewhere, not dropped.
restarts.stop_gently_with_server()
