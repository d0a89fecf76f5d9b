"""The services' package says what each of its modules is for: none is left out."""

from __future__ import annotations

from pathlib import Path

import games.services


def test_the_package_names_every_module_it_holds() -> None:
    folder = Path(games.services.__file__).parent
    modules = {path.stem for path in folder.glob("*.py") if path.stem != "__init__"}

    named = {module for module in modules if f"games.services.{module}`" in games.services.__doc__}

    assert named == modules
