"""The Jinja2 environment of the table's live partials (``games/jinja2/``).

The parts of the table page that every move redraws, for every socket at the table, are Jinja2
templates: Jinja2 compiles a template to Python, and draws these several times faster than the
Django template language, whose drawing would be the largest cost of a move. The page includes them
with ``{% live_partial %}`` (``games.templatetags.taki``) and the pushes draw them with
``games.presenters``, so the first page load and every push stay one template.

Translations go through Django's gettext, so the messages are the catalogue's own: a
``{% trans %}`` block has the same msgid as the Django templates' ``{% blocktranslate %}`` of
the same words (``tests/test_catalogues.py`` checks that each one is translated). The pushes
draw each language's own compilation of the partials, whose messages without a plural were
translated when it was compiled (``LiveEnvironment.in_language``). As with Django's tags,
``{{ _("…") }}`` is escaped like any value, and a ``{% trans %}`` block's translation is trusted
markup (some hold a ``<strong>``) whose variables are escaped.
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping
from functools import lru_cache
from types import CodeType
from typing import Any

from django.urls import reverse
from django.utils import translation
from django.utils.text import capfirst
from django.utils.translation import gettext, ngettext
from jinja2 import Environment, nodes
from jinja2.visitor import NodeTransformer
from markupsafe import Markup

from games.presenters import narration
from games.presenters.cards import card


def url(name: str, *args: Any) -> str:
    """``{% url name arg… %}``: the path of a named URL."""
    return reverse(name, args=args)


class LiveEnvironment(Environment):
    """Jinja2's environment, with each template's globals one plain dict, and a copy of itself
    per language whose templates hold their constant messages already translated.

    Jinja2 lays a template's globals over the environment's in a ``ChainMap`` and copies them
    into a new context on every render and every ``{% include %}``; walking a ``ChainMap`` is
    slow, and these globals are set once, before any template is loaded.
    """

    # The language this copy's templates are compiled in (None: looked up at each drawing).
    language: str | None = None
    LANGUAGE_CACHE_SIZE = 100  # templates a language's copy keeps compiled: the partials are 11

    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        return {**self.globals, **(d or {})}

    def in_language(self, language: str) -> LiveEnvironment:
        """This environment, compiling ``{{ _("…") }}`` and each ``{% trans %}`` block without a
        plural as the text it has in ``language``: Jinja2 then writes the escaped translation
        into the compiled template, where it would look each up and escape it at every drawing.

        A copy's templates are drawn in its language alone; the copies share everything else.
        """
        copies = self.__dict__.setdefault("_language_copies", {})
        copy = copies.get(language)
        if copy is None:
            # A cache of its own: overlay() would otherwise copy in the templates compiled so far.
            copy = self.overlay(cache_size=self.LANGUAGE_CACHE_SIZE)
            copy.language = language
            copies[language] = copy
        return copy

    def compile(
        self,
        source: str | nodes.Template,
        name: str | None = None,
        filename: str | None = None,
        raw: bool = False,
        defer_init: bool = False,
    ) -> str | CodeType:
        """Jinja2's ``compile``; in a language's copy, a template's source is parsed, its
        constant messages translated in the tree, and the tree compiled."""
        if self.language is not None and isinstance(source, str):
            tree = self.parse(source, name, filename)
            with translation.override(self.language):
                source = _TranslateMessages(gettext).visit(tree)
            source.set_environment(self)
        return super().compile(source, name, filename, raw=raw, defer_init=defer_init)


class _TranslateMessages(NodeTransformer):
    """Replaces each ``_("text")`` and ``gettext("text")`` call (what a ``{% trans %}`` block
    without a plural compiles to) with the text's translation, a constant."""

    MESSAGE_FUNCTIONS = frozenset({"_", "gettext"})

    def __init__(self, gettext: Callable[[str], str]) -> None:
        self.gettext = gettext

    def visit_Call(self, node: nodes.Call) -> nodes.Node:
        node = self.generic_visit(node)
        if (
            isinstance(node.node, nodes.Name)
            and node.node.name in self.MESSAGE_FUNCTIONS
            and len(node.args) == 1
            and isinstance(node.args[0], nodes.Const)
            and isinstance(node.args[0].value, str)
            and not node.kwargs
            and node.dyn_args is None
            and node.dyn_kwargs is None
        ):
            return nodes.Const(self.gettext(node.args[0].value), lineno=node.lineno)
        return node


HAND_CARD = "games/live/table_hand_card.html"
HAND_CARDS_KEPT = 4096  # a card's HTML per code, playability, colours and language: a few hundred


def hand_card_drawer(env: Environment) -> Callable[..., Markup]:
    """``hand_card(card, say_with_play)``: one card of the player's hand (a
    ``presenters.HandCard``), drawn from ``HAND_CARD`` once per language and then kept.

    A hand is drawn for each player after every move, and its cards rarely change between
    two moves; their forms carry no version (``#hand-version`` does), so the same card is the
    same HTML. Nothing is kept while templates reload (``DEBUG``).
    """

    @lru_cache(maxsize=0 if env.auto_reload else HAND_CARDS_KEPT)
    def draw(card: Any, say_with_play: bool, language: str | None) -> Markup:
        with translation.override(language):
            html = env.get_template(HAND_CARD).render(
                card_in_hand=card, say_with_play=say_with_play
            )
        return Markup(html)

    def hand_card(card: Any, say_with_play: bool, *, language: str | None = None) -> Markup:
        return draw(card, bool(say_with_play), language or translation.get_language())

    return hand_card


def environment(**options: Any) -> Environment:
    env = LiveEnvironment(extensions=["jinja2.ext.i18n"], **options)
    env.install_gettext_callables(gettext, ngettext, newstyle=False)
    # ``_`` is gettext itself, not the extension's alias that looks gettext up on every call.
    env.globals["_"] = gettext
    env.globals.update(url=url, card=card, hand_card=hand_card_drawer(env))
    env.filters.update(
        capfirst=capfirst, card_name=narration.card_name, color_name=narration.color_name
    )
    return env
