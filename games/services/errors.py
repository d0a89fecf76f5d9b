"""What the services say when they refuse a request."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext_lazy

from accounts import sanctions
from social.errors import Refused

# Our words for the engine's error codes (docs/record-format.md); the engine's own messages are
# English.
ENGINE_MESSAGES = {
    "bad_action": gettext_lazy("That is not a valid action."),
    "game_over": gettext_lazy("The game is over."),
    "not_your_turn": gettext_lazy("It is not your turn."),
    "card_not_in_hand": gettext_lazy("You do not hold that card."),
    "must_answer": gettext_lazy("You must answer the pending attack first."),
    "illegal_card": gettext_lazy("That card cannot be played now."),
    "color_required": gettext_lazy("Name a colour: red, yellow, green or blue."),
    "cannot_close": gettext_lazy("There is no TAKI run of yours to close."),
    "cannot_pass": gettext_lazy("You cannot pass now."),
    "cannot_draw": gettext_lazy("You are in a TAKI run: close it or pass instead of drawing."),
    "cannot_announce": gettext_lazy("You can only say “last card” with one card in hand."),
}


class ServiceError(ValueError):
    """A refused request, with a ``code`` that says why and a ``message`` for the user, already
    translated.

    ``code`` is an engine error code of docs/record-format.md or one of ``stale``, ``not_seated``,
    ``not_started``, ``forbidden``, ``table_full``, ``too_many_games``, ``bad_request``,
    ``not_found``, ``guest`` (a guest asked for what needs an account of their own),
    ``too_many_challenges``, ``playing`` (the person plays at a running table).
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = str(message)

    def __repr__(self) -> str:
        return f"ServiceError({self.code!r}, {self.message!r})"


def refused_by_social(refusal: Refused) -> ServiceError:
    """The social app's refusal (``social.errors.Refused``) as the services say it."""
    return ServiceError(refusal.code, refusal.message)


def refuse_if_sanctioned(user: AbstractBaseUser, kind: str) -> None:
    """Refuse ``user`` while a sanction of ``kind`` holds on them (``accounts.sanctions``).

    :raises ServiceError: ``forbidden``, saying why and until when.
    """
    try:
        sanctions.refuse_if_active(user, kind)
    except sanctions.Sanctioned as refusal:
        raise ServiceError("forbidden", refusal.message) from None
