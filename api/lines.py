"""The API's streams as NDJSON: one JSON object a line, and an empty line to keep a quiet
stream open."""

from __future__ import annotations

import json
from typing import Any

KEEP_ALIVE_LINE = b"\n"
CONTENT_TYPE = "application/x-ndjson"


def line(data: Any) -> bytes:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"
