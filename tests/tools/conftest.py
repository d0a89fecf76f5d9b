"""The tools' tests: every one is marked ``bench`` (``-m "not bench"`` leaves them out), since
they start Daphne, Redis or bots' games of their own and take seconds each."""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.bench)
