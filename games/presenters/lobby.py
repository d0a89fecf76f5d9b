"""The lobby: the open public tables, and the games being played that anyone may watch, read
once per change for every lobby socket."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.template.loader import render_to_string
from django.utils import translation

from games.presenters.front import playing_context
from games.presenters.ratings import host_ratings
from games.services import tables
from games.services.access import signed_in_id


def lobby_context(page: int = 1) -> dict[str, Any]:
    """What ``games/partials/lobby_tables.html`` draws: a page of the open public tables."""
    pages = tables.lobby_pages()
    page = min(page, pages)
    rows = tables.lobby_tables(page)
    shown = host_ratings(rows)
    for row in rows:
        row.host_rating = shown.get(row.pk, "")  # beside the host's name, at a rated table
    return {"lobby_tables": rows, "lobby_page": page, "lobby_pages": pages}


@dataclass(frozen=True)
class LobbyView:
    """The open public tables, read once per change for every lobby socket of a process."""

    context: dict[str, Any]  # lobby_context() of the first page, and front.playing_context()
    rendered: dict[tuple[str, bool], str] = field(default_factory=dict, repr=False)


def read_lobby() -> LobbyView:
    """The lobby's first page, the one its socket keeps live."""
    return LobbyView(context={**lobby_context(), **playing_context()})


def lobby_fragment(view: LobbyView, user: Any) -> str:
    """The lobby's table list for ``user``, and the games being played, drawn once per language
    for visitors and once for the logged-in (the Join column is all that differs)."""
    key = (translation.get_language() or "", signed_in_id(user) is not None)
    html = view.rendered.get(key)
    if html is None:
        context = {**view.context, "user": user}
        html = render_to_string("games/partials/lobby_tables.html", context)
        html += render_to_string("games/partials/playing_now.html", context)
        view.rendered[key] = html
    return html
