"""Production shares one cache between its processes: the API's anonymous rate README
documents (120 a minute) holds across gunicorn's 4 workers, and a production start with a
cache of each process's own is refused.

The rate is asserted as README states it (120/min, the default) on purpose: a test that read
it back from the settings would pass whatever it became.
"""

from __future__ import annotations

import http.client
import os
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.drills.harness import WAIT, PrivateRedis, database_url, report

ROOT = Path(__file__).resolve().parents[2]
GUNICORN = str(Path(sys.executable).with_name("gunicorn"))
DOCUMENTED_RATE = 120  # README: API_ANON_RATE, default 120/min


def production_env(**extra: str) -> dict[str, str]:
    base = {
        k: v
        for k, v in os.environ.items()
        if k not in {"CACHE_URL", "API_ANON_RATE", "NUM_PROXIES", "DEBUG"}
    }
    return base | {
        "DEBUG": "false",
        "SECRET_KEY": "throttle-" + "k" * 50,
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        **extra,
    }


@pytest.mark.parametrize("cache_url", [None, "locmemcache://", "dummycache://"])
def test_production_refuses_to_start_without_a_cache_its_processes_share(
    cache_url: str | None,
) -> None:
    env = production_env() | ({"CACHE_URL": cache_url} if cache_url else {})
    proc = subprocess.run(
        [sys.executable, "manage.py", "check"], env=env, cwd=ROOT,
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert proc.returncode != 0
    assert "CACHE_URL must name a cache all processes share when DEBUG is off" in proc.stderr


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def api_status(port: int) -> tuple[int, str]:
    """One anonymous API request on a connection of its own (any worker may take it): the
    status and the Retry-After header."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT)
    try:
        conn.request("GET", "/api/leagues/")
        response = conn.getresponse()
        response.read()
        return response.status, response.getheader("Retry-After", "")
    finally:
        conn.close()


@pytest.mark.postgres
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_documented_anonymous_rate_holds_across_four_gunicorn_workers(
    tmp_path: Path,
) -> None:
    cache = PrivateRedis(tmp_path)
    cache.start()
    port = free_port()
    log_path = tmp_path / "gunicorn.log"
    env = production_env(DATABASE_URL=database_url(), CACHE_URL=cache.url)
    env.pop("CELERY_BROKER_URL", None)
    with log_path.open("wb") as log:
        server = subprocess.Popen(
            [GUNICORN, "config.wsgi", "--workers", "4", "--bind", f"127.0.0.1:{port}",
             "--access-logfile", "-", "--access-logformat", "answered-by %(p)s %(s)s"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        # Wait until every worker has its application loaded (each answers its first request
        # only then), so the burst below is spread over all four.
        deadline = time.monotonic() + WAIT
        while log_path.read_text().count("Booting worker") < 4:
            assert server.poll() is None, log_path.read_text()
            assert time.monotonic() < deadline, "gunicorn's 4 workers did not boot"
            time.sleep(0.05)
        started = time.monotonic()
        with ThreadPoolExecutor(max_workers=8) as clients:
            answers = list(clients.map(lambda _: api_status(port), range(DOCUMENTED_RATE + 60)))
        report("180 anonymous API requests through 4 gunicorn workers", time.monotonic() - started)
    finally:
        server.terminate()
        server.wait(timeout=30)
        cache.stop()
    answered_by = Counter(
        line.split()[1] for line in log_path.read_text().splitlines() if "answered-by" in line
    )
    print(f"requests answered per gunicorn worker: {sorted(answered_by.values())}")
    assert len(answered_by) >= 2, f"one worker answered everything: {answered_by}"
    assert Counter(status for status, _ in answers) == {200: DOCUMENTED_RATE, 429: 60}
    # A refused client is told when to come back: within the minute.
    assert all(0 < int(after) <= 60 for status, after in answers if status == 429)
