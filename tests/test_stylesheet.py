"""The site's stylesheets are well formed: a rule left open swallows every rule after it (a merge
once dropped two closing braces, and the phone layout of the table was lost)."""

from __future__ import annotations

from pathlib import Path

import pytest

STYLESHEETS = sorted((Path(__file__).resolve().parent.parent / "static" / "css").glob("*.css"))


@pytest.mark.parametrize("stylesheet", STYLESHEETS, ids=lambda path: path.name)
def test_every_block_of_the_stylesheet_is_closed_where_it_should_be(stylesheet: Path) -> None:
    name = stylesheet.name
    depth = 0
    for number, line in enumerate(stylesheet.read_text().splitlines(), start=1):
        if not line.startswith(" ") and line.strip() and depth and not line.startswith("}"):
            # A line at the left margin inside a block: a selector or comment of the top level
            # that a missing "}" pulled into the block before it.
            raise AssertionError(f"{name}:{number}: {line!r} is inside an unclosed block")
        depth += line.count("{") - line.count("}")
        assert depth >= 0, f"{name}:{number}: a '}}' closes nothing"
    assert depth == 0, f"{name} ends inside a block"
