"""The frames a table's page sends over its socket, read as strictly as a form would send them:
an action (a card, a colour, "last card", the game's version), a chat line, a request for the
chat lines missed."""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext as _

from games.services.errors import ServiceError

# The fields a browser may send with an action (docs/record-format.md, plus the state version).
ACTION_FIELDS = ("type", "card", "color", "last_card")
TRUE_WORDS = frozenset({"true", "on", "1", "yes"})
# An action frame is about 200 characters: a longer frame, or field, is none a form sends.
MAX_FRAME_CHARS = 4096
MAX_FIELD_CHARS = 32


def action_payload(message: Any) -> dict[str, Any]:
    """The action fields of a ws-send form (all strings) as ``moves.submit_action`` takes
    them: empty fields dropped, ``version`` an int, ``last_card`` a bool.

    :raises ServiceError: ``bad_request`` when it is not an object, a field is not a short
        string, or there is no usable version.
    """
    if not isinstance(message, dict):
        raise not_understood()
    payload: dict[str, Any] = {}
    for field in ACTION_FIELDS:
        value = message.get(field)
        if value in (None, ""):
            continue
        if field == "last_card" and value is True:
            payload[field] = True
            continue
        if not isinstance(value, str) or len(value) > MAX_FIELD_CHARS:
            raise not_understood()
        payload[field] = value.lower() in TRUE_WORDS if field == "last_card" else value
    version = message.get("version")
    if type(version) is int:
        payload["version"] = version
    elif isinstance(version, str) and version.isascii() and version.isdigit() and len(version) < 10:
        payload["version"] = int(version)
    else:
        raise not_understood()
    return payload


def parse_frame(text: str) -> Any:
    """A frame's JSON, refusing what no form sends: a frame too long to be one, NaN or
    Infinity, nesting deep enough to exhaust the parser.

    :raises ServiceError: ``bad_request``.
    """
    if len(text) > MAX_FRAME_CHARS:
        raise not_understood()
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except (ValueError, RecursionError):
        raise not_understood() from None


def _refuse_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number a form sends")


def not_understood() -> ServiceError:
    return ServiceError("bad_request", _("That request is not understood."))
