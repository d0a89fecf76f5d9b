"""What the social app says when it refuses a request."""

from __future__ import annotations


class Refused(ValueError):
    """A refused request: a ``code`` that says why (``forbidden``, ``bad_request``,
    ``not_found``) and a ``message`` for the person, already translated."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = str(message)

    def __repr__(self) -> str:
        return f"Refused({self.code!r}, {self.message!r})"
