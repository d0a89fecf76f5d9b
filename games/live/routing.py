"""Websocket routes (ws/lobby/, ws/tables/<id>/, ws/pool/, ws/site/), mounted by
taki_site.asgi under the site's auth middleware (``games.live.scope.visitor_stack``)."""

from collections.abc import Sequence

from channels.routing import URLRouter
from django.urls import URLPattern, path

from games.live import consumers
from games.live.pool import PoolConsumer
from games.live.server import LiveSide
from games.live.site import SiteConsumer

websocket_urlpatterns: list[URLPattern] = [
    path("ws/lobby/", consumers.LobbyConsumer.as_asgi()),
    path("ws/tables/<int:table_id>/", consumers.TableConsumer.as_asgi()),
    path("ws/pool/", PoolConsumer.as_asgi()),
    path("ws/site/", SiteConsumer.as_asgi()),
]


def application(extra: Sequence[URLPattern] = ()) -> LiveSide:
    """The site's websockets, and the ``extra`` routes of the apps above the games (given by
    taki_site.asgi), with a live side of their own: the table hub their table sockets share,
    made on the event loop that serves them (``games.live.server``)."""
    return LiveSide(URLRouter([*websocket_urlpatterns, *extra]))
