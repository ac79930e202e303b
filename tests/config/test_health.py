"""``/healthz`` as README promises: 200 when the database (and the broker, when one is set)
answers, 503 naming what is down otherwise.

An unreachable server is a real one: a fresh interpreter is given an address where nothing
listens, and asks ``/healthz`` as a load balancer would.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]
NO_BROKER = "eager (no broker configured)"


def closed_port() -> int:
    """Return a local port nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def healthz_under(env: dict[str, str]) -> tuple[int, dict[str, Any]]:
    """Ask ``/healthz`` of the application configured by ``env`` alone (no server is shared
    with the test run); return the status and the body."""
    code = (
        "import json, django; django.setup(); from django.test import Client;"
        "r = Client().get('/healthz'); print(json.dumps([r.status_code, r.json()]))"
    )
    servers = {
        "DATABASE_URL",
        "CELERY_BROKER_URL",
        "REDIS_URL",
        "SQLITE_PATH",
        "DEBUG",
        "CACHE_URL",
    }
    clean = {k: v for k, v in os.environ.items() if k not in servers}
    proc = subprocess.run(
        [sys.executable, "-c", code],
        env={**clean, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    status, body = json.loads(proc.stdout.splitlines()[-1])
    return status, body


@pytest.mark.parametrize(
    ("vendor", "database"),
    [
        ("sqlite", {"SQLITE_PATH": "/nonexistent/healthz/db.sqlite3"}),
        ("postgresql", {"DATABASE_URL": f"postgres://postgres@127.0.0.1:{closed_port()}/vabg"}),
    ],
    ids=["sqlite", "postgresql"],
)
def test_healthz_answers_503_naming_the_database_when_it_is_unreachable(
    vendor: str, database: dict[str, str]
) -> None:
    status, body = healthz_under(database)
    assert status == 503
    assert (body["status"], body["database_vendor"], body["broker"]) == ("error", vendor, NO_BROKER)
    assert body["database"].startswith("error: OperationalError: ")


def test_healthz_answers_503_naming_the_broker_when_it_is_unreachable(tmp_path: Path) -> None:
    port = closed_port()
    status, body = healthz_under(
        {
            "SQLITE_PATH": str(tmp_path / "db.sqlite3"),
            "CELERY_BROKER_URL": f"redis://127.0.0.1:{port}/0",
        }
    )
    assert status == 503
    assert (body["status"], body["database"]) == ("error", "ok")
    assert body["broker"].startswith("error: OperationalError: ")
    assert f"127.0.0.1:{port}" in body["broker"]


@pytest.mark.redis
@pytest.mark.django_db
def test_healthz_answers_200_when_the_database_and_the_broker_answer(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    shared_cache = settings.CACHES["default"]["BACKEND"].endswith("RedisCache")
    assert response.json() == {
        "status": "ok",
        "database": "ok",
        "database_vendor": connection.vendor,
        "broker": "ok",
    } | ({"cache": "ok"} if shared_cache else {})


def test_healthz_answers_503_naming_the_cache_when_it_is_unreachable(tmp_path: Path) -> None:
    """The API's throttle counts in the shared cache: with it gone every API request is a
    500 while the pages answer, and a health check that said ok would keep the host in."""
    port = closed_port()
    status, body = healthz_under(
        {"SQLITE_PATH": str(tmp_path / "db.sqlite3"), "CACHE_URL": f"redis://127.0.0.1:{port}/0"}
    )
    assert status == 503
    assert (body["status"], body["database"], body["broker"]) == ("error", "ok", NO_BROKER)
    assert body["cache"].startswith("error: ConnectionError: ")
    assert f"127.0.0.1:{port}" in body["cache"]


@pytest.mark.redis
def test_healthz_says_the_shared_cache_answers(tmp_path: Path) -> None:
    # The test run's own Redis server (a PING writes nothing).
    status, body = healthz_under(
        {"SQLITE_PATH": str(tmp_path / "db.sqlite3"), "CACHE_URL": settings.CELERY_BROKER_URL}
    )
    assert (status, body["status"], body["cache"]) == (200, "ok", "ok")
