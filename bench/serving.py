"""Serve the product for real and time two fan requests under 100 concurrent clients.

    .venv/bin/python bench/serving.py                    # PostgreSQL database vabg_bench, 4 workers
    .venv/bin/python bench/serving.py --clients 100 --requests 3000 --workers 4

It builds its own PostgreSQL database (``--database``, default
``postgres://postgres@127.0.0.1:5432/vabg_bench``, emptied first): migrate, the 96 team
files, the all-time 96 tournament played eagerly (95 stored games). Then it starts the
production server as ``make serve`` does (gunicorn, DEBUG off, WhiteNoise) on a free
local port, and for each of

- a box score page (``/games/ID/``, the final's: the longest play-by-play of the bracket);
- the standings API (``/api/seasons/ID/standings/``);

sends ``--requests`` requests from ``--clients`` threads, each on its own keep-alive
connection, and prints requests per second and the p50 / p99 latency. The goal for a box
score is a p99 of at most 50 ms (issue 12). The clients share the machine with the
server, so on a 2-core machine they take part of its CPU. Nothing is asserted: this
prints, it does not judge.
"""

from __future__ import annotations

import argparse
import http.client
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable


def manage(env: dict[str, str], *args: str) -> str:
    """Run ``manage.py`` with ``env`` and return what it printed; stop on failure."""
    proc = subprocess.run(
        [PY, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )
    if proc.returncode:
        sys.exit(f"manage.py {' '.join(args)} failed:\n{proc.stderr.strip()}")
    return proc.stdout


def database_fresh(url: str) -> None:
    """Drop and create the benchmark's own database (never another one)."""
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    if not name.startswith("vabg_bench"):
        sys.exit(f"refusing to empty {name!r}: the benchmark's database name starts vabg_bench")
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_until_up(port: int, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.2)
    sys.exit("the server did not answer /healthz in time")


def hammer(port: int, path: str, *, clients: int, requests: int) -> tuple[list[float], float]:
    """Send ``requests`` GETs of ``path`` from ``clients`` threads; return latencies, wall."""
    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    left = [requests]
    start = threading.Barrier(clients + 1)

    def client() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        mine: list[float] = []
        start.wait()
        while True:
            with lock:
                if left[0] == 0:
                    break
                left[0] -= 1
            t0 = time.perf_counter()
            conn.request("GET", path)
            response = conn.getresponse()
            response.read()
            mine.append(time.perf_counter() - t0)
            if response.status != 200:
                with lock:
                    errors.append(f"{response.status} for {path}")
        conn.close()
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for t in threads:
        t.start()
    start.wait()
    t0 = time.perf_counter()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    if errors:
        sys.exit(f"{len(errors)} requests failed, first: {errors[0]}")
    return latencies, wall


def report(label: str, latencies: list[float], wall: float) -> None:
    cuts = statistics.quantiles(latencies, n=100, method="inclusive")
    print(
        f"{label:<34} {len(latencies) / wall:8.0f} req/s   "
        f"p50 {cuts[49] * 1000:6.1f} ms   p99 {cuts[98] * 1000:6.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", default="postgres://postgres@127.0.0.1:5432/vabg_bench")
    parser.add_argument("--clients", type=int, default=100)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
    args = parser.parse_args()

    database_fresh(args.database)
    env = {k: v for k, v in os.environ.items() if k not in {"CELERY_BROKER_URL", "REDIS_URL"}} | {
        "DATABASE_URL": args.database,
        "LOG_LEVEL": "ERROR",
    }
    manage(env, "migrate", "--noinput", "--verbosity", "0")
    manage(env, "load_teams")
    manage(env, "create_tournament", "Bench League", "Bench 96", "--field", "alltime-96")
    manage(env, "simulate", "bench-league/bench-96", "--all", "--no-progress")
    ids = manage(
        env,
        "shell",
        "--no-imports",
        "-c",
        "from league.models import Game, Season; s = Season.objects.get(slug='bench-96'); "
        "g = Game.objects.filter(season=s, status='final').order_by('-round', '-pk').first(); "
        "print(s.pk, g.pk)",
    ).split()
    season_id, game_id = int(ids[0]), int(ids[1])

    port = free_port()
    serve_env = env | {
        "DEBUG": "false",
        "SECRET_KEY": "bench-" + "k" * 50,
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        "API_ANON_RATE": "1000000/min",
    }
    manage(serve_env, "collectstatic", "--noinput", "--verbosity", "0")
    server = subprocess.Popen(
        [
            str(Path(PY).parent / "gunicorn"),
            "config.wsgi",
            "--workers",
            str(args.workers),
            "--bind",
            f"127.0.0.1:{port}",
        ],
        cwd=ROOT,
        env=serve_env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_until_up(port)
        print(
            f"gunicorn, {args.workers} workers, PostgreSQL; {args.clients} concurrent clients, "
            f"{args.requests} requests a page ({os.cpu_count()} CPUs shared with the clients)"
        )
        for label, path in (
            (f"box score page /games/{game_id}/", f"/games/{game_id}/"),
            ("standings API", f"/api/seasons/{season_id}/standings/"),
        ):
            hammer(port, path, clients=min(args.clients, 10), requests=50)  # warm up
            latencies, wall = hammer(port, path, clients=args.clients, requests=args.requests)
            report(label, latencies, wall)
        print("goal: a box score's p99 at most 50 ms")
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
