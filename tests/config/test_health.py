"""``/healthz`` as README promises: 200 when the database (and the broker, when one is set)
answers, 503 naming what is down otherwise; a shared cache down is named, the host kept in
(200, "degraded"), since the site answers without it.

An unreachable server is a real one: a fresh interpreter is given an address where nothing
listens, and asks ``/healthz`` as a load balancer would.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client, override_settings

from core import cache as core_cache
from league.models import Game
from tests.factories import make_season

ROOT = Path(__file__).resolve().parents[2]
NO_BROKER = "eager (no broker configured)"


def closed_port() -> int:
    """Return a local port nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def healthz_under(env: dict[str, str]) -> tuple[int, dict[str, Any], str]:
    """Ask ``/healthz`` of the application configured by ``env`` alone (no server is shared
    with the test run); return the status, the body and what it logged."""
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
        "SUPERVISOR_SERVER_URL",
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
    log = proc.stderr
    return status, body, log


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
    status, body, log = healthz_under(database)
    assert status == 503
    assert (body["status"], body["database_vendor"], body["broker"]) == ("error", vendor, NO_BROKER)
    assert body["database"] == "error: OperationalError"
    assert "healthz: the database failed: OperationalError" in log


def test_healthz_answers_503_naming_the_broker_when_it_is_unreachable(tmp_path: Path) -> None:
    port = closed_port()
    status, body, log = healthz_under(
        {
            "SQLITE_PATH": str(tmp_path / "db.sqlite3"),
            "CELERY_BROKER_URL": f"redis://127.0.0.1:{port}/0",
        }
    )
    assert status == 503
    assert (body["status"], body["database"]) == ("error", "ok")
    # Anyone may ask /healthz: the broker's address is in the log, not in the answer.
    assert body["broker"] == "error: OperationalError"
    assert f"127.0.0.1:{port}" not in json.dumps(body)
    assert "healthz: the broker failed: OperationalError" in log and f":{port}" in log


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


def test_healthz_names_an_unreachable_cache_but_keeps_the_host_in(tmp_path: Path) -> None:
    """The site goes on without its cache (core/cache.py): a load balancer that took every
    host out because the one cache they share is down would turn a slower site into none."""
    port = closed_port()
    status, body, log = healthz_under(
        {"SQLITE_PATH": str(tmp_path / "db.sqlite3"), "CACHE_URL": f"redis://127.0.0.1:{port}/0"}
    )
    assert status == 200
    assert (body["status"], body["database"], body["broker"]) == ("degraded", "ok", NO_BROKER)
    assert body["cache"] == "error: ConnectionError"
    assert f"{port}" not in json.dumps(body)
    assert "healthz: the cache failed: ConnectionError" in log and f"{port}" in log


@pytest.fixture
def cache_unreachable() -> Iterator[None]:
    """The shared Redis cache configured as production has it, on a port nothing listens
    on; the outage it notes is forgotten after the test."""
    location = f"redis://127.0.0.1:{closed_port()}/0"
    caches = {"default": {"BACKEND": "core.cache.ResilientRedisCache", "LOCATION": location}}
    try:
        with override_settings(CACHES=caches):
            yield
    finally:
        core_cache._state["down_until"] = 0.0
        core_cache._state["warned_at"] = -core_cache.WARN_EVERY


@pytest.mark.django_db
def test_pages_and_the_api_answer_while_the_cache_s_redis_is_unreachable(
    cache_unreachable: None, caplog: pytest.LogCaptureFixture
) -> None:
    """Pages render afresh, the API answers uncounted, and the log says why, once."""
    from django.test import TestCase

    from league import services

    season = make_season(teams=2, seed=4)
    with TestCase.captureOnCommitCallbacks(execute=True):
        services.simulation_start(season=season, scope="all")
    game = season.games.get()
    client = Client()
    for page in ("/", f"/seasons/{season.pk}/", f"/games/{game.pk}/", "/api/seasons/",
                 f"/api/seasons/{season.pk}/standings/", "/teams/"):  # fmt: skip
        assert client.get(page).status_code == 200, page
    assert game.pk == Game.objects.get(status=Game.Status.FINAL).pk
    warned = [r for r in caplog.records if "cannot be reached" in r.getMessage()]
    assert len(warned) == 1, [r.getMessage() for r in warned]


@pytest.mark.redis
def test_healthz_says_the_shared_cache_answers(tmp_path: Path) -> None:
    # The test run's own Redis server (a PING writes nothing).
    status, body, log = healthz_under(
        {"SQLITE_PATH": str(tmp_path / "db.sqlite3"), "CACHE_URL": settings.CELERY_BROKER_URL}
    )
    assert (status, body["status"], body["cache"]) == (200, "ok", "ok")
    assert "healthz" not in log  # nothing failed, nothing is logged


def test_healthz_says_when_the_supervisord_that_started_it_is_gone(tmp_path: Path) -> None:
    """supervisord killed alone left gunicorn serving and /healthz saying "ok": nothing
    would restart the next program to die, and nothing said so."""
    import socket

    control = tmp_path / "supervisor.sock"
    with socket.socket(socket.AF_UNIX) as supervisord:
        supervisord.bind(str(control))
        supervisord.listen()
        env = {"SQLITE_PATH": str(tmp_path / "db.sqlite3"),
               "SUPERVISOR_SERVER_URL": f"unix://{control}"}  # fmt: skip
        status, body, log = healthz_under(env)
        assert (status, body["status"], body["supervisor"]) == (200, "ok", "ok")
    control.unlink()
    status, body, log = healthz_under(env)
    assert (status, body["status"]) == (200, "degraded")
    assert body["supervisor"].startswith("lost: nothing restarts this set's programs")
    assert f"healthz: supervisord does not answer at unix://{control}" in log
    # Not started by supervisord (make run, make serve): nothing to say.
    assert "supervisor" not in healthz_under({"SQLITE_PATH": str(tmp_path / "db.sqlite3")})[1]
