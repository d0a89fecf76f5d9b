"""The import rules of docs/architecture.md, checked by reading every module's imports.

Data flows one way: moderation above games, games above accounts; within games, engine ←
models ← services ← presenters ← live and views. A module that imports from a layer above its
own fails here, naming the module and the import, before the cycle it starts shows up anywhere
else.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SITE_PACKAGES = ("accounts", "games", "moderation", "lib", "ops", "taki_site")

# The moderation models are models like the games' (they name tables and sanctions); the rest of
# moderation (actions, admin, views) sits above them.
MODERATION_ABOVE_MODELS = (
    "moderation.actions",
    "moderation.admin",
    "moderation.views",
    "moderation.forms",
)
MODELS_MAY_NOT = (
    "games.services",
    "games.presenters",
    "games.live",
    "games.views",
)

# What a layer may not import: a module (or any module below it) named here is above it. Only
# the most specific layer a module belongs to is asked, so each of games' layers names
# moderation too.
FORBIDDEN: dict[str, tuple[str, ...]] = {
    "accounts": ("games", "moderation"),
    "games": ("moderation",),
    "games.models": (*MODELS_MAY_NOT, "moderation"),
    "games.services": (
        "games.presenters",
        "games.live",
        "games.views",
        "games.templatetags",
        "moderation",
    ),
    "games.presenters": ("games.live", "games.views", "moderation"),
    "games.live": ("games.views", "moderation"),
    "moderation.models": (*MODELS_MAY_NOT, *MODERATION_ABOVE_MODELS),
    # Moderation asks the games through their services and models, never their pages or sockets.
    "moderation": ("games.live", "games.views"),
}


def module_name(path: Path, root: Path = ROOT) -> str:
    """``accounts/forms.py`` -> ``accounts.forms``; a package's ``__init__.py`` is the package."""
    parts = path.resolve().relative_to(root.resolve()).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, root: Path = ROOT) -> set[str]:
    """Every module the file at ``path`` imports, anywhere in it (inside functions too), by its
    full name: ``from a.b import c`` gives ``a.b`` and ``a.b.c`` (c may be a module)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module_name(path, root)
    if path.name != "__init__.py":
        package = package.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the file's own package, up level - 1
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names if alias.name != "*")
    return found


def site_modules(root: Path) -> Iterator[Path]:
    for package in SITE_PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path


def layer_of(module: str) -> str | None:
    """The most specific layer in FORBIDDEN that ``module`` belongs to."""
    matches = [layer for layer in FORBIDDEN if module == layer or module.startswith(layer + ".")]
    return max(matches, key=len, default=None)


def is_within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def broken_rules(root: Path = ROOT) -> list[str]:
    broken = []
    for path in site_modules(root):
        module = module_name(path, root)
        layer = layer_of(module)
        if layer is None:
            continue
        for imported in sorted(imports_of(path, root)):
            above = [banned for banned in FORBIDDEN[layer] if is_within(imported, banned)]
            if above:
                broken.append(f"{module} imports {imported} ({layer} is below {above[0]})")
    return broken


def test_no_module_imports_from_a_layer_above_its_own() -> None:
    assert broken_rules() == []


def test_the_engine_imports_nothing_outside_the_standard_library_and_itself() -> None:
    outside = []
    for path in sorted((ROOT / "games" / "engine").rglob("*.py")):
        for imported in imports_of(path):
            top = imported.split(".")[0]
            if top == "__future__" or top in sys.stdlib_module_names:
                continue
            if not is_within(imported, "games.engine"):
                outside.append(f"{module_name(path)} imports {imported}")
    assert outside == []


def test_imports_of_reads_plain_from_relative_and_nested_imports(tmp_path: Path) -> None:
    package = tmp_path / "shop" / "orders"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("from . import lines\n")
    sample = package / "lines.py"
    sample.write_text(
        "import os.path\nfrom .prices import euro\nfrom .. import stock\n\n"
        "def later():\n    from games import models\n"
    )

    assert imports_of(sample, root=tmp_path) == {
        "os.path",
        "shop.orders.prices",
        "shop.orders.prices.euro",
        "shop",
        "shop.stock",
        "games",
        "games.models",
    }
    assert imports_of(package / "__init__.py", root=tmp_path) == {
        "shop.orders",
        "shop.orders.lines",
    }


def probe(root: Path, module: str, source: str) -> Path:
    """A module of a pretend tree under ``root``, for checking the checker."""
    path = root.joinpath(*module.split(".")).with_suffix(".py")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(source)
    return path


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from games.services import broadcast\n", "games.services.broadcast"),
        ("from ..live import consumers\n", "games.live.consumers"),
        ("from . import store\n", "games.services.store"),
        ("import games.presenters.table\n", "games.presenters.table"),
    ],
)
def test_the_checker_sees_each_form_of_import(tmp_path, source: str, expected: str) -> None:
    path = probe(tmp_path, "games.services.example", source)
    assert expected in imports_of(path, tmp_path)


def test_a_service_that_imports_a_presenter_is_refused(tmp_path) -> None:
    probe(tmp_path, "games.services.example", "from games.presenters import table\n")
    probe(tmp_path, "games.presenters.table", "from games.services import store\n")
    assert broken_rules(tmp_path) == [
        "games.services.example imports games.presenters "
        "(games.services is below games.presenters)",
        "games.services.example imports games.presenters.table "
        "(games.services is below games.presenters)",
    ]


def test_accounts_importing_games_is_refused(tmp_path) -> None:
    probe(tmp_path, "accounts.views", "from games.services import stats\n")
    assert "accounts.views imports games.services.stats (accounts is below games)" in (
        broken_rules(tmp_path)
    )


def test_games_importing_moderation_is_refused(tmp_path) -> None:
    probe(tmp_path, "games.views.tables", "from moderation import watches\n")
    probe(tmp_path, "games.models.tables", "import moderation.models\n")

    assert broken_rules(tmp_path) == [
        "games.models.tables imports moderation.models (games.models is below moderation)",
        "games.views.tables imports moderation (games is below moderation)",
        "games.views.tables imports moderation.watches (games is below moderation)",
    ]
