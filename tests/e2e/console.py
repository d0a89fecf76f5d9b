"""The browser's console during a browser test: every error it shows, and every page error.

A page of the site writes nothing to the console when all is well: a Content-Security-Policy
violation ("Refused to apply inline style …"), a script error or a failed request is an error
there. The e2e fixtures watch every browser context a test opens and fail the test on any error
it did not say it expects (:meth:`ConsoleWatch.expect`).
"""

from __future__ import annotations

import re
from typing import Any


class ConsoleWatch:
    """Collects the console errors and uncaught exceptions of the pages of watched contexts."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self._expected: list[re.Pattern[str]] = []

    def watch_context(self, context: Any) -> Any:
        """Watch every page ``context`` opens, from its first script on; return the context."""
        for page in context.pages:
            self.watch_page(page)
        context.on("page", self.watch_page)
        return context

    def watch_page(self, page: Any) -> None:
        def on_console(message: Any) -> None:
            if message.type == "error":
                self.errors.append(f"{page.url}: {message.text}")

        page.on("console", on_console)
        page.on("pageerror", lambda error: self.errors.append(f"{page.url}: {error}"))

    def expect(self, pattern: str) -> None:
        """Errors matching ``pattern`` (a regular expression) are part of the test's story, such
        as a socket that fails while the test has the server stopped."""
        self._expected.append(re.compile(pattern))

    def unexpected(self) -> list[str]:
        return [
            error
            for error in self.errors
            if not any(pattern.search(error) for pattern in self._expected)
        ]

    def assert_clean(self) -> None:
        found = self.unexpected()
        assert not found, "the browser's console shows errors:\n" + "\n".join(found)
