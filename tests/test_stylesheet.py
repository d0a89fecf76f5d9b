"""The stylesheets a page links: every file of static/css, in the one order palette.css names.

stylelint (`make lint`, stylelint.config.mjs) checks what is inside each file; what it cannot see
is whether the pages link them all, and in the order their cascade was written for: a later file
refines rules of an earlier one.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STYLESHEETS = ROOT / "static" / "css"
TEMPLATES = sorted((ROOT / "templates").rglob("*.html"))
LINK = re.compile(r"""<link rel="stylesheet" href="\{% static 'css/([\w-]+\.css)' %\}">""")


def named_order() -> list[str]:
    """The files palette.css's first comment lists: "linked by every page in this order: …"."""
    comment = (STYLESHEETS / "palette.css").read_text().split("*/", 1)[0]
    sentence = comment.split("in this order:", 1)[1].split("A later one", 1)[0]
    return re.findall(r"[\w-]+\.css", sentence)


def linking() -> list[Path]:
    return [template for template in TEMPLATES if 'rel="stylesheet"' in template.read_text()]


def test_palette_css_names_each_stylesheet_once_and_itself_first() -> None:
    order = named_order()

    assert order[0] == "palette.css"
    assert len(order) == len(set(order)), order
    assert sorted(order) == sorted(path.name for path in STYLESHEETS.glob("*.css"))


def test_the_base_page_and_the_error_page_link_stylesheets() -> None:
    # 500.html is drawn without a request and extends nothing: it links them itself.
    assert {"base.html", "500.html"} <= {template.name for template in linking()}


@pytest.mark.parametrize("template", linking(), ids=lambda path: path.name)
def test_a_page_links_every_stylesheet_in_that_order(template: Path) -> None:
    assert LINK.findall(template.read_text()) == named_order()
