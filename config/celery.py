"""The Celery application: ``celery -A config worker`` starts a worker for this project."""

import os
from functools import partial
from typing import Any

from celery import Celery
from celery.worker.consumer import Consumer as CeleryConsumer

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

RECONNECT_EVERY_MAX = 2.0
"""The longest a worker waits between two tries to reach a broker it lost (seconds)."""


class Consumer(CeleryConsumer):
    """A worker's consumer that tries a lost broker again every second or two.

    Celery's consumer reconnects with kombu's default backoff, 2 s more each try up to
    30 s, so a worker could sit out half a minute after the broker came back. This one
    waits 1 s, then at most ``RECONNECT_EVERY_MAX`` (``CELERY_WORKER_CONSUMER``
    names it)."""

    def ensure_connected(self, conn: Any) -> Any:
        conn.ensure_connection = partial(
            conn.ensure_connection,
            interval_start=1,
            interval_step=1,
            interval_max=RECONNECT_EVERY_MAX,
        )
        return super().ensure_connected(conn)
