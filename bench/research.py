"""Time a research run: the all-time 96 bracket played many times over, nothing stored.

    .venv/bin/python bench/research.py --times 200            # here, no broker (one core)
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench \\
    CELERY_BROKER_URL=redis://127.0.0.1:6379/13 \\
        .venv/bin/python bench/research.py --workers 2 --times 10527

It builds its own database (a scratch SQLite file, or the PostgreSQL database named in
DATABASE_URL, which it empties first), loads the 96 field teams and creates the all-time
96 tournament (coached, neutral courts, as `make run` does), then runs
``manage.py research --season ... --times T`` (95 games a bracket: ``--times 10527`` is
1,000,065 games) on ``--workers N`` real ``celery -A config worker`` processes, or in
this process without them. It prints the wall time from the command's start to the
written files, games a second, what a million games would take at that rate, and the
workers' own CPU time (steady on a machine busy with other work; each
worker solves the exact coach of every pair it meets once, so short runs are slower a
game than long ones). Nothing is asserted: this prints, it does not judge.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.league import start_workers  # noqa: E402
from bench.scratch import scratch_database  # noqa: E402


def setup(workers: int) -> None:
    postgres = scratch_database("vabg-bench-research.sqlite3")
    if not workers:
        os.environ.pop("CELERY_BROKER_URL", None)
        os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("LOG_LEVEL", "ERROR")
    import django

    django.setup()
    from django.core.management import call_command

    if postgres:
        call_command("flush", "--noinput", verbosity=0)
    call_command("migrate", "--noinput", verbosity=0)
    call_command("load_teams", verbosity=0)
    call_command("create_tournament", "Bench", "All-time", "--field", "alltime-96", "--seed", "1")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workers", type=int, default=0, help="play on N real workers")
    parser.add_argument("--times", type=int, default=200, help="brackets (95 games each)")
    parser.add_argument("--chunk", type=int, default=2000, help="games a chunk")
    args = parser.parse_args()
    if args.workers and not (
        os.environ.get("DATABASE_URL") and os.environ.get("CELERY_BROKER_URL")
    ):
        raise SystemExit("--workers needs DATABASE_URL and CELERY_BROKER_URL")
    setup(args.workers)
    procs = start_workers(args.workers, "research") if args.workers else []
    out = Path(tempfile.mkdtemp(prefix="vabg-research-"))
    try:
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "manage.py", "research", "--season", "bench/all-time", "--times",
             str(args.times), "--seed", "1", "--chunk", str(args.chunk), "--out", str(out)],
            cwd=ROOT, env=os.environ.copy(), check=True,
        )  # fmt: skip
        wall = time.perf_counter() - start
    finally:
        for p in procs:
            os.killpg(p.pid, signal.SIGTERM)
        # A worker's rusage, read when it is reaped, holds its pool processes' CPU too.
        cpu = sum(_reaped_cpu(p) for p in procs)
    games = args.times * 95
    where = f"{args.workers} workers" if args.workers else "this process (no broker)"
    print(f"research run: {games:,} games of the all-time 96 bracket on {where}")
    print(f"  wall {wall:.1f} s, {games / wall:,.0f} games a second")
    print(f"  a million games at this rate: {1e6 / (games / wall) / 60:.1f} minutes (goal 15)")
    if procs:
        print(
            f"  workers' CPU {cpu:.1f} s, {1000 * cpu / games:.2f} ms a game (the wall time on "
            f"{args.workers} idle cores: {cpu / args.workers:.0f} s)"
        )


def _reaped_cpu(proc: subprocess.Popen[bytes]) -> float:
    _, _, usage = os.wait4(proc.pid, 0)
    proc.returncode = 0
    return usage.ru_utime + usage.ru_stime


if __name__ == "__main__":
    main()
