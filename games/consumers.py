"""Websocket transport for the lobby and the tables (issue 3).

Consumers only move data: who is this, which table, call ``games.services``, push fragments.
Every push is the same partial template the page was first drawn with; htmx's ws extension
swaps its top-level elements into the page by id. A table's group message carries no cards:
each socket re-renders its own user's view from the database.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from games import clock
from games.models import Table
from games.presenters import lobby_context, table_page_context
from games.services import access, broadcast, moves
from games.services.errors import ServiceError

# The fields a browser may send with an action (GAME_RECORD.md, plus the state version).
ACTION_FIELDS = ("type", "card", "color", "last_card")
TRUE_WORDS = frozenset({"true", "on", "1", "yes"})


def ensure_clock() -> None:
    """Start the server clock that plays bots and timeouts (kept a name so tests can stub it)."""
    clock.ensure_clock()


def _language(scope: dict[str, Any]) -> str:
    """The visitor's language: the language cookie, else the Accept-Language header."""
    cookie = scope.get("cookies", {}).get(settings.LANGUAGE_COOKIE_NAME)
    candidates = [cookie] if cookie else []
    headers = dict(scope.get("headers", []))
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    candidates += [part.split(";")[0].strip() for part in accept.split(",") if part.strip()]
    for code in candidates:
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE


def action_payload(message: Any) -> dict[str, Any]:
    """The action fields of a ws-send form (all strings) as ``moves.submit_action`` takes
    them: empty fields dropped, ``version`` an int, ``last_card`` a bool.

    :raises ServiceError: ``bad_request`` when it is not an object or has no usable version.
    """
    if not isinstance(message, dict):
        raise ServiceError("bad_request", _("That request is not understood."))
    payload: dict[str, Any] = {}
    for field in ACTION_FIELDS:
        value = message.get(field)
        if value not in (None, ""):
            payload[field] = value
    if "last_card" in payload:
        raw = payload["last_card"]
        payload["last_card"] = raw is True or str(raw).lower() in TRUE_WORDS
    try:
        payload["version"] = int(message.get("version"))
    except (TypeError, ValueError):
        raise ServiceError("bad_request", _("That request is not understood.")) from None
    return payload


class LobbyConsumer(AsyncWebsocketConsumer):
    """``ws/lobby/``: pushes the list of open tables whenever it changes."""

    group = broadcast.LOBBY_GROUP

    async def connect(self) -> None:
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        return  # the lobby socket only listens

    async def lobby_update(self, message: dict[str, Any]) -> None:
        await self.send(text_data=await self._render())

    @database_sync_to_async
    def _render(self) -> str:
        with translation.override(_language(self.scope)):
            # The user decides the Join column: a button, or a link to log in first.
            context = {**lobby_context(), "user": self.scope.get("user")}
            return render_to_string("games/partials/lobby_tables.html", context)


class TableConsumer(AsyncWebsocketConsumer):
    """``ws/tables/<id>/``: one per table page. Sends the table as this user sees it on connect
    and on every change, and passes the user's actions to ``moves.submit_action``."""

    table_id: int
    group: str

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.user = self.scope.get("user")
        query = parse_qs(self.scope.get("query_string", b"").decode())
        self.invite = (query.get("invite") or [""])[0]
        if not await self._may_watch():
            await self.close(code=4403)
            return
        self.group = broadcast.group_name(self.table_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self._set_connected(True)
        ensure_clock()
        await self._push()

    async def disconnect(self, code: int) -> None:
        if not hasattr(self, "group"):
            return
        await self.channel_layer.group_discard(self.group, self.channel_name)
        await self._set_connected(False)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        refusal = await self._submit(text_data or "")
        if refusal:
            # To this socket only, with the table as it stands now.
            await self._push(flash=refusal)
        # On success the broadcast after commit (table.update) brings the new table here too.

    async def table_update(self, message: dict[str, Any]) -> None:
        await self._push()

    # ------------------------------------------------------------------ helpers

    @database_sync_to_async
    def _submit(self, text: str) -> str:
        """Pass one action on to the services; return the refusal's words, or "" if applied."""
        with translation.override(_language(self.scope)):
            try:
                payload = action_payload(json.loads(text))
                if not getattr(self.user, "is_authenticated", False):
                    raise ServiceError("not_seated", _("Log in and take a seat to play."))
                moves.submit_action(self.table_id, self.user, payload)
            except ServiceError as error:
                if error.code == "stale":
                    return _(
                        "That move was made against an old position — the table has been refreshed."
                    )
                return error.message
            except ValueError:  # the text is not JSON
                return _("That request is not understood.")
        return ""

    async def _push(self, flash: str = "") -> None:
        await self.send(text_data=await self._render(flash))

    @database_sync_to_async
    def _render(self, flash: str) -> str:
        table = Table.objects.select_related("host").get(pk=self.table_id)
        with translation.override(_language(self.scope)):
            context = table_page_context(table, self.user, flash=flash, invite=self.invite)
            return render_to_string("games/partials/table_state.html", context)

    @database_sync_to_async
    def _may_watch(self) -> bool:
        """The same rule as the table page (``access.may_watch``)."""
        table = Table.objects.filter(pk=self.table_id).first()
        return table is not None and access.may_watch(table, self.user, self.invite)

    @database_sync_to_async
    def _set_connected(self, connected: bool) -> None:
        if getattr(self.user, "is_authenticated", False):
            broadcast.set_connected(self.table_id, self.user, connected)
