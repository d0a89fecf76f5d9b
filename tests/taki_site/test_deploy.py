"""The configuration people deploy with (deploy/) is the one the cluster runs: the nginx site
filled in is valid nginx, and the systemd units run the Procfile's command lines."""

from __future__ import annotations

import functools
import importlib.util
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


@functools.cache
def launcher() -> ModuleType:
    """.ci/cluster.py, a script, imported as a module."""
    name = "taki_cluster_launcher"
    spec = importlib.util.spec_from_file_location(name, ROOT / ".ci" / "cluster.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


SITE_VALUES = {
    "UPSTREAM_SERVERS": "server 127.0.0.1:8001 max_fails=1 fail_timeout=10s;\n"
    "    server 127.0.0.1:8002 max_fails=1 fail_timeout=10s;",
    "LISTEN": "127.0.0.1:8080",
    "SERVER_NAME": "taki.example",
    "STATIC_ROOT": "/srv/taki/staticfiles",
}


def exec_start(unit: str) -> list[str]:
    line = next(
        line
        for line in (DEPLOY / "systemd" / unit).read_text().splitlines()
        if line.startswith("ExecStart=")
    )
    return shlex.split(line.removeprefix("ExecStart="))


def test_the_nginx_site_is_filled_in_everywhere_but_its_comments() -> None:
    site = launcher().render_site(SITE_VALUES)

    code = [line for line in site.splitlines() if not line.lstrip().startswith("#")]
    assert not any("@" in line for line in code)
    assert "    listen 127.0.0.1:8080;" in code
    assert "    server 127.0.0.1:8002 max_fails=1 fail_timeout=10s;" in code


def test_a_field_the_cluster_does_not_fill_in_is_an_error() -> None:
    with pytest.raises(KeyError, match="STATIC_ROOT"):
        launcher().render_site({key: "x" for key in SITE_VALUES if key != "STATIC_ROOT"})


def test_the_nginx_site_filled_in_is_valid_nginx(tmp_path) -> None:
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(nginx).exists():
        pytest.skip("nginx is not installed")
    (tmp_path / "taki.conf").write_text(launcher().render_site(SITE_VALUES))
    main = launcher().NGINX_MAIN.format(prefix=tmp_path)
    (tmp_path / "temp").mkdir()
    (tmp_path / "nginx.conf").write_text(main)

    checked = subprocess.run(
        [nginx, "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf"), "-e", "stderr"],
        capture_output=True,
        text=True,
    )

    assert checked.returncode == 0, checked.stderr


def test_the_web_unit_runs_the_procfile_s_web_command_on_its_instance_s_port() -> None:
    procfile = launcher().procfile_commands(DEPLOY / "Procfile")
    web = shlex.split(procfile["web"].replace("$PORT", "%i"))

    unit = exec_start("taki-web@.service")

    assert unit[0] == "/srv/taki/.venv/bin/python"
    assert unit[1:] == web[1:]


def test_the_clock_unit_runs_the_procfile_s_clock_command() -> None:
    procfile = launcher().procfile_commands(DEPLOY / "Procfile")

    assert exec_start("taki-clock.service")[1:] == shlex.split(procfile["clock"])[1:]


def test_the_procfile_s_web_processes_take_their_visitors_address_from_the_proxy() -> None:
    web = launcher().procfile_commands(DEPLOY / "Procfile")["web"]

    assert "--proxy-headers" in shlex.split(web)


def test_the_nginx_site_sets_the_visitors_address_and_never_appends_to_what_they_sent() -> None:
    site = launcher().render_site(SITE_VALUES)

    assert "proxy_set_header X-Forwarded-For $remote_addr;" in site
    assert "$proxy_add_x_forwarded_for" not in site


def test_the_nginx_site_sends_a_table_s_pages_and_sockets_to_one_process() -> None:
    site = launcher().render_site(SITE_VALUES)

    assert "hash $table_key consistent;" in site
    assert "~^/(?:ws/)?tables/(?<table_id>[0-9]+)/  $table_id;" in site


def private_static_files(folder: Path) -> Path:
    """Collected static files in a folder only its owner may enter, as in a clone made in a
    private folder: the stylesheet the cluster's check asks nginx for, readable by its owner."""
    source = folder / "clone" / "staticfiles"
    (source / "css").mkdir(parents=True)
    (source / "css" / "base.css").write_text("body { margin: 0; }\n")
    (source / "css" / "base.css").chmod(0o600)
    (folder / "clone").chmod(0o700)
    return source


def test_the_cluster_s_static_files_are_copied_where_every_user_may_read_them(tmp_path) -> None:
    source = private_static_files(tmp_path)
    target = tmp_path / "run" / "static"
    target.parent.mkdir()

    launcher().publish_static(source, target)

    copied = target / "css" / "base.css"
    assert copied.read_text() == "body { margin: 0; }\n"
    assert copied.stat().st_mode & 0o777 == 0o644
    assert {path.stat().st_mode & 0o777 for path in (target, target / "css")} == {0o755}


def answering(url: str, seconds: float = 10) -> None:
    """Wait until a server answers at ``url``, whatever it answers."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            urllib.request.urlopen(url, timeout=1)
            return
        except urllib.error.HTTPError:
            return
        except OSError:
            assert time.monotonic() < deadline, f"nothing answers at {url}"
            time.sleep(0.1)


@pytest.fixture
def nginx_cluster(tmp_path) -> Iterator[ModuleType]:
    """The launcher's Cluster of one web process, nothing of it started; its nginx stopped and
    its folder removed at the end."""
    if not Path(shutil.which("nginx") or "/usr/sbin/nginx").exists():
        pytest.skip("nginx is not installed")
    module = launcher()
    cluster = module.Cluster(tmp_path / "logs", 1, module.free_port())
    cluster.folder.mkdir()
    yield cluster
    cluster.nginx.signal(signal.SIGQUIT)
    cluster.nginx.wait(10)
    shutil.rmtree(cluster.run_folder, ignore_errors=True)


def test_the_cluster_s_nginx_serves_the_static_files_of_a_private_clone(
    tmp_path, nginx_cluster
) -> None:
    launcher().publish_static(private_static_files(tmp_path), nginx_cluster.static)
    nginx_cluster._start_nginx()
    answering(nginx_cluster.url + "/healthz")

    nginx_cluster._check_static()  # does not raise


@pytest.mark.skipif(os.getuid() != 0, reason="nginx's workers are another user as root only")
def test_the_cluster_says_so_when_nginx_cannot_read_its_static_files(
    tmp_path, nginx_cluster
) -> None:
    launcher().publish_static(private_static_files(tmp_path), nginx_cluster.static)
    nginx_cluster.static.chmod(0o700)  # nobody, nginx's workers' user, may not enter
    nginx_cluster._start_nginx()
    answering(nginx_cluster.url + "/healthz")

    with pytest.raises(launcher().ClusterError, match="nginx does not serve the static files"):
        nginx_cluster._check_static()
