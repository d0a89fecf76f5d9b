# Taki Online — `make run` serves the site, `make test` checks it. Both build .venv first.

SHELL := /bin/bash
.DEFAULT_GOAL := help

VENV := .venv
BIN := $(VENV)/bin
HOST := 127.0.0.1
PORT := 8000
# The benchmark commands are the tools' (tools/), installed by their settings only.
TOOLS := DJANGO_SETTINGS_MODULE=tools.settings
# Daphne processes behind nginx for `make run-cluster`.
PROCESSES := 2
# `make test` runs the tests without a browser in this many processes. Each has a test database
# of its own, and with REDIS_URL a Redis database and channel prefix of its own
# (tests/workers.py). `--dist load` hands each process its tests in pytest-django's order, so
# that in each process the tests that empty the whole database (transaction=True) still come
# after those that read what the migrations put there.
TEST_WORKERS := 2
PARALLEL := -n $(TEST_WORKERS) --dist load
# The browser tests in E2E_WORKERS processes, each file's tests in one (`--dist loadfile`): each
# process serves its own sites (tests/e2e/site_server.py, on free ports), and a file's
# module-scoped sites and pages stay together. A browser test spends most of its time waiting
# for a page, a socket or a server, so more processes than cores keep them busy; on two cores,
# a fourth one's Chromium and Daphne slow the others past what their pages are waited for. The
# cluster's test (nginx, PostgreSQL, Redis and two Daphnes; it collects the static files again)
# runs after them, alone.
E2E_WORKERS := 3
E2E_PARALLEL := -n $(E2E_WORKERS) --dist loadfile
# Ping an idle websocket after 20 s and close it when no answer comes within 30 s, so that a
# reader whose network died is dropped (and its seat shown offline) instead of being kept open.
DAPHNE_PINGS := --ping-interval 20 --ping-timeout 30
# The longest websocket message, and frame, Daphne reads from a browser, in bytes: a table's
# page sends at most 4,096 characters (MAX_FRAME_CHARS, games/live/frames.py), 16 KiB of UTF-8
# at most. A longer frame is refused as its header arrives, before it is read, and a longer
# message as it passes the limit: the socket is closed (1009). deploy/Procfile, and so the
# systemd unit and run-cluster, pass the same.
DAPHNE_LIMITS := --websocket-max-message-size 16384 --websocket-max-frame-size 16384

# Set PYTHON=/path/to/python to choose the interpreter yourself. Otherwise the newest Python
# >= 3.12 that really runs is used: pyenv's installed versions first (on PATH, pyenv puts shims
# that fail unless a version is selected), then python3.14 / 3.13 / 3.12 / python3 on PATH.
PYTHON ?=
define find_python
for candidate in \
	"$$(pyenv root 2>/dev/null)"/versions/3.*/bin/python \
	"$$HOME"/.pyenv/versions/3.*/bin/python \
	$$(command -v python3.14 python3.13 python3.12 python3 2>/dev/null); do \
	[ -x "$$candidate" ] || continue; \
	version=$$("$$candidate" -c 'import sys; assert sys.version_info >= (3, 12); print("%d.%d.%d" % sys.version_info[:3])' 2>/dev/null) || continue; \
	echo "$$version $$candidate"; \
done | sort -V | tail -n 1 | cut -d ' ' -f 2-
endef

# The dependencies of pyproject.toml, each pinned with its files' hashes for Python 3.12 and
# newer on any platform: LOCK for the site, TEST_LOCK for the site and its tests (the same pins,
# and the test extra's). Every install is from them, hash-checked, of wheels only but for
# SOURCE_ONLY, published as source alone and built from its hashed archive (http-ece, Web Push's
# encryption, under pywebpush); `make lock` writes them anew with uv, which is installed for
# that alone, in LOCK_VENV.
LOCK := requirements.txt
TEST_LOCK := requirements-test.txt
LOCK_VENV := .venv-lock
UV_VERSION := 0.13.9
SOURCE_ONLY := http-ece
INSTALL_LOCKED := -m pip install --quiet --require-hashes --only-binary :all: \
	--no-binary $(SOURCE_ONLY) -r
UV_COMPILE := $(LOCK_VENV)/bin/uv pip compile pyproject.toml --universal --python-version 3.12 \
	--generate-hashes --upgrade --quiet --custom-compile-command "make lock"

.PHONY: help run run-cluster test lock node-deps lint format bench bench-bots bench-site bench-match bench-arena bench-admin bench-load bench-flood bench-social system-deps messages clean bench-turns bench-api bench-arena-load

help:
	@echo "make run     serve the site on http://$(HOST):$(PORT)/ with Daphne"
	@echo "make run-cluster  nginx on http://$(HOST):$(PORT)/ before PROCESSES=$(PROCESSES) Daphne processes, PostgreSQL, Redis, the clock"
	@echo "make test    lint, run every test (browser tests included), then again on PostgreSQL+Redis"
	@echo "make bench   time the rules engine"
	@echo "make bench-bots  the bot levels against each other in the arena (ARGS='--jobs 2')"
	@echo "make bench-site  moves per second through the site's services"
	@echo "make bench-match quick match's wave with 2,000 waiting (ARGS='--people 5000 --pool party-30')"
	@echo "make bench-arena an arena's wave with 1,000 waiting (ARGS='--people 2000 --seats 4')"
	@echo "make bench-arena-load 300 players in an arena its waves seat, then as many at ordinary tables, open loop (ARGS='--arena 100')"
	@echo "make bench-admin the moderators' admin pages for a long game (ARGS='--moves 4000')"
	@echo "make bench-load  load the live site over websockets (options: ARGS='--tables 10 ...')"
	@echo "make bench-api   reference bot clients through the API beside the websocket players (ARGS='--pairs 10')"
	@echo "make bench-flood one player flooding a table's sockets, with and without (ARGS='--seconds 15')"
	@echo "make bench-social the site socket: idle memory, presence CPU, the bell across processes (ARGS='--sockets 1000')"
	@echo "make bench-turns the clock's look with 100,000 turn-based games waiting (DATABASE_URL, else SQLite)"
	@echo "make lock    pin the newest dependencies pyproject.toml allows (then make test)"
	@echo "make messages  compile the translations (locale/*/LC_MESSAGES/django.po)"
	@echo "make lint    ruff check, ruff format --check, the import rules (lint-imports), stylelint"
	@echo "make format  ruff format and ruff check --fix"
	@echo "make clean   remove .venv, collected static files and caches"

$(BIN)/python:
	@python="$(PYTHON)"; \
	if [ -z "$$python" ]; then python=$$($(find_python)); fi; \
	if [ -z "$$python" ]; then \
		echo "error: no Python >= 3.12 found (looked in pyenv's versions and on PATH)." >&2; \
		echo "Install Python 3.12 or newer, or run: make PYTHON=/path/to/python3.12 ..." >&2; \
		exit 1; \
	fi; \
	echo "Creating $(VENV) with $$python ($$("$$python" --version))"; \
	"$$python" -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# The stamps record that the pins of the current lock files are installed.
$(VENV)/.stamp-run: $(LOCK) | $(BIN)/python
	$(BIN)/python $(INSTALL_LOCKED) $(LOCK)
	touch $@

$(VENV)/.stamp-test: $(TEST_LOCK) | $(BIN)/python
	$(BIN)/python $(INSTALL_LOCKED) $(TEST_LOCK)
	touch $@

# The newest versions pyproject.toml allows, pinned with their hashes; `make test` next, on them.
# The test lock is resolved within the site's pins, so the site is tested on what it runs on.
lock: | $(BIN)/python
	@[ -x $(LOCK_VENV)/bin/uv ] && [ "$$($(LOCK_VENV)/bin/uv --version)" = "uv $(UV_VERSION)" ] || { \
		$(BIN)/python -m venv --clear $(LOCK_VENV) && \
		$(LOCK_VENV)/bin/python -m pip install --quiet "uv==$(UV_VERSION)"; }
	$(UV_COMPILE) -o $(LOCK)
	$(UV_COMPILE) --extra test -c $(LOCK) -o $(TEST_LOCK)

# Chromium for the browser tests, Redis for channel-layer tests, gettext for translations,
# PostgreSQL for the run on the production database, nginx for the cluster (run-cluster and its
# browser test). Installed only when missing, and only as root.
system-deps:
	@missing=""; \
	command -v chromium >/dev/null || missing="$$missing chromium"; \
	command -v redis-server >/dev/null || missing="$$missing redis-server"; \
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$$missing postgresql"; \
	command -v msgfmt >/dev/null || missing="$$missing gettext"; \
	command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing="$$missing nginx"; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if [ "$$(id -u)" != 0 ]; then \
		echo "warning: missing system packages:$$missing (run as root, or install them)" >&2; \
		exit 0; \
	fi; \
	echo "Installing$$missing"; \
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null

# The .mo files Django reads are built from the .po files here, not committed, so they can never
# lag behind them. Without gettext's msgfmt the site still runs, in English only.
messages: $(VENV)/.stamp-run
	@if command -v msgfmt >/dev/null; then \
		$(BIN)/python manage.py compilemessages --ignore=.venv --ignore=staticfiles --verbosity 0; \
	else \
		echo "warning: gettext is not installed: the site will be in English only" >&2; \
	fi

run: $(VENV)/.stamp-run messages
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0
	$(BIN)/daphne -b $(HOST) -p $(PORT) $(DAPHNE_PINGS) $(DAPHNE_LIMITS) taki_site.asgi:application

# The site as a server runs it, on this machine (.ci/cluster.py): a throwaway PostgreSQL and Redis,
# PROCESSES Daphne processes and the clock as deploy/Procfile starts them, and nginx on PORT with
# deploy/nginx/taki.conf. Ctrl-C stops all of it.
run-cluster: $(VENV)/.stamp-run messages
	$(BIN)/python .ci/cluster.py --processes $(PROCESSES) --port $(PORT)

# messages after system-deps, which installs gettext. The suite on SQLite and the in-memory
# layer: all but the browser tests in TEST_WORKERS processes (pytest-xdist), then the browser tests
# in E2E_WORKERS processes, then the cluster's alone (it starts its own PostgreSQL, Redis and
# nginx through .ci/cluster.py). Then again, in TEST_WORKERS processes, on a throwaway PostgreSQL and
# Redis: all but the browser, engine and benchmark tests, the benchmarks' own run on PostgreSQL
# kept. Without PostgreSQL (not root, and not installed) that last run and the cluster's test
# are skipped with a warning; CI (CI=true) fails instead.
test: $(VENV)/.stamp-test system-deps lint
	@$(MAKE) --no-print-directory messages
	$(BIN)/python -m pytest $(PARALLEL) -m "not e2e"
	$(BIN)/python -m pytest $(E2E_PARALLEL) -m e2e --ignore=tests/e2e/test_cluster.py
	$(BIN)/python -m pytest -m e2e tests/e2e/test_cluster.py
	@if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || [ "$$CI" = true ]; then \
		.ci/with-services $(BIN)/python -m pytest -q $(PARALLEL) \
			-m "not e2e and (not bench or postgresql)" --ignore=tests/games/engine; \
	else \
		echo "warning: PostgreSQL is not installed: the suite ran on SQLite only" >&2; \
	fi

# The front end's tool, not a dependency of the site: stylelint (static/css, configured in
# stylelint.config.mjs), package.json's devDependencies at the versions package-lock.json pins,
# installed by `npm ci` into the git-ignored node_modules/ whenever the lock file is newer than
# the install. Without npm, CI (CI=true) fails; elsewhere the stylesheets go unlinted, with a
# warning. (axe-core, which the browser tests run on every page, comes with the test extra's
# axe-playwright-python: tests/e2e/axe.py.)
NPM_STAMP := node_modules/.stamp-npm

node-deps:
	@if ! command -v npm >/dev/null; then \
		if [ "$$CI" = true ]; then \
			echo "error: npm is not installed: make lint needs it for stylelint (install Node.js 20.19 or newer, with npm)" >&2; \
			exit 1; \
		fi; \
		if [ -f $(NPM_STAMP) ]; then \
			echo "warning: npm is not installed: node_modules/ is used as it is" >&2; \
		else \
			echo "warning: npm is not installed: the stylesheets are not linted" >&2; \
		fi; \
		exit 0; \
	fi; \
	if [ ! -f $(NPM_STAMP) ] || [ package-lock.json -nt $(NPM_STAMP) ]; then \
		npm ci --no-audit --no-fund --loglevel=error && touch $(NPM_STAMP); \
	fi

lint: $(VENV)/.stamp-test node-deps
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-cache
	@if [ -x node_modules/.bin/stylelint ]; then \
		echo 'node_modules/.bin/stylelint "static/css/**/*.css" "accounts/static/**/*.css"'; \
		node_modules/.bin/stylelint "static/css/**/*.css" "accounts/static/**/*.css"; \
	fi

format: $(VENV)/.stamp-test
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: $(VENV)/.stamp-run
	$(BIN)/python -m tools.engine.bench

# Each bot level against the one below it, the top level against greedy (takes a while).
bench-bots: $(VENV)/.stamp-run
	$(BIN)/python -m tools.engine.ladder $(ARGS)

# Moves per second through games.services, on a throwaway SQLite database.
bench-site: $(VENV)/.stamp-run
	@folder=$$(mktemp -d); export DATABASE_URL="sqlite:///$$folder/bench.sqlite3"; \
	$(BIN)/python manage.py migrate --noinput --verbosity 0 && \
	$(TOOLS) $(BIN)/python manage.py bench_site; status=$$?; rm -rf "$$folder"; exit $$status

# Quick match's wave with thousands waiting in one pool, on a throwaway SQLite database.
bench-arena: $(VENV)/.stamp-run
	@folder=$$(mktemp -d); export DATABASE_URL="sqlite:///$$folder/bench.sqlite3"; \
	$(BIN)/python manage.py migrate --noinput --verbosity 0 && \
	$(TOOLS) $(BIN)/python manage.py bench_arena $(ARGS); status=$$?; rm -rf "$$folder"; exit $$status

bench-arena-load: $(VENV)/.stamp-test
	@folder=$$(mktemp -d); export DATABASE_URL="sqlite:///$$folder/bench.sqlite3"; \
	$(BIN)/python manage.py migrate --noinput --verbosity 0 && \
	$(TOOLS) $(BIN)/python manage.py bench_load --arena 300 --think 0.5-1.5 $(ARGS); \
	status=$$?; rm -rf "$$folder"; exit $$status

bench-match: $(VENV)/.stamp-run
	@folder=$$(mktemp -d); export DATABASE_URL="sqlite:///$$folder/bench.sqlite3"; \
	$(BIN)/python manage.py migrate --noinput --verbosity 0 && \
	$(TOOLS) $(BIN)/python manage.py bench_match $(ARGS); status=$$?; rm -rf "$$folder"; exit $$status

# The admin pages of a long game (thousands of moves), on a throwaway SQLite database.
bench-admin: $(VENV)/.stamp-run
	@folder=$$(mktemp -d); export DATABASE_URL="sqlite:///$$folder/bench.sqlite3"; \
	$(BIN)/python manage.py migrate --noinput --verbosity 0 && \
	$(TOOLS) $(BIN)/python manage.py bench_admin $(ARGS); status=$$?; rm -rf "$$folder"; exit $$status

# The live site under load: Daphne, simulated players over real websockets, and a trivial relay
# consumer for comparison. A throwaway SQLite database unless the caller set DATABASE_URL;
# REDIS_URL passes through, and without it several processes run on a redis-server of their own
# (ARGS="--layouts one,local,spread" compares one process with two). Options: ARGS=--help
bench-load: $(VENV)/.stamp-test
	@folder=""; \
	if [ -z "$$DATABASE_URL" ]; then \
		folder=$$(mktemp -d); export DATABASE_URL="sqlite:///$$folder/bench.sqlite3"; \
	fi; \
	$(BIN)/python manage.py migrate --noinput --verbosity 0 && \
	$(TOOLS) $(BIN)/python manage.py bench_load $(ARGS); status=$$?; \
	if [ -n "$$folder" ]; then rm -rf "$$folder"; fi; exit $$status

# The API's reference clients playing each other beside the websocket players, in one run, on a
# throwaway SQLite database: CPU per move through each, the game stream's latency.
bench-api: $(VENV)/.stamp-test
	@folder=$$(mktemp -d); export DATABASE_URL="sqlite:///$$folder/bench.sqlite3"; \
	$(BIN)/python manage.py migrate --noinput --verbosity 0 && \
	$(TOOLS) $(BIN)/python manage.py bench_api $(ARGS); status=$$?; rm -rf "$$folder"; exit $$status

# One player flooding a table's sockets against the rest of the site, on a throwaway SQLite
# database: the server's memory and another table's round trips, with the flood and without.
bench-flood: $(VENV)/.stamp-test
	@folder=$$(mktemp -d); export DATABASE_URL="sqlite:///$$folder/bench.sqlite3"; \
	$(BIN)/python manage.py migrate --noinput --verbosity 0 && \
	$(TOOLS) $(BIN)/python manage.py bench_flood $(ARGS); status=$$?; rm -rf "$$folder"; exit $$status

# The site socket of every signed-in page, on a throwaway SQLite database and REDIS_URL's Redis
# (else one of its own): memory per idle socket and CPU per presence change on one Daphne, then a
# follow on one process timed to the bell on another.
bench-social: $(VENV)/.stamp-test
	@folder=$$(mktemp -d); export DATABASE_URL="sqlite:///$$folder/bench.sqlite3"; \
	$(BIN)/python manage.py migrate --noinput --verbosity 0 && \
	$(TOOLS) $(BIN)/python manage.py bench_social $(ARGS); status=$$?; rm -rf "$$folder"; exit $$status

# The clock's look for due games with 100,000 turn-based games waiting, and the live tables'
# move path beside them: on a throwaway SQLite database unless the caller set DATABASE_URL
# (.ci/with-services make bench-turns: its throwaway PostgreSQL).
bench-turns: $(VENV)/.stamp-run
	@folder=""; \
	if [ -z "$$DATABASE_URL" ]; then \
		folder=$$(mktemp -d); export DATABASE_URL="sqlite:///$$folder/bench.sqlite3"; \
	fi; \
	$(BIN)/python manage.py migrate --noinput --verbosity 0 && \
	$(TOOLS) $(BIN)/python manage.py bench_turns $(ARGS); status=$$?; \
	if [ -n "$$folder" ]; then rm -rf "$$folder"; fi; exit $$status

clean:
	rm -rf $(VENV) $(LOCK_VENV) staticfiles .pytest_cache .ruff_cache .hypothesis test-artifacts node_modules
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
