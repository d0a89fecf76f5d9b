"""The lock files are those of pyproject.toml as it stands: every dependency it declares is
pinned, with hashes, at a version within its range, on each Python the site runs on; and the
tests' lock pins the site's dependencies as the site's lock does. pyproject.toml changed without
`make lock` fails here."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "requirements.txt"
TEST_LOCK = ROOT / "requirements-test.txt"
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
# The Pythons the site runs on (requires-python, and the Makefile's choice of the newest).
PYTHONS = ("3.12", "3.13")


@dataclass(frozen=True)
class Pin:
    requirement: Requirement
    hashes: tuple[str, ...]

    @property
    def name(self) -> str:
        return canonicalize_name(self.requirement.name)

    @property
    def version(self) -> str:
        (specifier,) = self.requirement.specifier
        return specifier.version


def pins(path: Path) -> list[Pin]:
    """A lock file's requirements, each with its ``--hash`` options."""
    found = []
    for line in path.read_text().replace("\\\n", " ").splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        requirement, *options = line.split(" --hash=")
        found.append(Pin(Requirement(requirement), tuple(option.strip() for option in options)))
    return found


def environment(python: str) -> dict[str, str]:
    """The marker environment of this machine (Linux, CPython), running ``python``."""
    return {**default_environment(), "python_version": python, "python_full_version": python}


def pinned(path: Path, python: str) -> dict[str, str]:
    """Name -> version of the pins of ``path`` installed on ``python`` here."""
    env = environment(python)
    chosen: dict[str, str] = {}
    for pin in pins(path):
        if pin.requirement.marker is None or pin.requirement.marker.evaluate(env):
            assert pin.name not in chosen, f"{pin.name} is pinned twice for Python {python}"
            chosen[pin.name] = pin.version
    return chosen


def declared(*extras: str) -> list[Requirement]:
    lines = list(PROJECT["dependencies"])
    for extra in extras:
        lines += PROJECT["optional-dependencies"][extra]
    return [Requirement(line) for line in lines]


def out_of_lock(requirements: list[Requirement], path: Path, python: str) -> list[str]:
    """The requirements that ``path`` does not pin, or pins outside their range, on
    ``python``."""
    versions = pinned(path, python)
    wrong = []
    for requirement in requirements:
        if requirement.marker is not None and not requirement.marker.evaluate(environment(python)):
            continue
        version = versions.get(canonicalize_name(requirement.name))
        if version is None or not requirement.specifier.contains(version, prereleases=True):
            wrong.append(f"{requirement} (locked: {version})")
    return wrong


@pytest.mark.parametrize("python", PYTHONS)
def test_the_site_s_lock_pins_every_dependency_within_its_range(python: str) -> None:
    assert out_of_lock(declared(), LOCK, python) == [], "run `make lock`"


@pytest.mark.parametrize("python", PYTHONS)
def test_the_tests_lock_pins_every_dependency_and_test_dependency_within_its_range(
    python: str,
) -> None:
    assert out_of_lock(declared("test"), TEST_LOCK, python) == [], "run `make lock`"


@pytest.mark.parametrize("python", PYTHONS)
def test_the_tests_lock_pins_the_site_s_dependencies_as_the_site_s_lock_does(python: str) -> None:
    site, tests = pinned(LOCK, python), pinned(TEST_LOCK, python)

    assert {name: tests.get(name) for name in site} == site


def test_every_pin_is_one_version_with_its_hashes() -> None:
    for path in (LOCK, TEST_LOCK):
        for pin in pins(path):
            (specifier,) = pin.requirement.specifier
            assert specifier.operator == "==", f"{path.name}: {pin.requirement}"
            assert pin.hashes and all(h.startswith("sha256:") for h in pin.hashes), pin
