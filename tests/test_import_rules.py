"""The import rules of docs/architecture.md: import-linter's contracts (pyproject.toml, run by
``make lint``) hold over every package, and a wrong import planted in a copy of the tree breaks
them. What import-linter cannot say, that the rules engine imports the standard library alone,
is read from the engine's own imports here."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
PACKAGES = CONFIG["root_packages"]


def lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(Path(sys.executable).with_name("lint-imports")), "--no-cache"],
        cwd=root,
        env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture(scope="module")
def copy_of_the_tree(tmp_path_factory) -> Path:
    """The site's packages and its pyproject.toml, copied: a tree to plant imports in."""
    root = tmp_path_factory.mktemp("tree")
    for package in PACKAGES:
        shutil.copytree(ROOT / package, root / package, ignore=shutil.ignore_patterns("*.pyc"))
    shutil.copy(ROOT / "pyproject.toml", root / "pyproject.toml")
    return root


def test_every_package_of_the_site_is_under_a_contract() -> None:
    packages = {path.parent.name for path in ROOT.glob("*/__init__.py")}

    assert packages - {"tests"} == set(PACKAGES)


def test_the_tree_keeps_every_contract() -> None:
    linted = lint_imports(ROOT)

    assert linted.returncode == 0, linted.stdout + linted.stderr


@pytest.mark.parametrize(
    ("module", "planted", "broken"),
    [
        ("games/services/planted.py", "from games.live import consumers\n", "games.services"),
        ("games/models/planted.py", "from games.services import moves\n", "games.models"),
        ("accounts/planted.py", "from games.models import Table\n", "accounts"),
        ("lib/planted.py", "import accounts.models\n", "lib"),
        ("games/planted.py", "import moderation.actions\n", "games"),
        ("taki_site/planted.py", "import tools.settings\n", "taki_site"),
        (
            "games/services/planted.py",
            "from channels.layers import get_channel_layer\n",
            "channels",
        ),
        ("games/engine/planted.py", "import django.db\n", "django"),
        ("moderation/planted.py", "from games.live import consumers\n", "moderation"),
        ("moderation/models.py", "from moderation import actions\n", "moderation.models"),
        ("accounts/models.py", "from accounts import views\n", "accounts.models"),
        ("social/planted.py", "from games.models import Table\n", "social"),
        ("accounts/planted.py", "import social.relations\n", "accounts"),
        ("social/models.py", "from social import relations\n", "social.models"),
        ("arenas/scoring.py", "from arenas import services\n", "arenas.scoring"),
        ("games/planted.py", "import arenas.models\n", "games"),
        ("outbox/models.py", "from outbox import sending\n", "outbox.models"),
        ("social/planted.py", "import outbox.models\n", "social"),
        ("api/models.py", "from api import tokens\n", "api.models"),
        ("games/planted.py", "import api.models\n", "games"),
        ("clients/planted.py", "from games.services import moves\n", "clients"),
        ("clients/planted.py", "import django.conf\n", "django"),
    ],
)
def test_a_wrong_import_planted_in_the_tree_breaks_a_contract(
    copy_of_the_tree: Path, module: str, planted: str, broken: str
) -> None:
    path = copy_of_the_tree / module
    before = path.read_text() if path.exists() else None
    path.write_text((before or "") + planted)
    try:
        linted = lint_imports(copy_of_the_tree)
    finally:
        if before is None:
            path.unlink()
        else:
            path.write_text(before)

    assert linted.returncode == 1
    assert f"{broken} is not allowed to import" in linted.stdout or (
        "planted" in linted.stdout and broken in linted.stdout
    )


def imported_by(path: Path) -> list[str]:
    """The modules the file at ``path`` imports by name (relative imports are its package's)."""
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names.append(node.module or "")
    return names


def is_allowed_in_the_engine(name: str) -> bool:
    top = name.split(".")[0]
    if top == "games":
        return name.startswith("games.engine")
    return top == "__future__" or top in sys.stdlib_module_names


def test_the_engine_imports_nothing_outside_the_standard_library_and_itself() -> None:
    outside = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in sorted((ROOT / "games" / "engine").rglob("*.py"))
        for name in imported_by(path)
        if not is_allowed_in_the_engine(name)
    ]

    assert outside == []
