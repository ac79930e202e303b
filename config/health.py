"""``/healthz``: is the database reachable, and the broker when one is configured."""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Callable

import redis
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse

from config.celery import app

HEALTH_TIMEOUT = 2
"""Seconds ``/healthz`` gives the broker to answer."""

logger = logging.getLogger(__name__)


def _failed(component: str, exc: Exception) -> str:
    """Return what ``/healthz`` says of a component that failed: the kind of error alone
    (it answers anyone: the error's own words name the servers' hosts and ports), logged
    in full for the operator."""
    logger.warning("healthz: the %s failed: %s: %s", component, exc.__class__.__name__, exc)
    return f"error: {exc.__class__.__name__}"


def _check_database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any failure is reported, not raised
        return _failed("database", exc)
    return "ok"


def _check_broker() -> str:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "eager (no broker configured)"
    try:
        # One try, no retry: a refused connection answers at once (a retry would first
        # wait kombu's 2-second interval), and a silent host is given 2 seconds (Redis's
        # own connect has no time limit unless one is set).
        with app.connection_for_write(
            connect_timeout=HEALTH_TIMEOUT,
            transport_options={"socket_connect_timeout": HEALTH_TIMEOUT},
        ) as conn:
            conn.ensure_connection(max_retries=0, timeout=HEALTH_TIMEOUT)
    except Exception as exc:
        return _failed("broker", exc)
    return "ok"


def _check_cache() -> str | None:
    """Ping the shared Redis cache (``CACHE_URL``); None when the cache is each process's."""
    cache = settings.CACHES["default"]
    if not str(cache["BACKEND"]).endswith("RedisCache"):
        return None
    location = cache["LOCATION"]
    url = location[0] if isinstance(location, list | tuple) else location
    try:
        client = redis.Redis.from_url(
            url, socket_connect_timeout=HEALTH_TIMEOUT, socket_timeout=HEALTH_TIMEOUT
        )
        try:
            client.ping()
        finally:
            client.close()
    except Exception as exc:
        return _failed("cache", exc)
    return "ok"


def _check_supervisor() -> str | None:
    """Tell whether the supervisord that started this process still runs (its control
    socket answers), or None when no supervisord started it. One killed alone (``kill -9``,
    the OOM killer) leaves gunicorn serving with nothing to restart it: the site answers,
    but the next crash is for good."""
    url = os.environ.get("SUPERVISOR_SERVER_URL", "")
    if not url.startswith("unix://"):
        return None
    try:
        with socket.socket(socket.AF_UNIX) as control:
            control.settimeout(HEALTH_TIMEOUT)
            control.connect(url.removeprefix("unix://"))
    except OSError as exc:
        logger.warning("healthz: supervisord does not answer at %s: %s", url, exc)
        return "lost: nothing restarts this set's programs (make serve-cached starts it again)"
    return "ok"


def healthz(request: HttpRequest) -> JsonResponse:
    """Answer 200 when the database (and broker, if any) answer, else 503 naming what failed.

    With a shared cache (``CACHE_URL``) it is checked too and named, but an unreachable cache
    answers 200 with ``"status": "degraded"``: the site goes on without it (core/cache.py),
    and a load balancer must not take every host out because the one cache they share is
    down. Started by supervisord (make serve-cached), it says whether supervisord still
    runs: lost, the host serves on (200, ``"degraded"``) with nothing to restart it."""
    checks = {
        "database": _check_database(),
        "database_vendor": connection.vendor,
        "broker": _check_broker(),
    }
    healthy = not any(str(v).startswith("error") for v in checks.values())
    cache = _check_cache()
    status = "ok" if healthy else "error"
    if cache is not None:
        checks["cache"] = cache
        if healthy and cache.startswith("error"):
            status = "degraded"
    supervisor = _check_supervisor()
    if supervisor is not None:
        checks["supervisor"] = supervisor
        if healthy and supervisor != "ok":
            status = "degraded"
    return JsonResponse({"status": status, **checks}, status=200 if healthy else 503)


class HealthzFirst:
    """Answer ``/healthz`` before every other middleware (the first in ``MIDDLEWARE``).

    A load balancer probes each host by its address (``Host: 10.0.0.5``) and often over
    plain HTTP: through Django's own checks the probe would get a 400 for a host not in
    ``ALLOWED_HOSTS`` or a 301 to https, and the balancer would take every healthy host
    out. The answer names nothing but the database's and the broker's state (a failure by
    its kind of error; its words, which name hosts and ports, go to the log).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info == "/healthz":
            return healthz(request)
        return self.get_response(request)
