"""The configuration people deploy with (deploy/) is the one the cluster runs: the nginx site
filled in is valid nginx, the systemd units run the Procfile's command lines, every Daphne
the site runs (make run too) refuses the same websocket messages, and the timers run the
site's daily jobs."""

from __future__ import annotations

import functools
import importlib.util
import io
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from types import ModuleType

import pytest
from django.core.management import call_command, get_commands
from django.utils import timezone

from games.live.frames import MAX_FRAME_CHARS

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


FOREVER = "public, max-age=31536000, immutable"
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


# Daphne's flags for the longest websocket message, and frame, it reads from a browser.
WEBSOCKET_LIMITS = ("--websocket-max-message-size", "--websocket-max-frame-size")
UTF8_BYTES_PER_CHAR = 4  # at most


def websocket_limits(argv: list[str]) -> dict[str, int]:
    """The websocket limits a Daphne command line sets, flag -> bytes."""
    return {flag: int(argv[argv.index(flag) + 1]) for flag in WEBSOCKET_LIMITS if flag in argv}


def make_run_daphne() -> list[str]:
    """The Daphne command line of `make run`, as make prints it (make -n runs nothing)."""
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    printed = subprocess.run(
        ["make", "-n", "--no-print-directory", "run"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    line = next(line for line in printed.splitlines() if "taki_site.asgi:application" in line)
    return shlex.split(line)


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


def test_every_daphne_the_site_runs_refuses_the_same_websocket_messages() -> None:
    web = launcher().procfile_commands(DEPLOY / "Procfile")["web"]
    command_lines = {
        "make run": make_run_daphne(),
        "deploy/Procfile": shlex.split(web),
        "taki-web@.service": exec_start("taki-web@.service"),
        "make run-cluster": launcher().command_line(web, 8001),
    }

    limits = {name: websocket_limits(argv) for name, argv in command_lines.items()}

    assert all(set(found) == set(WEBSOCKET_LIMITS) for found in limits.values()), limits
    assert len({tuple(sorted(found.items())) for found in limits.values()}) == 1, limits


def test_the_websocket_limits_admit_the_longest_frame_a_table_reads_and_little_more() -> None:
    web = launcher().procfile_commands(DEPLOY / "Procfile")["web"]

    limits = websocket_limits(shlex.split(web))

    assert set(limits) == set(WEBSOCKET_LIMITS)
    for size in limits.values():
        # 0 would be no limit at all; 64 KiB is refused (tests/taki_site/test_websocket_limits.py).
        assert MAX_FRAME_CHARS * UTF8_BYTES_PER_CHAR <= size < 64 * 1024


def test_the_nginx_site_lets_a_browser_keep_a_file_named_after_its_contents_for_good() -> None:
    site = launcher().render_site(SITE_VALUES)
    block = re.search(r"map \$uri \$static_cache_control \{\n(.*?)\n\}", site, re.DOTALL)
    assert block, "no map of the static files' Cache-Control"
    (pattern, kept), (default, asked) = (
        shlex.split(line.rstrip(";")) for line in block.group(1).strip().splitlines()
    )

    def cache_control(uri: str) -> str:
        return kept if re.match(pattern.removeprefix("~"), uri) else asked

    assert default == "default"
    assert cache_control("/static/js/table.0242e0fad421.js") == FOREVER
    assert cache_control("/static/css/base.7ca5a96ffbd0.css") == FOREVER
    for name in ("js/table.js", "favicon.ico", "admin/js/vendor/jquery/jquery.min.js"):
        assert cache_control(f"/static/{name}") == "no-cache"
    assert "add_header Cache-Control $static_cache_control;" in site


def unit_lines(unit: str) -> list[str]:
    return [
        line
        for line in (DEPLOY / "systemd" / unit).read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]


def test_the_metrics_folder_is_emptied_once_at_boot_and_never_as_a_process_starts() -> None:
    (entry,) = [
        line.split()
        for line in (DEPLOY / "tmpfiles.d" / "taki.conf").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    kind, path, _mode, user, group, age = entry
    environment = (ROOT / "docs" / "deployment.md").read_text()

    assert kind == "D"  # made, and emptied at boot
    assert age == "-"  # never cleaned while the processes run
    assert f"PROMETHEUS_MULTIPROC_DIR={path}" in environment
    for unit in ("taki-web@.service", "taki-clock.service"):
        lines = unit_lines(unit)
        assert f"User={user}" in lines and f"Group={group}" in lines
        assert "EnvironmentFile=/etc/taki/environment" in lines
        assert not [line for line in lines if line.startswith("ExecStartPre=")], unit


# The jobs a site must run, whatever else deploy/ adds: the sessions Django keeps until they are
# cleared, and the guest accounts nobody claimed.
DAILY_JOBS = {"clearsessions", "delete_stale_guests"}


def test_each_timer_starts_a_service_that_runs_one_of_the_site_s_commands_daily() -> None:
    jobs = launcher().job_commands(DEPLOY / "systemd")
    commands = get_commands()

    assert {job.argv[2] for job in jobs.values()} >= DAILY_JOBS
    for name, job in jobs.items():
        timer = unit_lines(f"{name}.timer")
        service = unit_lines(f"{name}.service")
        assert "OnCalendar=daily" in timer and "Persistent=true" in timer, name
        assert "WantedBy=timers.target" in timer, name
        assert "Type=oneshot" in service, name
        assert "EnvironmentFile=/etc/taki/environment" in service, name
        assert job.argv[1] == "manage.py", name
        assert job.argv[2] in commands, f"{name} runs manage.py {job.argv[2]}: no such command"
        assert exec_start(f"{name}.service")[0] == "/srv/taki/.venv/bin/python"
        # A job writes no metrics files beside the processes' (deploy/tmpfiles.d/taki.conf).
        assert job.unset == ("PROMETHEUS_MULTIPROC_DIR",), name


@pytest.mark.django_db
def test_the_jobs_as_the_units_run_them_clear_what_they_are_for(client) -> None:
    from django.contrib.auth import get_user_model
    from django.contrib.sessions.models import Session

    from accounts import guests
    from accounts.models import Guest

    stale = guests.create_guest()
    Guest.objects.filter(user=stale).update(created_at=timezone.now() - timedelta(days=30))
    fresh = guests.create_guest()
    client.force_login(fresh)
    Session.objects.update(expire_date=timezone.now() - timedelta(days=1))

    for job in launcher().job_commands(DEPLOY / "systemd").values():
        call_command(*job.argv[2:], stdout=io.StringIO())

    assert list(get_user_model().objects.values_list("pk", flat=True)) == [fresh.pk]
    assert not Session.objects.exists()


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
