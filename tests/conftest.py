"""Shared test set-up: the real-server markers, the Hypothesis profiles, a fast hasher."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from hypothesis import settings as hypothesis_settings

# Property tests: 100 examples each by default; HYPOTHESIS_PROFILE=thorough for 1,000.
hypothesis_settings.register_profile("default", max_examples=100, deadline=None)
hypothesis_settings.register_profile("thorough", max_examples=1000, deadline=None)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--database-tests",
        choices=("all", "only", "skip"),
        default="all",
        help="how `make test` splits the suite between its two passes: 'only' keeps the "
        "tests that use the database, a live server or a real server (the PostgreSQL pass); "
        "'skip' drops them except the browser and first-run tests (the SQLite pass)",
    )


DATABASE_FIXTURES = {"db", "transactional_db", "live_server", "django_db_reset_sequences"}
SQLITE_AGAIN = ("browser", "first_run")
"""Database tests the SQLite pass runs too: the embedded default a first `make run` uses."""


def uses_database(item: pytest.Item) -> bool:
    """Tell whether a test reads the database or a real server."""
    if any(item.get_closest_marker(m) for m in ("django_db", "postgres", "redis")):
        return True
    return bool(set(getattr(item, "fixturenames", ())) & DATABASE_FIXTURES)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Split the suite for ``--database-tests only`` / ``skip`` (scripts/test-passes.sh)."""
    mode = config.getoption("--database-tests")
    if mode == "all":
        return
    keep, drop = [], []
    for item in items:
        if mode == "only":
            wanted = uses_database(item)
        else:
            again = any(item.get_closest_marker(m) for m in SQLITE_AGAIN)
            wanted = again or not uses_database(item)
        (keep if wanted else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


def source_engine_outcomes(session: pytest.Session) -> dict[str, tuple[str, str]]:
    """Run every ``source_engine`` test of the session at once in a pytest of its own that
    imports the engine from its source (``VABG_PURE_PYTHON=1``); return each one's outcome
    and the run's output. Once a session."""
    cached: dict[str, tuple[str, str]] | None = getattr(session, "_source_engine_outcomes", None)
    if cached is not None:
        return cached
    ids = [item.nodeid for item in session.items if item.get_closest_marker("source_engine")]
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-q",
            "-rA",
            "--no-header",
            *ids,
        ],
        cwd=Path(__file__).resolve().parent.parent,
        env={**os.environ, "VABG_PURE_PYTHON": "1"},
        capture_output=True,
        text=True,
        check=False,
    )
    output = done.stdout + done.stderr
    found = {
        m.group(2): m.group(1)
        for m in re.finditer(r"^(PASSED|FAILED|ERROR|SKIPPED) (\S+(?:\[[^\]]*\])?)", output, re.M)
    }
    outcomes = {nodeid: (found.get(nodeid, "NOT RUN"), output) for nodeid in ids}
    session._source_engine_outcomes = outcomes  # type: ignore[attr-defined]
    return outcomes


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    """A ``source_engine`` test reads the engine's source as it runs (symbolic dice that
    branch on each comparison the engine makes): where this process runs the engine
    compiled by mypyc (``make native``), it runs in a pytest of its own on the source, and
    its outcome is this one's."""
    from simulator import native

    if pyfuncitem.get_closest_marker("source_engine") is None or not native.ENGINE.startswith(
        "compiled"
    ):
        return None
    outcome, output = source_engine_outcomes(pyfuncitem.session)[pyfuncitem.nodeid]
    if outcome != "PASSED":
        pytest.fail(f"{outcome} on the engine's source (VABG_PURE_PYTHON=1):\n{output[-6000:]}")
    return True


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Skip a test that needs an unconfigured server locally; fail it under ``CI=true``."""
    available = {
        "postgres": settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql",
        "redis": not settings.CELERY_TASK_ALWAYS_EAGER,
        "browser": bool(shutil.which("chromium") and shutil.which("chromedriver")),
    }
    for marker, ok in available.items():
        if item.get_closest_marker(marker) is None or ok:
            continue
        message = f"needs {marker}, which is not configured for this run"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{message}; CI=true forbids skipping it", pytrace=False)
        pytest.skip(message)


@pytest.fixture(autouse=True, scope="session")
def _fast_password_hasher():  # type: ignore[no-untyped-def]
    """Hash test passwords with MD5: the default hasher's 1,000,000 rounds cost a quarter of
    the suite, and no test is about hashing strength."""
    from django.test import override_settings

    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture(autouse=True, scope="session")
def _flush_by_delete():  # type: ignore[no-untyped-def]
    """Empty PostgreSQL's tables after a transactional test with DELETE, not Django's one
    TRUNCATE of every table: TRUNCATE makes each table's files anew and takes an exclusive
    lock (about 1.4 s a test, a tenth of the database lane); the few rows a test leaves go
    at once. The foreign keys Django makes are deferred to the commit, so the order of the
    deletes does not matter, and sequences are reset as TRUNCATE ... RESTART IDENTITY does
    when a test asks for it."""
    from django.db.backends.postgresql.operations import DatabaseOperations

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):  # type: ignore[no-untyped-def]
        statements = [f"DELETE FROM {self.quote_name(table)};" for table in tables]
        if reset_sequences:
            emptied = set(tables)
            sequences = self.connection.introspection.sequence_list()
            wanted = [s for s in sequences if s["table"] in emptied]
            statements += self.sequence_reset_by_name_sql(style, wanted)
        return statements

    original = DatabaseOperations.sql_flush
    DatabaseOperations.sql_flush = sql_flush  # type: ignore[method-assign]
    yield
    DatabaseOperations.sql_flush = original  # type: ignore[method-assign]


@pytest.fixture(autouse=True)
def _celery_eager_unless_redis(request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    """Run tasks in-process, as the embedded default does, except in real-worker tests."""
    from config.celery import app

    if request.node.get_closest_marker("redis") is not None:
        yield
        return
    before = (app.conf.task_always_eager, app.conf.task_eager_propagates)
    app.conf.task_always_eager = True
    app.conf.task_eager_propagates = True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = before


@pytest.fixture(autouse=True)
def _tasks_run_where_they_are_queued() -> None:
    """Keep Celery's eager mode for every test, even once a module imported config.wsgi
    (which gives a web process its own lanes, league/background.py); ``lanes`` turns
    them on for a test."""
    from league import background

    background.serve_in_process(False)


@pytest.fixture
def lanes(transactional_db):  # type: ignore[no-untyped-def]
    """Run tasks in this process's lanes, as a web process with no broker does; the test
    waits for them with ``background.wait_idle``. They are idle again after the test.

    Only on PostgreSQL (mark the test ``postgres``): SQLite's in-memory test database, a
    shared cache, refuses a second thread's writer at once instead of waiting for it as the
    file of ``make run`` does. tests/commissioner runs the lanes of ``make run``'s own server
    on its SQLite file.
    """
    from league import background

    background.serve_in_process(True)
    yield background
    try:
        assert background.wait_idle(timeout=120), "a lane was still busy after the test"
    finally:
        background.serve_in_process(False)  # stops the lanes' threads


@pytest.fixture(scope="module")
def module_world(django_db_setup, django_db_blocker):  # type: ignore[no-untyped-def]
    """Open the transaction a module's shared rows live in, for fixtures of module scope
    that make them once (a played season, imported teams) instead of once per test.

    Each test of the module runs inside it (pytest-django's savepoint, rolled back after the
    test, so a test's own changes never reach the next one); the rows are rolled back after
    the module. Tasks run eagerly in it, and what they leave for after a commit runs when
    the fixture's ``TestCase.captureOnCommitCallbacks(execute=True)`` block ends. Only for
    modules whose tests run in a transaction (``django_db`` without ``transaction=True``).
    """
    from django.db import transaction

    from config.celery import app

    before = (app.conf.task_always_eager, app.conf.task_eager_propagates)
    app.conf.task_always_eager = app.conf.task_eager_propagates = True
    with django_db_blocker.unblock(), transaction.atomic():
        try:
            yield
        finally:
            app.conf.task_always_eager, app.conf.task_eager_propagates = before
            transaction.set_rollback(True)


@pytest.fixture(autouse=True)
def _fresh_cache_over_a_module_world(request: pytest.FixtureRequest) -> None:
    """Empty the cache before each test on a module's shared rows: a page cached by one test
    from rows its savepoint changed must not answer the next test, whose rows are the same
    ones again under the same keys."""
    if "module_world" in request.fixturenames:
        from django.core.cache import cache

        cache.clear()


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh SQLite file that the first step of ``make run``'s recipe (``manage.py migrate``)
    migrated from zero, with no database URL and no broker, once a session (some 6 s of CPU:
    Django renders every migration's state). tests/commissioner's field continues ``make
    run``'s steps on a copy; the SQLite backup test fills a copy with its league. Copy it,
    never write it."""
    from tests.commissioner.conftest import command, embedded_env, run_recipe

    database = tmp_path_factory.mktemp("migrated") / "db.sqlite3"
    migrate = run_recipe("run")[0]
    assert migrate[-2:] == ["migrate", "--noinput"], "make run no longer starts by migrating"
    command(migrate, embedded_env(database))
    return database


@pytest.fixture(scope="session")
def chromium_session():  # type: ignore[no-untyped-def]
    """One headless Chromium for the whole run: starting one costs about 2 s, and 25
    browser tests each started their own. ``browser`` hands it to a test as a new one."""
    from django.test import testcases

    from tests.browsing import start_chromium

    # The live server answers HTTP/1.0, one request a connection. With HTTP/1.1 the
    # Chromium kept for the next tests keeps idle connections open, and the server thread of
    # each ends whenever Chromium drops it, closing the test database's connection after
    # its test is over (SQLite's in-memory database is shared only during a test).
    testcases.QuietWSGIRequestHandler.protocol_version = "HTTP/1.0"
    # A connection Chromium opened ahead of a request it never made (a preconnect) ends
    # when Chromium drops it, maybe after its test, maybe at the session's end: its server
    # thread then closes the shared in-memory database's connection after the test gave it
    # back, and Django refuses ("DatabaseWrapper objects created in a thread can only be
    # used in that same thread"), failing whichever test ran last. Such a thread served no
    # request of any test: there is nothing of it to close.
    from django.core.servers import basehttp
    from django.db import DatabaseError

    close = basehttp.ThreadedWSGIServer._close_connections

    def close_connections(server: Any) -> None:
        try:
            close(server)
        except DatabaseError as exc:
            if "can only be used in that same thread" not in str(exc):
                raise

    basehttp.ThreadedWSGIServer._close_connections = close_connections  # type: ignore[method-assign]
    driver = start_chromium()
    yield driver
    driver.quit()
    basehttp.ThreadedWSGIServer._close_connections = close  # type: ignore[method-assign]


@pytest.fixture
def browser(chromium_session, request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    """The shared Chromium, fresh for this test (tests/browsing.fresh): the window is the
    module's ``WINDOW`` (default 420 x 900, a phone's height) and elements are waited for
    ``BROWSER_WAIT`` seconds (default 5)."""
    from tests.browsing import fresh

    size = getattr(request.module, "WINDOW", (420, 900))
    wait = getattr(request.module, "BROWSER_WAIT", 5)
    yield fresh(chromium_session, size, wait)
    fresh(chromium_session, size, 0)  # nothing of this test's pages stays for the next
