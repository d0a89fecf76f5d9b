"""Websocket routes, mounted by taki_site.asgi under AuthMiddlewareStack."""

from django.urls import URLPattern

websocket_urlpatterns: list[URLPattern] = []
