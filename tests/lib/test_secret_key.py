"""The signing key: from SECRET_KEY, or made at random on first run and kept in a file that git
ignores. Never a key anyone can read in the repository."""

from __future__ import annotations

import stat
import subprocess
import threading
from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from lib.env import secret_key

ROOT = Path(__file__).resolve().parents[2]
OLD_PUBLIC_KEY = "django-insecure-taki-online-development-key-not-for-servers"


def test_it_uses_the_environments_key_and_writes_no_file(tmp_path: Path) -> None:
    key = "k" * 60

    assert secret_key(key, tmp_path / ".secret_key") == key
    assert not (tmp_path / ".secret_key").exists()


def test_without_one_it_makes_a_random_key_readable_by_its_owner_only(tmp_path: Path) -> None:
    path = tmp_path / ".secret_key"

    key = secret_key(None, path)

    assert len(key) >= 50
    assert path.read_text().strip() == key
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert secret_key(None, path) == key  # kept across restarts
    assert secret_key(None, tmp_path / "elsewhere") != key  # and random


def test_processes_starting_at_once_agree_on_one_key(tmp_path: Path) -> None:
    path = tmp_path / ".secret_key"
    start = threading.Barrier(8)
    keys: list[str] = []

    def start_up() -> None:
        start.wait()
        keys.append(secret_key(None, path))

    threads = [threading.Thread(target=start_up) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)

    assert len(keys) == 8
    assert set(keys) == {path.read_text().strip()}
    assert list(tmp_path.iterdir()) == [path]  # no half-written files left behind


@pytest.mark.parametrize("bad", ["", "   ", OLD_PUBLIC_KEY])
def test_an_empty_or_public_key_file_is_refused(tmp_path: Path, bad: str) -> None:
    path = tmp_path / ".secret_key"
    path.write_text(bad)

    with pytest.raises(ImproperlyConfigured, match="secret"):
        secret_key(None, path)


def test_the_old_public_development_key_is_refused_from_the_environment(tmp_path: Path) -> None:
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY"):
        secret_key(OLD_PUBLIC_KEY, tmp_path / ".secret_key")


def test_the_site_signs_with_no_key_found_in_the_repository() -> None:
    tracked = subprocess.run(
        ["git", "grep", "-l", "-F", settings.SECRET_KEY], cwd=ROOT, capture_output=True
    )

    assert tracked.stdout == b""
    assert settings.SECRET_KEY != OLD_PUBLIC_KEY


def test_git_ignores_the_key_file() -> None:
    ignored = subprocess.run(["git", "check-ignore", "-q", ".secret_key"], cwd=ROOT)

    assert ignored.returncode == 0
