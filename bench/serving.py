"""Serve the product for real and load every fan page under 100 concurrent clients.

    .venv/bin/python bench/serving.py                    # PostgreSQL database vabg_bench, 4 workers
    .venv/bin/python bench/serving.py --clients 100 --seconds 10 --with-gunicorn-alone

It builds its own PostgreSQL database (``--database``, default
``postgres://postgres@127.0.0.1:5432/vabg_bench``, emptied first: its name must start
``vabg_bench``): migrate, the 96 team files, the all-time 96 tournament (95 games) and a
32-team round robin (``--season-teams``: 496 games), both played and stored by ``simulate
--all`` as the league plays them. Then it starts the production set as ``make serve-cached``
does (``scripts/serve-cached.sh``: nginx's front cache before gunicorn under supervisord,
DEBUG off, a Redis cache; ``--port`` and the next port) and loads each of

- the home page, the season's page, its standings (the API's), its leaders, a team's page,
  the tournament's page and a box score;
- the API's lists: seasons, teams, players, the season's games, player stats, team stats
  and leaders;
- every team's page in turn (96 pages: what the front cache saves when the load is spread)

from ``--clients`` concurrent keep-alive connections, one page after the other, and prints
requests per second, p50 and p99 latency, how many of the requests reached the application
(gunicorn's access log), whether the page meets issue 25's goal (at least 200 requests a
second with a p99 of at most 100 ms) and the CPU the server (nginx, gunicorn), the clients
(wrk) and everything else on the machine took meanwhile, in cores. ``--with-gunicorn-alone``
first measures the same pages from gunicorn alone (``make serve``). Anonymous fan pages are
kept by nginx for ``FAN_PAGE_MAX_AGE`` seconds (5) and refreshed by one request while the
others get the copy (core/caching.py), so a 10-second run includes their refreshes.

The load comes from wrk (Debian's ``wrk``, a C load generator) when it is installed, for
``--seconds`` a page; otherwise from Python threads (``--client python``, ``--requests`` a
page), which take much of the CPU the server needs and cap what can be measured. The clients
share the machine with the server, and so does any other work on it ("other"): a p99 is a
few hundred requests in ten seconds, so a stall of the machine of a tenth of a second moves
it. Nothing is asserted: this prints, it does not judge.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import resource
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


def hammer(
    port: int, paths: list[str], *, clients: int, requests: int
) -> tuple[list[float], float]:
    """Send ``requests`` GETs of ``paths`` (in turn) from ``clients`` threads; return the
    latencies and the wall time."""
    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    left = [requests]
    start = threading.Barrier(clients + 1)

    def client() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        mine: list[float] = []
        start.wait()
        while True:
            with lock:
                if left[0] == 0:
                    break
                left[0] -= 1
                path = paths[left[0] % len(paths)]
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


def wrk(port: int, paths: list[str], *, clients: int, seconds: int) -> tuple[float, float, float]:
    """Load ``paths`` (in turn, by a Lua script when there are several) with wrk, a C load
    generator, so the clients take little of the CPU the server needs, for ``seconds``;
    return requests per second, p50 and p99 in seconds."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        quoted = ", ".join(f'"{path}"' for path in paths)
        script.write(
            f"local paths = {{{quoted}}}\nlocal i = 0\n"
            "request = function()\n  i = i % #paths + 1\n"
            '  return wrk.format("GET", paths[i])\nend\n'
        )
    try:
        proc = subprocess.run(
            ["wrk", "--threads", "2", "--connections", str(clients), "--duration",
             f"{seconds}s", "--latency", "--timeout", "60s", "--script", script.name,
             f"http://127.0.0.1:{port}{paths[0]}"],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
    finally:
        os.unlink(script.name)
    out = proc.stdout
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if errors:
        sys.exit(f"{errors.group(1)} requests of {paths[0]} failed:\n{out}")
    stalled = re.search(r"Socket errors: .*", out)
    if stalled:
        sys.exit(f"requests of {paths[0]} did not complete ({stalled.group(0)}):\n{out}")
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]

    def cut(percent: int) -> float:
        value, unit = re.search(rf"^\s+{percent}%\s+([\d.]+)(us|ms|s)\s*$", out, re.M).groups()  # type: ignore[union-attr]
        return float(value) * {"us": 1e-6, "ms": 1e-3, "s": 1.0}[unit]

    return rate, cut(50), cut(99)


GOAL_RATE, GOAL_P99 = 200.0, 0.100
"""Issue 25's goal for every fan page: at least 200 requests a second, p99 at most 100 ms."""


def app_requests(log: Path) -> int:
    """How many requests gunicorn has answered so far (lines of its access log)."""
    try:
        with log.open("rb") as f:
            return sum(1 for _ in f)
    except FileNotFoundError:
        return 0


TICK = os.sysconf("SC_CLK_TCK")


def machine_busy() -> float:
    """CPU seconds the whole machine has spent busy (every core, /proc/stat)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle, iowait
    return (sum(fields[:8]) - idle) / TICK


def session_cpu(session: int) -> float:
    """CPU seconds used so far by the processes of ``session`` (the server's: supervisord,
    nginx, gunicorn and their workers; an exited worker's time is lost)."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError, IndexError):
            continue
        if int(fields[3]) == session:  # field 6 of stat, after pid and comm
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / TICK


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measure(
    port: int,
    pages: list[tuple[str, list[str]]],
    args: argparse.Namespace,
    access_log: Path,
    session: int,
) -> list[tuple[str, float, float, float]]:
    """Load each page; print and return its requests a second, p50 and p99, with how many
    requests reached the application and the CPU the server, the clients and everything
    else on the machine took meanwhile (in cores: CPU seconds per second)."""
    rows = []
    print(
        f"{'page':<44} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'to app':>7}  goal    "
        "cores: server clients other"
    )
    for label, paths in pages:
        # Warm up: fill the application's caches (and nginx's) as a first visitor would.
        hammer(port, paths, clients=min(args.clients, 10), requests=max(50, 2 * len(paths)))
        before = app_requests(access_log)
        cpu0 = (machine_busy(), session_cpu(session), children_cpu(), time.process_time())
        t0 = time.perf_counter()
        if args.client == "wrk":
            rate, p50, p99 = wrk(port, paths, clients=args.clients, seconds=args.seconds)
        else:
            latencies, wall = hammer(port, paths, clients=args.clients, requests=args.requests)
            cuts = statistics.quantiles(latencies, n=100, method="inclusive")
            rate, p50, p99 = len(latencies) / wall, cuts[49], cuts[98]
        wall = time.perf_counter() - t0
        cpu1 = (machine_busy(), session_cpu(session), children_cpu(), time.process_time())
        busy, server, clients = (cpu1[i] - cpu0[i] for i in range(3))
        clients += cpu1[3] - cpu0[3]  # wrk (a child), or this process's own threads
        other = max(0.0, busy - server - clients)
        reached = app_requests(access_log) - before
        met = "met" if rate >= GOAL_RATE and p99 <= GOAL_P99 else "MISSED"
        print(
            f"{label:<44} {rate:8.0f} {p50 * 1000:8.1f} {p99 * 1000:8.1f} {reached:7d}  "
            f"{met:<6}  {server / wall:13.2f} {clients / wall:7.2f} {other / wall:5.2f}",
            flush=True,
        )
        rows.append((label, rate, p50, p99))
    return rows


def build_league(env: dict[str, str], season_teams: int) -> dict[str, object]:
    """The league the pages show: the all-time 96 bracket and a round robin, played."""
    manage(env, "migrate", "--noinput", "--verbosity", "0")
    manage(env, "load_teams")
    manage(env, "create_tournament", "Bench League", "Bench 96", "--field", "alltime-96")
    t0 = time.perf_counter()
    manage(env, "simulate", "bench-league/bench-96", "--all", "--no-progress")
    names = manage(
        env, "shell", "--no-imports", "-c",
        "from cards.models import Team\n"
        f"for t in Team.objects.order_by('school', 'season')[:{season_teams}]: "
        "print(f'{t.school} {t.season}')",
    ).splitlines()  # fmt: skip
    manage(env, "create_season", "Bench League", "Bench season", *names,
           "--conferences", "none", "--seed", "25")  # fmt: skip
    manage(env, "simulate", "bench-league/bench-season", "--all", "--no-progress")
    league = league_ids(env)
    league["played_seconds"] = time.perf_counter() - t0
    return league


def league_ids(env: dict[str, str]) -> dict[str, object]:
    """The ids the pages name (``build_league``'s seasons, final and teams)."""
    ids = manage(
        env, "shell", "--no-imports", "-c",
        "import json\n"
        "from cards.models import Team\n"
        "from league.models import Game, Season\n"
        "cup = Season.objects.get(slug='bench-96')\n"
        "season = Season.objects.get(slug='bench-season')\n"
        "final = Game.objects.filter(season=cup, status='final')\n"
        "final = final.order_by('-round', '-pk').first()\n"
        "print(json.dumps({'cup': cup.pk, 'season': season.pk, 'final': final.pk,\n"
        "    'games': Game.objects.filter(status='final').count(),\n"
        "    'season_games': season.games.filter(status='final').count(),\n"
        "    'team': season.entries.order_by('pk').first().team_id,\n"
        "    'teams': list(Team.objects.order_by('pk').values_list('pk', flat=True))}))",
    )  # fmt: skip
    league: dict[str, object] = json.loads(ids)
    return league


def pages_of(league: dict[str, object]) -> list[tuple[str, list[str]]]:
    s, c, g, t = league["season"], league["cup"], league["final"], league["team"]
    teams = league["teams"]
    assert isinstance(teams, list)
    return [
        ("home /", ["/"]),
        (f"season page /seasons/{s}/", [f"/seasons/{s}/"]),
        ("standings (API)", [f"/api/seasons/{s}/standings/"]),
        (f"leaders /seasons/{s}/leaders/", [f"/seasons/{s}/leaders/"]),
        (f"team page /teams/{t}/", [f"/teams/{t}/"]),
        (f"tournament page /seasons/{c}/", [f"/seasons/{c}/"]),
        (f"box score /games/{g}/", [f"/games/{g}/"]),
        ("API seasons", ["/api/seasons/"]),
        ("API teams", ["/api/teams/"]),
        ("API players", ["/api/players/"]),
        ("API the season's games", [f"/api/games/?season={s}"]),
        ("API player stats", [f"/api/seasons/{s}/player-stats/"]),
        ("API team stats", [f"/api/seasons/{s}/team-stats/"]),
        ("API leaders", [f"/api/seasons/{s}/leaders/?category=pts"]),
        (f"every team's page in turn ({len(teams)})", [f"/teams/{pk}/" for pk in teams]),
    ]


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
    parser.add_argument("--season-teams", type=int, default=32, help="the round robin's teams")
    parser.add_argument("--port", type=int, default=0, help="nginx's port (gunicorn: the next)")
    parser.add_argument(
        "--with-gunicorn-alone", action="store_true", help="also measure gunicorn alone first"
    )
    parser.add_argument(
        "--reuse-database", action="store_true", help="the league an earlier run built, as it is"
    )
    parser.add_argument("--only", default="", help="measure only the pages whose label has this")
    args = parser.parse_args()

    env = {k: v for k, v in os.environ.items() if k not in {"CELERY_BROKER_URL", "REDIS_URL"}} | {
        "DATABASE_URL": args.database,
        "LOG_LEVEL": "ERROR",
    }
    if args.reuse_database:
        league = league_ids(env) | {"played_seconds": 0.0}
    else:
        database_fresh(args.database)
        league = build_league(env, args.season_teams)
    pages = [(label, paths) for label, paths in pages_of(league) if args.only in label]
    serve_env = env | {
        "DEBUG": "false",
        "SECRET_KEY": "bench-" + "k" * 50,
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        # The clients are one address: nginx answers most requests, but the rest reach the
        # application's throttle (README, "Pages and API").
        "API_ANON_RATE": "1000000/min",
        # Production refuses a cache of each process's own (README, CACHE_URL).
        "CACHE_URL": os.environ.get("CACHE_URL", "redis://127.0.0.1:6379/1"),
    }
    manage(serve_env, "collectstatic", "--noinput", "--verbosity", "0")
    gunicorn = str(Path(PY).parent / "gunicorn")
    print(
        f"{league['games']} stored games ({league['season_games']} in a "
        f"{args.season_teams}-team round robin, 95 in the all-time 96 bracket; "
        + (
            f"played in {league['played_seconds']:.0f} s); "
            if not args.reuse_database
            else "built by an earlier run); "
        )
        + f"{args.clients} concurrent clients ({args.client}, {args.seconds} s a page), gunicorn "
        f"{args.workers} workers, PostgreSQL, Redis cache; {os.cpu_count()} CPUs shared by "
        f"server and clients; load average {os.getloadavg()[0]:.1f} before the first run"
    )
    setups = []
    if args.with_gunicorn_alone:
        setups.append(
            ("gunicorn alone (make serve)",
             [gunicorn, "config.wsgi", "--bind", "127.0.0.1:{port}", "--workers",
              str(args.workers), "--access-logfile", "{access_log}"]),
        )  # fmt: skip
    setups.append(
        ("nginx's front cache before gunicorn (make serve-cached)",
         ["scripts/serve-cached.sh", gunicorn]),
    )  # fmt: skip
    results: dict[str, list[tuple[str, float, float, float]]] = {}
    for title, command in setups:
        port = args.port or free_port()
        upstream = args.port + 1 if args.port else free_port()
        run_dir = Path(tempfile.mkdtemp(prefix="vabg-bench-"))
        run_dir.chmod(0o755)  # nginx's workers (www-data under root) write their cache here
        log, access_log = run_dir / "server.log", run_dir / "access.log"
        with log.open("w") as out:
            server = subprocess.Popen(
                [part.format(port=port, access_log=access_log) for part in command],
                cwd=ROOT,
                env=serve_env
                | {
                    "PORT": str(port),
                    "UPSTREAM_PORT": str(upstream),
                    "WORKERS": str(args.workers),
                    "RUN_DIR": str(run_dir / "nginx"),
                    "GUNICORN_ACCESS_LOG": str(access_log),
                },
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        try:
            if not wait_until_up(port):
                sys.exit(f"{title}: the server did not answer /healthz:\n{log.read_text()}")
            print(title)
            results[title] = measure(port, pages, args, access_log, server.pid)
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=60)
            shutil.rmtree(run_dir, ignore_errors=True)
    final = results[setups[-1][0]]
    missed = [label for label, rate, _, p99 in final if rate < GOAL_RATE or p99 > GOAL_P99]
    print(
        f"goal (issue 25): every page at least {GOAL_RATE:.0f} req/s with p99 at most "
        f"{GOAL_P99 * 1000:.0f} ms behind the front cache: "
        + ("met by every page" if not missed else f"missed by {', '.join(missed)}")
    )


if __name__ == "__main__":
    main()
