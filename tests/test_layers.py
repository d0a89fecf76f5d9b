"""The layers import one way (docs/architecture.md, "Import rules"): read from the source with
``ast``, so a rule holds for every module, whether or not a test imports it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


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


def python_files(folder: str) -> list[Path]:
    return sorted((ROOT / folder).rglob("*.py"))


def is_within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


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


@pytest.mark.parametrize("path", python_files("accounts"), ids=lambda path: module_name(path))
def test_accounts_imports_nothing_from_games(path: Path) -> None:
    from_games = sorted(name for name in imports_of(path) if is_within(name, "games"))

    assert from_games == [], f"{module_name(path)} imports {from_games}"
