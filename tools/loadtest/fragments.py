"""Reading a table push the way a browser would, and cheaply.

The driver shares the machine's cores with the server, so a push is read with a few compiled
regular expressions over the parts that matter: the board's status and version, the flash, and
the ``<form ws-send>`` forms of the hand section and the inputs they include. Nothing else of
the HTML is looked at.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

BOARD = re.compile(r'<section id="table-board" data-status="(\w+)"(?: data-version="(\d+)")?')
FLASH = re.compile(r'<div id="flash"[^>]*>(.*?)</div>', re.DOTALL)
HAND = re.compile(r'<section id="table-hand"[^>]*>(.*?)</section>', re.DOTALL)
FORM = re.compile(r"<form ws-send([^>]*)>(.*?)</form>", re.DOTALL)
HIDDEN = re.compile(r'<input type="hidden" name="(\w+)" value="([^"]*)">')
HAND_VERSION = re.compile(r'<input type="hidden" id="hand-version" name="version" value="(\d+)">')
INCLUDE = re.compile(r'hx-include="([^"]*)"')
COLOR_BUTTON = re.compile(r'<button type="submit" name="color" value="(\w+)"')

Payload = dict[str, str]


@dataclass(slots=True)
class Push:
    """What one push tells a client: the game's status and version, whether it carries a
    refusal, and the actions it offers (each one payload as htmx would send it)."""

    status: str
    version: int | None
    refused: bool
    actions: list[Payload] = field(default_factory=list)
    # A push may carry only some of the table's sections (the seats alone, when someone's
    # socket opens or closes): htmx swaps in what came and leaves the hand as it was.
    has_hand: bool = False

    @property
    def finished(self) -> bool:
        return self.status == "finished"


def read_push(text: str, with_hand: bool = True) -> Push:
    """Read a table push. ``with_hand=False`` (spectators) skips the hand section."""
    board = BOARD.search(text)
    status, version = ("", None) if board is None else (board[1], board[2])
    flash = FLASH.search(text)
    push = Push(
        status=status,
        version=int(version) if version else None,
        refused=flash is not None and bool(flash[1].strip()),
    )
    if with_hand:
        hand = HAND.search(text)
        if hand is not None:
            push.actions = hand_actions(hand[1])
            push.has_hand = True
    return push


def hand_actions(hand: str) -> list[Payload]:
    """Every action the hand section offers, as the ws extension's JSON: the form's fields as
    strings, with those of the inputs it includes (``hx-include``), one payload per colour
    button. A form that includes the "last card" checkbox gets ``last_card`` as if it were
    ticked: the simulated player always says it (R20), so games end.
    """
    actions: list[Payload] = []
    version = HAND_VERSION.search(hand)
    for attributes, body in FORM.findall(hand):
        fields = {name: html.unescape(value) for name, value in HIDDEN.findall(body)}
        include = INCLUDE.search(attributes)
        included = {part.strip() for part in include[1].split(",")} if include else set()
        if "#hand-version" in included and version is not None:
            fields["version"] = version[1]
        if "#say-last-card" in included:
            fields["last_card"] = "true"
        colors = COLOR_BUTTON.findall(body)
        if colors:
            actions.extend({**fields, "color": color} for color in colors)
        else:
            actions.append(fields)
    return actions
