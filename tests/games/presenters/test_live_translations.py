"""The live partials compiled per language (``LiveEnvironment.in_language``) draw exactly what
the same templates draw with each message looked up as they are drawn, in every language."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.template import engines
from django.utils import translation
from jinja2 import DictLoader

from games import presenters
from games.models import Game, Table
from games.presenters import fragments as presenters_fragments
from games.presenters import jinja
from games.services import moves
from tests.play import play_to_the_end

pytestmark = pytest.mark.django_db

LANGUAGES = [code for code, _name in settings.LANGUAGES]
# alice (seat 0) leads; her TAKI opens a run, and bob's +2 makes her draw two.
HANDS = [
    ["red:1", "red:3", "red:taki", "red:plus2", "plus3", "blue:1", "green:1", "yellow:1"],
    ["red:6", "red:7", "blue:6", "blue:7", "green:6", "red:plus2", "yellow:6", "breaker"],
]


def looked_up_as_drawn(name: str, context: dict[str, Any]) -> str:
    """The partial drawn by the environment the page uses: every message through gettext."""
    return engines["jinja2"].env.get_template(name).render(context)


def tables_in_every_state(alice, bob, make_table, rig) -> list[Table]:
    waiting = make_table(name="Waiting", seat_count=3, players=[bob])
    running = make_table(name="Running", players=[bob], start=True)
    rig(running, HANDS)
    moves.submit_action(running.pk, alice, {"type": "play", "card": "red:taki", "version": 0})
    plus_two = make_table(name="Plus two", players=[bob], start=True)
    rig(plus_two, HANDS)
    moves.submit_action(plus_two.pk, alice, {"type": "play", "card": "red:1", "version": 0})
    moves.submit_action(plus_two.pk, bob, {"type": "play", "card": "red:plus2", "version": 1})
    ended = make_table(name="Ended", players=[bob], start=True)
    play_to_the_end(ended)
    return [waiting, running, plus_two, ended]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_partial_compiled_in_a_language_draws_what_looking_each_message_up_draws(
    language, alice, bob, make_table, rig
) -> None:
    tables = tables_in_every_state(alice, bob, make_table, rig)
    assert Game.objects.get(table=tables[-1]).finished
    with translation.override(language):
        for table in tables:
            view = presenters.read_table(table.pk)
            for viewer in (alice, bob, None):
                context = presenters.table_page_context(view, viewer, flash="Too late.")
                for name in (
                    "games/live/table_state.html",
                    "games/live/table_public.html",
                    "games/live/table_private.html",
                ):
                    drawn = presenters_fragments._live(name, context)
                    assert drawn == looked_up_as_drawn(name, context), (table.name, viewer, name)


def test_the_copy_in_a_language_holds_its_constant_messages_translated() -> None:
    env = engines["jinja2"].env
    source = (
        '<p title="{{ _("Watching") }}">{% trans %}You are watching this game.{% endtrans %}</p>'
    )
    with translation.override("es"):
        watching = translation.gettext("Watching")
        sentence = translation.gettext("You are watching this game.")
    assert watching != "Watching" and sentence != "You are watching this game."

    compiled = env.in_language("es").compile(source, raw=True)

    assert watching in compiled and sentence in compiled
    assert "Watching" not in compiled
    # The copy is made once per language, and the page's environment is left as it was.
    assert env.in_language("es") is env.in_language("es")
    assert "Watching" in env.compile(source, raw=True)


def test_a_template_its_loader_reads_is_compiled_with_its_messages_translated() -> None:
    env = jinja.environment(loader=DictLoader({"watching.html": '<p>{{ _("Watching") }}</p>'}))
    with translation.override("es"):
        watching = translation.gettext("Watching")

    def looked_up(message: str) -> str:
        return "looked up as drawn"

    # Drawn with a gettext of its own, the copy's template shows the message it was compiled
    # with; the page's environment looks it up.
    assert env.in_language("es").get_template("watching.html").render(_=looked_up) == (
        f"<p>{watching}</p>"
    )
    assert env.get_template("watching.html").render(_=looked_up) == "<p>looked up as drawn</p>"


def test_a_message_with_a_plural_is_still_chosen_as_it_is_drawn() -> None:
    source = (
        "{% trans counter=n %}Your hand: {{ counter }} card"
        "{% pluralize counter %}Your hand: {{ counter }} cards{% endtrans %}"
    )
    template = engines["jinja2"].env.in_language("es").from_string(source)
    singular, plural = "Your hand: %(counter)s card", "Your hand: %(counter)s cards"
    with translation.override("es"):
        one = translation.ngettext(singular, plural, 1) % {"counter": 1}
        five = translation.ngettext(singular, plural, 5) % {"counter": 5}
        assert (template.render(n=1), template.render(n=5)) == (one, five)
    assert one != singular % {"counter": 1} and one != five
