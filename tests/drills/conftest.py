"""The drills' fixtures: worker processes stopped when a drill ends, a private Redis."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import redis
from django.conf import settings

from tests.drills.harness import TIMINGS, Host, PrivateRedis, RowLock, Workers, database_url


@pytest.fixture(autouse=True)
def _row_locks_released() -> Iterator[None]:
    """Release the row locks a drill took and left held (it failed before releasing them)."""
    yield
    while RowLock.taken:
        RowLock.taken.pop().release()


@pytest.fixture
def workers(tmp_path: Path) -> Iterator[Workers]:
    redis.Redis.from_url(settings.CELERY_BROKER_URL).flushdb()
    pool = Workers(tmp_path)
    yield pool
    pool.stop()


@pytest.fixture
def hosts(workers: Workers) -> Iterator[tuple[Host, Host]]:
    """Two worker hosts of the drill's own (network namespaces), removed when it ends, after
    the workers on them have stopped."""
    base = os.getpid() % 120 * 2
    made = (Host("a", base), Host("b", base + 1))
    ports = [
        urlsplit(database_url()).port or 5432,
        urlsplit(settings.CELERY_BROKER_URL).port or 6379,
    ]
    try:
        for host in made:
            host.make(ports)
        yield made
    finally:
        workers.stop()
        for host in made:
            host.remove()


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
