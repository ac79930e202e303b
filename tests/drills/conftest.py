"""The drills' fixtures: worker processes stopped when a drill ends, a private Redis."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from django.conf import settings

from tests.drills.harness import TIMINGS, PrivateRedis, Workers


@pytest.fixture
def workers(tmp_path: Path) -> Iterator[Workers]:
    redis.Redis.from_url(settings.CELERY_BROKER_URL).flushdb()
    pool = Workers(tmp_path)
    yield pool
    pool.stop()


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    server = PrivateRedis(tmp_path)
    server.start()
    yield server
    server.stop()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Print how long the drills' recoveries took: measured, never asserted."""
    if TIMINGS:
        terminalreporter.write_sep("-", "drill timings (printed, not asserted)")
        for line in TIMINGS:
            terminalreporter.write_line(line)
