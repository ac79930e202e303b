"""Measure how many VABG games the engine plays per second on one core.

Each game is the full engine as the product calls it: ``play_game`` with the advanced
preset and home court, which builds the event stream and both box scores, between the
fixture teams Kentucky 2012 (home) and Kansas 2008, a new seed per game. After a
warm-up, games are played in batches until the time is up; the script prints games
per second and microseconds per game, by the wall clock and by the process's own CPU
time (the second is steadier on a machine busy with other work). The engine is plain
single-threaded Python, so either figure is per core. It asserts nothing: timing never
goes in tests. It plays the engine as the product runs it: compiled by mypyc where
``make native`` built it (the first line says which); ``VABG_PURE_PYTHON=1`` measures its
source.

    python bench/engine.py [--seconds 5] [--warm-up 1] [--pin]
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script from anywhere, without installing

from simulator import SeededDice, native  # noqa: E402
from simulator.vabg import ADVANCED, TeamCard, play_game, read_team_file  # noqa: E402

TEAMS = ROOT / "fixtures" / "teams"
BATCH = 50  # games between clock reads
TARGET = 3000  # games/s/core, issue 25 (docs/engine.md "Speed")


def pin_to_one_core() -> str:
    """Keep the process on one CPU where the OS allows it; say which."""
    if hasattr(os, "sched_setaffinity"):
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return f"pinned to CPU {cpu}"
    return "not pinned (no sched_setaffinity here)"


def play_for(
    seconds: float, home: TeamCard, away: TeamCard, first_seed: int
) -> tuple[int, float, float]:
    """Play batches of games until ``seconds`` have passed; return games, wall and CPU time."""
    games, seed = 0, first_seed
    start, cpu_start = time.perf_counter(), time.process_time()
    deadline = start + seconds
    while True:
        for _ in range(BATCH):
            play_game(home, away, SeededDice(seed), rules=ADVANCED, neutral=False)
            seed += 1
        games += BATCH
        now = time.perf_counter()
        if now >= deadline:
            return games, now - start, time.process_time() - cpu_start


def report(what: str, games: int, seconds: float) -> float:
    rate = games / seconds
    print(f"{what:>17}: {rate:7,.0f} games/s, {1e6 / rate:6,.0f} µs per game ({seconds:.2f} s)")
    return rate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="measured run (default 5)")
    parser.add_argument("--warm-up", type=float, default=1.0, help="unmeasured run (default 1)")
    parser.add_argument("--pin", action="store_true", help="stay on one CPU (Linux)")
    args = parser.parse_args(argv)

    home = read_team_file(TEAMS / "kentucky-2012.json")
    away = read_team_file(TEAMS / "kansas-2008.json")
    pinned = pin_to_one_core() if args.pin else "not pinned"
    print(f"VABG engine: {away.label} at {home.label}, advanced rules, events + box score")
    print(f"Python {platform.python_version()} on {platform.machine()}, {pinned}")
    print(f"the engine: {native.ENGINE}")

    play_for(args.warm_up, home, away, first_seed=10**9)
    games, wall, cpu = play_for(args.seconds, home, away, first_seed=0)
    print(f"{games:,} games, one core")
    report("by the wall clock", games, wall)
    rate = report("by CPU time", games, cpu)
    print(
        f"target {TARGET:,} games/s/core (docs/engine.md): {'met' if rate >= TARGET else 'not met'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
