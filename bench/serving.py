"""Serve the product for real and time two fan requests under 100 concurrent clients.

    .venv/bin/python bench/serving.py                    # PostgreSQL database vabg_bench, 4 workers
    .venv/bin/python bench/serving.py --clients 100 --seconds 20 --workers 4

It builds its own PostgreSQL database (``--database``, default
``postgres://postgres@127.0.0.1:5432/vabg_bench``, emptied first): migrate, the 96 team
files, the all-time 96 tournament played eagerly (95 stored games). Then it serves them
twice on a free local port, DEBUG off, WhiteNoise for the static files:

- gunicorn alone, as ``make serve`` does;
- behind nginx's front cache, as ``make serve-cached`` does (``scripts/serve-cached.sh``),

and for each loads

- a box score page (``/games/ID/``, the final's: the longest play-by-play of the bracket);
- the standings API (``/api/seasons/ID/standings/``)

from ``--clients`` concurrent keep-alive connections, printing requests per second and the
p50 / p99 latency. The load comes from wrk (Debian's ``wrk``) when it is installed, for
``--seconds`` a page; otherwise from Python threads (``--client python``, ``--requests`` a
page), which take much of the CPU themselves. The goal for a box score is a p99 of at most
50 ms (issue 12). The clients share the machine with the server. Nothing is asserted: this
prints, it does not judge.
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
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


def wait_until_up(port: int, seconds: float = 30.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return True
        except OSError:
            time.sleep(0.2)
    return False


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


def wrk(port: int, path: str, *, clients: int, seconds: int) -> tuple[float, float, float]:
    """Load ``path`` with wrk (a C load generator, so the clients take little of the CPU the
    server needs) for ``seconds``; return requests per second, p50 and p99 in seconds."""
    proc = subprocess.run(
        [
            "wrk",
            "--threads",
            "2",
            "--connections",
            str(clients),
            "--duration",
            f"{seconds}s",
            "--latency",
            "--timeout",
            "60s",
            f"http://127.0.0.1:{port}{path}",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    out = proc.stdout
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if errors:
        sys.exit(f"{errors.group(1)} requests of {path} failed:\n{out}")
    stalled = re.search(r"Socket errors: .*", out)
    if stalled:
        sys.exit(f"requests of {path} did not complete ({stalled.group(0)}):\n{out}")
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]

    def cut(percent: int) -> float:
        value, unit = re.search(rf"^\s+{percent}%\s+([\d.]+)(us|ms|s)\s*$", out, re.M).groups()  # type: ignore[union-attr]
        return float(value) * {"us": 1e-6, "ms": 1e-3, "s": 1.0}[unit]

    return rate, cut(50), cut(99)


def report(label: str, rate: float, p50: float, p99: float) -> None:
    print(f"{label:<40} {rate:8.0f} req/s   p50 {p50 * 1000:7.1f} ms   p99 {p99 * 1000:7.1f} ms")


def measure(port: int, pages: list[tuple[str, str]], args: argparse.Namespace) -> None:
    for label, path in pages:
        hammer(port, path, clients=min(args.clients, 10), requests=50)  # warm up, fill caches
        if args.client == "wrk":
            report(label, *wrk(port, path, clients=args.clients, seconds=args.seconds))
        else:
            latencies, wall = hammer(port, path, clients=args.clients, requests=args.requests)
            cuts = statistics.quantiles(latencies, n=100, method="inclusive")
            report(label, len(latencies) / wall, cuts[49], cuts[98])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", default="postgres://postgres@127.0.0.1:5432/vabg_bench")
    parser.add_argument("--clients", type=int, default=100)
    parser.add_argument(
        "--client",
        choices=("wrk", "python"),
        default="wrk" if shutil.which("wrk") else "python",
        help="the load generator: wrk (default when installed) or Python threads",
    )
    parser.add_argument("--seconds", type=int, default=10, help="wrk: seconds a page")
    parser.add_argument("--requests", type=int, default=2000, help="python: requests a page")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
    parser.add_argument(
        "--skip-front-cache", action="store_true", help="measure gunicorn alone only"
    )
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
    pages = [
        (f"box score page /games/{game_id}/", f"/games/{game_id}/"),
        ("standings API", f"/api/seasons/{season_id}/standings/"),
    ]

    serve_env = env | {
        "DEBUG": "false",
        "SECRET_KEY": "bench-" + "k" * 50,
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        "API_ANON_RATE": "1000000/min",
        # Production refuses a cache of each process's own (README, CACHE_URL).
        "CACHE_URL": os.environ.get("CACHE_URL", "redis://127.0.0.1:6379/1"),
    }
    manage(serve_env, "collectstatic", "--noinput", "--verbosity", "0")
    gunicorn = str(Path(PY).parent / "gunicorn")
    print(
        f"{args.clients} concurrent clients ({args.client}), gunicorn {args.workers} workers, "
        f"PostgreSQL; {os.cpu_count()} CPUs shared by server and clients"
    )
    setups = [
        ("gunicorn alone (make serve)", [gunicorn, "config.wsgi", "--bind", "127.0.0.1:{port}"]),
    ]
    if not args.skip_front_cache:
        setups.append(
            (
                "behind nginx's front cache (make serve-cached)",
                ["scripts/serve-cached.sh", gunicorn],
            )
        )
    for title, command in setups:
        port = free_port()
        run_dir = Path(tempfile.mkdtemp(prefix="vabg-bench-"))
        run_dir.chmod(0o755)  # nginx's workers (www-data under root) write their cache here
        log = run_dir / "server.log"
        with log.open("w") as out:
            server = subprocess.Popen(
                [part.format(port=port) for part in command]
                + (["--workers", str(args.workers)] if command[0] == gunicorn else []),
                cwd=ROOT,
                env=serve_env
                | {
                    "PORT": str(port),
                    "UPSTREAM_PORT": str(free_port()),
                    "WORKERS": str(args.workers),
                    "RUN_DIR": str(run_dir / "nginx"),
                    "GUNICORN_ACCESS_LOG": "/dev/null",
                },
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        try:
            if not wait_until_up(port):
                sys.exit(f"{title}: the server did not answer /healthz:\n{log.read_text()}")
            print(title)
            measure(port, pages, args)
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)
            shutil.rmtree(run_dir, ignore_errors=True)
    print("goal: a box score's p99 at most 50 ms")


if __name__ == "__main__":
    main()
