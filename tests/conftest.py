"""Shared test set-up: the real-server markers, the Hypothesis profiles, a fast hasher."""

from __future__ import annotations

import os
import shutil

import pytest
from django.conf import settings
from hypothesis import settings as hypothesis_settings

# Property tests: 100 examples each by default; HYPOTHESIS_PROFILE=thorough for 1,000.
hypothesis_settings.register_profile("default", max_examples=100, deadline=None)
hypothesis_settings.register_profile("thorough", max_examples=1000, deadline=None)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--database-tests-only",
        action="store_true",
        help="run only the tests that use the database or a live server (the second pass, "
        "on the SQLite default: the others do not read the database, and ran already)",
    )


DATABASE_FIXTURES = {"db", "transactional_db", "live_server", "django_db_reset_sequences"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """With ``--database-tests-only``, deselect the tests that never touch the database."""
    if not config.getoption("--database-tests-only"):
        return
    keep, drop = [], []
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        uses = item.get_closest_marker("django_db") is not None or bool(
            fixtures & DATABASE_FIXTURES
        )
        (keep if uses else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


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
