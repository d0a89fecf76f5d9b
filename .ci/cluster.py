#!/usr/bin/env python3
"""Taki Online as a server runs it, on this machine: a throwaway PostgreSQL and Redis
(.ci/services), the migrations and static files, the daily jobs of deploy/systemd's timers once,
N Daphne processes and the game clock as the Procfile starts them, and nginx in front with the
site of deploy/nginx/taki.conf. nginx runs
unprivileged in the foreground, with its prefix in the cluster's folder: no system service.

    .ci/cluster.py [--processes 2] [--port 8000] [--folder DIR]   (make run-cluster)

A web process or the clock that stops is started again on the same port, as systemd's
``Restart=always`` would. Ctrl-C or SIGTERM stops all of it, the Daphne processes gently (they
close their sockets with 1012 first) and the services last; nothing is left running. The
cluster's addresses and process ids are in FOLDER/cluster.json, kept up to date.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import pwd
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SERVICES = ROOT / ".ci" / "services"
PROCFILE = ROOT / "deploy" / "Procfile"
SYSTEMD = ROOT / "deploy" / "systemd"
SITE_TEMPLATE = ROOT / "deploy" / "nginx" / "taki.conf"
STATIC_ROOT = ROOT / "staticfiles"
STATIC_PROBE = "/static/css/base.css"  # a stylesheet every page links
# The value of each @NAME@ of the site template that the cluster fills in.
TEMPLATE_FIELD = re.compile(r"@([A-Z_]+)@")
START_TIMEOUT = 30.0
STOP_TIMEOUT = 20.0  # Daphne's gentle stop takes up to 15 s (games/live/restarts.py)
PR_SET_PDEATHSIG = 1

NGINX_MAIN = """\
# Written by .ci/cluster.py for this cluster only.
worker_processes 1;
pid {prefix}/nginx.pid;
error_log stderr warn;
events {{ worker_connections 1024; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log {prefix}/access.log;
    client_body_temp_path {prefix}/temp/body;
    proxy_temp_path {prefix}/temp/proxy;
    fastcgi_temp_path {prefix}/temp/fastcgi;
    uwsgi_temp_path {prefix}/temp/uwsgi;
    scgi_temp_path {prefix}/temp/scgi;
    include {prefix}/taki.conf;
}}
"""


class ClusterError(RuntimeError):
    """A part of the cluster did not start."""


def render_site(values: dict[str, str], template: str | None = None) -> str:
    """deploy/nginx/taki.conf with each ``@NAME@`` outside its comments replaced by
    ``values[NAME]``.

    :raises KeyError: a field of the template that ``values`` does not fill.
    """
    text = SITE_TEMPLATE.read_text() if template is None else template
    lines = text.splitlines(keepends=True)
    return "".join(
        line
        if line.lstrip().startswith("#")  # the comments name the fields
        else TEMPLATE_FIELD.sub(lambda match: values[match.group(1)], line)
        for line in lines
    )


def procfile_commands(procfile: Path = PROCFILE) -> dict[str, str]:
    """The Procfile's processes: name -> command line."""
    commands = {}
    for line in procfile.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, command = line.split(":", 1)
            commands[name.strip()] = command.strip()
    return commands


def unit_setting(unit: Path, name: str) -> str | None:
    """The value of a systemd unit's first ``name=`` line, or None."""
    for line in unit.read_text().splitlines():
        if line.startswith(f"{name}="):
            return line.removeprefix(f"{name}=")
    return None


@dataclass(frozen=True)
class Job:
    """One of the site's regular jobs, as the service its timer starts runs it."""

    argv: list[str]  # ``python`` as this interpreter
    unset: tuple[str, ...]  # the variables the unit takes out of the site's environment


def job_commands(systemd: Path = SYSTEMD) -> dict[str, Job]:
    """The site's regular jobs, deploy/systemd's timers: each timer's name -> its service's job."""
    jobs = {}
    for timer in sorted(systemd.glob("*.timer")):
        service = systemd / (unit_setting(timer, "Unit") or f"{timer.stem}.service")
        words = shlex.split(unit_setting(service, "ExecStart") or "")
        unset = tuple((unit_setting(service, "UnsetEnvironment") or "").split())
        jobs[timer.stem] = Job([sys.executable, *words[1:]], unset)
    return jobs


def command_line(command: str, port: int | None = None) -> list[str]:
    """A Procfile command as this interpreter runs it: ``python`` is this Python, ``$PORT``
    the port."""
    words = shlex.split(command.replace("$PORT", str(port or "")))
    return [sys.executable if words[0] == "python" else words[0], *words[1:]]


def publish_static(source: Path, target: Path) -> None:
    """The collected static files copied to ``target``, which every user may read: nginx's
    workers run as nobody, who may have no way into the project's folder (a clone in a private
    folder), as PostgreSQL's user may not."""
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(source, target)
    for path in [target, *target.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _die_with_parent() -> None:
    """In a child, before it runs its program: SIGTERM when the launcher dies, however."""
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


@dataclass
class Process:
    """One process of the cluster, started again when it stops unless the cluster stops."""

    name: str
    argv: list[str]
    log: Path
    port: int | None = None
    user: str | None = None
    popen: subprocess.Popen[bytes] | None = field(default=None, repr=False)
    restarts: int = 0

    def start(self, env: dict[str, str]) -> None:
        with self.log.open("ab") as log:
            self.popen = subprocess.Popen(
                self.argv,
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # Ctrl-C reaches the launcher, which stops it gently
                preexec_fn=_die_with_parent,
                user=self.user,
            )

    @property
    def pid(self) -> int | None:
        return self.popen.pid if self.popen else None

    def stopped(self) -> bool:
        return self.popen is None or self.popen.poll() is not None

    def signal(self, signum: int) -> None:
        if not self.stopped():
            self.popen.send_signal(signum)

    def wait(self, timeout: float) -> None:
        if self.popen is None:
            return
        try:
            self.popen.wait(timeout)
        except subprocess.TimeoutExpired:
            self.popen.kill()
            self.popen.wait()


class Cluster:
    """The cluster in ``folder``: services, web processes, clock, nginx on ``port``."""

    def __init__(self, folder: Path | None, processes: int, port: int) -> None:
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        # PostgreSQL runs as the postgres user and nginx as nobody as root: their folders, and
        # the static files nginx serves, are in a temporary folder they may reach (the caller's
        # need not be).
        self.run_folder = Path(tempfile.mkdtemp(prefix="taki-cluster."))
        self.run_folder.chmod(0o755)
        self.services = self.run_folder / "services"
        self.static = self.run_folder / "static"  # the static files, as nginx's user reads them
        self.folder = folder or self.run_folder  # logs and cluster.json
        self.env: dict[str, str] = {}
        commands = procfile_commands()
        self.web = [
            Process(f"web-{index + 1}", [], self.folder / f"web-{index + 1}.log", port=free_port())
            for index in range(processes)
        ]
        for process in self.web:
            process.argv = command_line(commands["web"], process.port)
        self.clock = Process("clock", command_line(commands["clock"]), self.folder / "clock.log")
        self.nginx = Process("nginx", [], self.folder / "nginx.log", port=port)
        self.stopping = False

    # ------------------------------------------------------------------ starting

    def start(self) -> None:
        self.env = self._environment(self._start_services())
        for step in (
            ["migrate", "--noinput", "-v", "0"],
            ["collectstatic", "--noinput", "-v", "0"],
        ):
            subprocess.run([sys.executable, "manage.py", *step], cwd=ROOT, env=self.env, check=True)
        self.run_jobs()
        publish_static(STATIC_ROOT, self.static)
        for process in self.web:
            process.start(self.env)
        self.clock.start(self.env)
        for process in self.web:
            self._wait_until_healthy(process)
        self._start_nginx()
        self._wait_for(self.nginx, f"{self.url}/healthz")
        self._check_static()
        self.write_state()

    def run_jobs(self) -> None:
        """Each of the site's daily jobs once (deploy/systemd's timers), as its unit runs it.
        Their output is in FOLDER/jobs.log."""
        with (self.folder / "jobs.log").open("ab") as log:
            for name, job in job_commands().items():
                log.write(f"--- {name}: {shlex.join(job.argv[1:])}\n".encode())
                log.flush()
                env = {key: value for key, value in self.env.items() if key not in job.unset}
                subprocess.run(job.argv, cwd=ROOT, env=env, stdout=log, stderr=log, check=True)

    def _start_services(self) -> dict[str, str]:
        done = subprocess.run(
            [str(SERVICES), "start", str(self.services)], capture_output=True, text=True
        )
        if done.returncode:
            raise ClusterError(f"PostgreSQL and Redis did not start:\n{done.stderr}")
        return dict(line.split("=", 1) for line in done.stdout.split())

    def _environment(self, services: dict[str, str]) -> dict[str, str]:
        metrics = self.folder / "metrics"
        shutil.rmtree(metrics, ignore_errors=True)
        metrics.mkdir()
        return {
            **os.environ,
            **services,
            "DEBUG": "0",
            "PYTHONUNBUFFERED": "1",
            "CLOCK_IN_WEB": "0",  # the clock is a process of its own
            "SERVED_BY_HEADER": "1",  # each page names its process
            # Emptied once, above, as at boot (deploy/tmpfiles.d/taki.conf); read from each
            # process directly, as Prometheus would scrape them.
            "PROMETHEUS_MULTIPROC_DIR": str(metrics),
            "METRICS_ALLOWED_ADDRESSES": "127.0.0.1",
        }

    def _start_nginx(self) -> None:
        prefix = self.run_folder / "nginx"
        for temp in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (prefix / "temp" / temp).mkdir(parents=True, exist_ok=True)
        servers = "".join(
            f"    server 127.0.0.1:{process.port} max_fails=1 fail_timeout=10s;\n"
            for process in self.web
        )
        site = render_site(
            {
                "UPSTREAM_SERVERS": servers.rstrip("\n").lstrip(),
                "LISTEN": f"127.0.0.1:{self.port}",
                "SERVER_NAME": "127.0.0.1 localhost",
                "STATIC_ROOT": str(self.static),
            }
        )
        (prefix / "taki.conf").write_text(site)
        (prefix / "nginx.conf").write_text(NGINX_MAIN.format(prefix=prefix))
        self.nginx.argv = [
            shutil.which("nginx") or "/usr/sbin/nginx",
            *("-p", str(prefix), "-c", str(prefix / "nginx.conf"), "-e", "stderr"),
            *("-g", "daemon off;"),
        ]
        if os.getuid() == 0:  # nginx need not be root: its workers run as nobody anyway
            self.nginx.user = "nobody"
            nobody = pwd.getpwnam("nobody")
            for path in [prefix, *prefix.rglob("*")]:
                os.chown(path, nobody.pw_uid, nobody.pw_gid)
        self.nginx.start(self.env)

    def _check_static(self) -> None:
        """nginx serves the pages' stylesheets and scripts: without them a page has no socket,
        and nothing live would work."""
        url = f"{self.url}{STATIC_PROBE}"
        try:
            urllib.request.urlopen(url, timeout=5)
        except OSError as error:
            raise ClusterError(
                f"nginx does not serve the static files from {self.static} ({url}: {error}):\n"
                f"{self.nginx.log.read_text()[-3000:]}"
            ) from None

    def _wait_until_healthy(self, process: Process) -> None:
        self._wait_for(process, f"http://127.0.0.1:{process.port}/healthz")

    def _wait_for(self, process: Process, url: str) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            try:
                urllib.request.urlopen(url, timeout=1)
                return
            except OSError:
                if process.stopped() or time.monotonic() > deadline:
                    raise ClusterError(
                        f"{process.name} did not start:\n{process.log.read_text()[-3000:]}"
                    ) from None
                time.sleep(0.1)

    def write_state(self) -> None:
        """FOLDER/cluster.json: where everything is, for whoever drives the cluster."""
        state = {
            "url": self.url,
            "database_url": self.env.get("DATABASE_URL"),
            "redis_url": self.env.get("REDIS_URL"),
            "web": [
                {"name": p.name, "port": p.port, "pid": p.pid, "restarts": p.restarts}
                for p in self.web
            ],
            "clock": self.clock.pid,
            "nginx": self.nginx.pid,
        }
        path = self.folder / "cluster.json"
        path.with_suffix(".tmp").write_text(json.dumps(state, indent=2))
        path.with_suffix(".tmp").replace(path)

    # ------------------------------------------------------------------ running

    def watch(self) -> None:
        """Start again a web process or the clock that stopped, until the cluster stops."""
        while not self.stopping:
            if self.nginx.stopped():
                raise ClusterError(f"nginx stopped:\n{self.nginx.log.read_text()[-3000:]}")
            for process in [*self.web, self.clock]:
                if process.stopped() and not self.stopping:
                    code = process.popen.returncode if process.popen else None
                    print(f"{process.name} stopped ({code}): starting it again", flush=True)
                    process.restarts += 1
                    process.start(self.env)
                    if process.port:
                        self._wait_until_healthy(process)
                    self.write_state()
            time.sleep(0.2)

    def stop(self) -> None:
        """Stop everything: nginx, the web processes (gently) and the clock, then the services."""
        self.stopping = True
        self.nginx.signal(signal.SIGQUIT)  # finishes the requests it has, takes no new ones
        for process in [*self.web, self.clock]:
            process.signal(signal.SIGTERM)
        for process in [*self.web, self.clock, self.nginx]:
            process.wait(STOP_TIMEOUT)
        subprocess.run([str(SERVICES), "stop", str(self.services)], check=False)
        shutil.rmtree(self.run_folder, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int, default=2, help="Daphne processes (2)")
    parser.add_argument("--port", type=int, default=8000, help="nginx's port (8000)")
    parser.add_argument(
        "--folder", type=Path, help="for the logs and cluster.json, kept (default: a temporary one)"
    )
    args = parser.parse_args()
    if args.processes < 1:
        parser.error("--processes must be at least 1")
    if not shutil.which("nginx") and not Path("/usr/sbin/nginx").exists():
        print("error: nginx is not installed (make system-deps, as root)", file=sys.stderr)
        return 1
    if args.folder:
        args.folder.mkdir(parents=True, exist_ok=True)
    cluster = Cluster(args.folder, args.processes, args.port)

    def stop_on_signal(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop_on_signal)
    signal.signal(signal.SIGINT, stop_on_signal)  # even where a shell left it ignored
    try:
        cluster.start()
        ports = ", ".join(str(process.port) for process in cluster.web)
        print(
            f"Taki Online on {cluster.url}/ (nginx; Daphne on {ports}; logs in {cluster.folder})",
            flush=True,
        )
        cluster.watch()
    except KeyboardInterrupt:
        print("stopping the cluster", flush=True)
    except (ClusterError, subprocess.CalledProcessError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        cluster.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
