"""The Celery application: ``celery -A config worker`` starts a worker for this project."""

import logging
import os
import re
from collections.abc import Mapping
from functools import partial
from typing import Any

from celery import Celery, signals
from celery.app import trace
from celery.worker.consumer import Consumer as CeleryConsumer

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Celery's Django fix-up runs every system check as a worker starts and throws the findings
# away: about 0.9 s of a worker's 4 s start on a 2-core machine (the admin, URLs and
# templates imported for nothing), and a worker restarted after a fault waits for it. What
# the checks would say is said where it is read: by manage.py check, migrate and runserver
# (core/commands.py).
os.environ.setdefault("CELERY_SKIP_CHECKS", "true")

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


SWEEP = "league.sweep"


class QuietSweeps(logging.Filter):
    """Drop the lines of a sweep that found nothing to do (or expired unrun), keep every
    other line.

    Beat sends the sweep every ``LEAGUE_SWEEP_EVERY`` seconds (5) and, at ``-l INFO``, beat
    and the worker log it three times: sent, received, succeeded. That is 36 lines a minute,
    50,000 a day, drowning the lines an operator reads (a game stored, a worker lost). A
    sweep that handed games out again or failed some keeps its line, as any other task."""

    IDLE = re.compile(r"\{('\w+': 0(, )?)*\}")

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, Mapping):
            if args.get("name") != SWEEP:
                return True
            if record.msg == trace.LOG_RECEIVED:
                return False
            if record.msg == trace.LOG_SUCCESS:
                return not self.IDLE.fullmatch(str(args.get("return_value", "")))
            return True
        # A sweep sent while every worker was busy expires unrun (a later one does its job):
        # "Discarding revoked task: league.sweep[...]", one a sweep, is as idle as the rest.
        idle = str(record.msg).startswith(("Scheduler: Sending due task", "Discarding revoked"))
        return not (idle and isinstance(args, tuple) and SWEEP in args)


@signals.after_setup_logger.connect
def _quiet_sweeps(logger: logging.Logger, **kwargs: Any) -> None:
    """Put :class:`QuietSweeps` on the handlers a worker or beat logs through."""
    for handler in logger.handlers:
        if not any(isinstance(f, QuietSweeps) for f in handler.filters):
            handler.addFilter(QuietSweeps())
