"""A test's own broker (``CELERY_BROKER_URL`` set by the test, eager off), its pools made
for it and dropped after it."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import kombu.pools
from celery import Celery


def _forget(app: Celery) -> None:
    """Close and forget the app's pools and kombu's registry of pools by broker: the next
    task sent makes them anew for the broker then set."""
    if app._pool is not None:
        app._pool.force_close_all()
    app._pool = None
    app.amqp._producer_pool = None
    kombu.pools.reset()


@contextlib.contextmanager
def own_broker(app: Celery) -> Iterator[None]:
    """Send tasks to the broker the test set, not eagerly, and leave no pool of it behind.

    The pools were closed after such a test and then put back by monkeypatch (or found again
    in kombu's registry by the next test of the same broker URL): every later test that
    sent a task failed with "Acquire on closed pool"."""
    _forget(app)
    eager, app.conf.task_always_eager = app.conf.task_always_eager, False
    try:
        yield
    finally:
        app.conf.task_always_eager = eager
        _forget(app)
