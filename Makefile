# Quick start: `make run` (set up and serve) and `make test` (set up and run every check).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
# The real servers the test command uses (scripts/services.sh starts them when absent).
PG_URL ?= postgres://postgres@127.0.0.1:5432/test
REDIS_URL_TEST ?= redis://127.0.0.1:6379/15
# Python keeps its bytecode caches (__pycache__, ignored by git) whatever the machine sets:
# without them every process compiles the project again (README, "Tests").
unexport PYTHONDONTWRITEBYTECODE

.PHONY: install native run serve serve-setup serve-preflight serve-cached serve-workers backup restore test test-postgres test-sqlite lint typecheck bench services clean

$(VENV)/.stamp-install: requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $@

install: $(VENV)/.stamp-install

# The VABG engine's hot modules compiled by mypyc from their own source (simulator/native.py):
# the same games, about 1.6 times as fast. Nothing to do when the build matches the source; a
# machine without a C compiler says so and plays the source.
native: install
	$(PY) scripts/build_native.py --or-source

run: native
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_teams
	$(PY) manage.py add_commissioner commissioner --if-none
	$(PY) manage.py runserver $(HOST):$(PORT)

# Production serving: gunicorn with WhiteNoise for the static files. Set DEBUG=false,
# SECRET_KEY, ALLOWED_HOSTS and DATABASE_URL (README, "Running in production").
WORKERS ?= 4
serve-setup: native
	$(PY) manage.py migrate --noinput
	$(PY) manage.py collectstatic --noinput --verbosity 0
	$(PY) manage.py load_teams

# --control-socket: gunicorn's default (~/.gunicorn/gunicorn.ctl) is one per user, taken
# by each new gunicorn from the last (make serve-cached's own included).
serve: serve-setup
	mkdir -p .run
	exec $(VENV)/bin/gunicorn config.wsgi --workers $(WORKERS) --bind $(HOST):$(PORT) --timeout 60 --graceful-timeout 30 --access-logfile - --control-socket $(CURDIR)/.run/serve-$(PORT)-gunicorn.ctl --logger-class config.gunicorn_logs.QuietProbes

# The production set under supervisord (config/supervisord.conf, scripts/serve-cached.sh):
# nginx's front cache (config/nginx.conf) on PORT, gunicorn on PORT+1 and, with a broker set,
# the Celery workers and beat; each is started again whenever it exits. `exec`: supervisord is
# make's own child, so a SIGTERM to make (which make passes to its children) stops the set.
# serve-preflight first: a port taken or a set still running is refused (and what a killed
# supervisord left running stopped) before the set-up's migrations, not after.
serve-cached: serve-preflight serve-setup
	exec env HOST=$(HOST) PORT=$(PORT) WORKERS=$(WORKERS) scripts/serve-cached.sh $(VENV)/bin/gunicorn

serve-preflight: install
	env PREFLIGHT=only HOST=$(HOST) PORT=$(PORT) WORKERS=$(WORKERS) scripts/serve-cached.sh $(VENV)/bin/gunicorn

# A worker host of the same league: the Celery workers under the same supervision, nothing
# served, no set-up (the web host migrates); beat only with BEAT=true (the web host's
# make serve-cached runs the one beat). Needs the web host's production environment
# (README, "Adding a worker host").
serve-workers: native
	exec env WEB=false BEAT=$${BEAT:-false} scripts/serve-cached.sh $(VENV)/bin/gunicorn

# Back the configured database up into BACKUP_DIR (pg_dump, or SQLite's online backup), and
# restore FILE into it: refused when it holds anything, unless FORCE=1 (README, "Backups").
BACKUP_DIR ?= backups
# A scheduled backup never runs pip (a pull that changed requirements.txt would make a
# nightly job install, and fail offline): the venv is made only when there is none.
backup:
	@test -x $(PY) || $(MAKE) --no-print-directory install
	$(PY) scripts/backup.py backup --dir $(BACKUP_DIR)

restore: install
	@test -n "$(FILE)" || { echo "make restore: name the backup, e.g. make restore FILE=backups/vabg-vabg-20261126-030000Z.dump (the names make backup printed)"; exit 2; }
	$(PY) scripts/backup.py restore $(FILE) $(if $(filter 1 yes true,$(FORCE)),--force)

services:
	scripts/services.sh

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

typecheck: install
	$(VENV)/bin/mypy simulator core cards league challenge table config

# The whole suite in three lanes side by side (scripts/test-passes.sh): the database tests on
# PostgreSQL + Redis, the fault drills on databases of their own, the engine and SQLite tests.
test: native services lint typecheck
	scripts/test-passes.sh $(PY) $(PG_URL) $(REDIS_URL_TEST)

test-postgres: native
	DATABASE_URL=$(PG_URL) CELERY_BROKER_URL=$(REDIS_URL_TEST) $(PY) -m pytest

test-sqlite: native
	env -u DATABASE_URL -u CELERY_BROKER_URL -u REDIS_URL $(PY) -m pytest \
		-m "not postgres and not redis"

bench: native
	$(PY) bench/engine.py

clean:
	test ! -x $(PY) || $(PY) scripts/build_native.py --clean
	rm -rf $(VENV) db.sqlite3 .mypy_cache .ruff_cache
