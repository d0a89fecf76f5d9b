"""Quick match's pages: the pools offered, and what a pool page shows and is pushed."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.template.loader import render_to_string
from django.utils import translation

from games.services import quickmatch


def pools_context() -> dict[str, Any]:
    """What the "Play now" form draws: every pool, and the wait before bots fill in."""
    return {
        "quick_pools": list(quickmatch.POOLS.values()),
        "bots_after": round(quickmatch.pairing.BOTS_AFTER),
    }


@dataclass(frozen=True)
class PoolView:
    """How many people wait in one pool, read once per change for every page of the pool."""

    pool: str
    waiting: int
    rendered: dict[str, str] = field(default_factory=dict, repr=False)


def read_pool(key: str) -> PoolView:
    return PoolView(key, quickmatch.waiting_count(key))


def pool_count_fragment(view: PoolView) -> str:
    """``#pool-count`` as the pool page shows it, drawn once per language."""
    language = translation.get_language() or ""
    html = view.rendered.get(language)
    if html is None:
        html = render_to_string("games/partials/pool_count.html", {"waiting": view.waiting})
        view.rendered[language] = html
    return html


def pool_elsewhere_fragment(table_id: int | None) -> str:
    """What a pool page is pushed when its person's place is elsewhere (seated at
    ``table_id``, in another pool, out): an element that, once swapped in, asks the pool page
    where to go (htmx follows the answer's ``HX-Redirect``), with a link for a page that
    cannot."""
    return render_to_string("games/partials/pool_elsewhere.html", {"table_id": table_id})
