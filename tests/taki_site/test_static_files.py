"""The static files named after their contents: collectstatic with the site's storage
(``STORAGES`` in taki_site/settings.py) gives a file a new name when it changes and keeps the
old one, a page names the files collected for its release, and WhiteNoise lets a browser keep a
named file for good. The rest of the suite draws pages with the files by their own names
(tests/conftest.py)."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client, RequestFactory, override_settings
from whitenoise.middleware import WhiteNoiseMiddleware

import taki_site.settings as site

SOURCE = Path(site.BASE_DIR) / "static"
NAMED = re.compile(r"^js/table\.[0-9a-f]{12}\.js$")
FOREVER = "max-age=315360000, public, immutable"


@dataclass
class Release:
    source: Path  # the project's static/ folder, copied
    root: Path  # STATIC_ROOT

    def collect(self) -> dict[str, str]:
        """collectstatic (but the admin's files, which these pages do not name); the names it
        gave, as a fresh process reads them (staticfiles.json)."""
        call_command("collectstatic", "--noinput", "--ignore", "admin", verbosity=0)
        return json.loads((self.root / "staticfiles.json").read_text())["paths"]


@pytest.fixture
def release(tmp_path: Path) -> Iterator[Release]:
    """The site's storage, collecting a copy of the project's static/ folder (and the apps' static
    files) into a folder of the test's own."""
    source = tmp_path / "static"
    shutil.copytree(SOURCE, source)
    root = tmp_path / "staticfiles"
    with override_settings(
        STORAGES=site.STORAGES,
        STATIC_ROOT=root,
        STATICFILES_DIRS=[source],
    ):
        yield Release(source, root)


def test_a_changed_file_is_collected_under_a_new_name_and_the_old_one_is_kept(release) -> None:
    before = release.collect()
    with (release.source / "js" / "table.js").open("a") as script:
        script.write("\n// the next release\n")

    after = release.collect()

    assert NAMED.match(before["js/table.js"]), before["js/table.js"]
    assert NAMED.match(after["js/table.js"]), after["js/table.js"]
    assert after["js/table.js"] != before["js/table.js"]
    assert after["js/chat.js"] == before["js/chat.js"]  # unchanged: the name a browser keeps
    # A page drawn before the new release still finds its own script.
    old, new = (release.root / before["js/table.js"]), (release.root / after["js/table.js"])
    assert old.exists()
    assert "the next release" in new.read_text()
    assert "the next release" not in old.read_text()
    assert (release.root / f"{after['js/table.js']}.gz").exists()


@pytest.mark.django_db
def test_a_page_names_the_files_by_their_contents(release) -> None:
    names = release.collect()

    page = Client().get("/accounts/login/").content.decode()

    for name in ("js/language.js", "js/menu.js", "css/base.css"):
        assert names[name] != name
        assert f'"/static/{names[name]}"' in page
    assert '"/static/js/language.js"' not in page


@pytest.mark.django_db
def test_the_favicon_is_sent_to_its_name_of_the_day(release) -> None:
    names = release.collect()

    response = Client().get("/favicon.ico")

    assert response.status_code == 302  # a browser asks again once the icon has changed
    assert response.url == f"/static/{names['favicon.ico']}"


def test_whitenoise_lets_a_browser_keep_a_named_file_for_good_and_asks_again_for_the_rest(
    release,
) -> None:
    names = release.collect()
    served = WhiteNoiseMiddleware(lambda request: None)

    def cache_control(name: str) -> str:
        return served(RequestFactory().get(f"/static/{name}"))["Cache-Control"]

    assert cache_control(names["js/table.js"]) == FOREVER
    assert "immutable" not in cache_control("js/table.js")
