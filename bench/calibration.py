"""Run the full calibration: every team of the field against every other, timed.

    .venv/bin/python bench/calibration.py                          # prints the MAE and the time
    .venv/bin/python bench/calibration.py --out docs/calibration.md  # and rewrites the page
    .venv/bin/python bench/calibration.py --games 20 --seed 1 --teams-dir DIR

It is ``manage.py calibrate`` (cards/calibration.py, docs/calibration.md) with the settings
of a full run: every team file of ``fixtures/teams`` (or ``--teams-dir``, or ``--from-db``)
plays every other team ``--games`` games (default 10; with 96 teams, 4,560 pairs and 45,600
games) with the advanced rules on a neutral court, compared with the field file's published
``predicted_pts`` and ``predicted_allowed``. It prints the command's MAE lines, then the
wall and CPU time and games per second. Without ``--out`` the page goes to a scratch file and
docs/calibration.md is left alone. Nothing is asserted: timing never goes in tests.
"""

from __future__ import annotations

import argparse
import io
import os
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script from anywhere, without installing


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--teams-dir", help="team files (default: fixtures/teams)")
    source.add_argument("--from-db", action="store_true", help="the teams in the database")
    parser.add_argument("--field", help="the field file (default: as manage.py calibrate)")
    parser.add_argument("--opponents", type=int, help="opponents a team (default: all)")
    parser.add_argument("--games", type=int, default=10, help="games a pair (default: 10)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--strategy", action="store_true", help="the coach policy on")
    parser.add_argument("--out", help="write the page here (default: a scratch file)")
    args = parser.parse_args()

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("LOG_LEVEL", "ERROR")
    import django

    django.setup()
    from django.core.management import call_command

    out = args.out or str(Path(tempfile.gettempdir()) / "vabg-calibration.md")
    options = ["--games", str(args.games), "--seed", str(args.seed), "--out", out]
    if args.from_db:
        options.append("--from-db")
    elif args.teams_dir:
        options += ["--teams-dir", args.teams_dir]
    if args.field:
        options += ["--field", args.field]
    if args.opponents is not None:
        options += ["--opponents", str(args.opponents)]
    if args.strategy:
        options.append("--strategy")

    stdout = io.StringIO()
    start, cpu_start = time.perf_counter(), time.process_time()
    call_command("calibrate", *options, stdout=stdout)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    print(stdout.getvalue(), end="")
    played = re.search(r"^([\d,]+) games, ", stdout.getvalue(), re.MULTILINE)
    games = int(played.group(1).replace(",", "")) if played else 0
    print(
        f"{games:,} games in {wall:.1f} s wall, {cpu:.1f} s CPU "
        f"({games / max(wall, 1e-9):,.0f} games/s by the wall clock, "
        f"{games / max(cpu, 1e-9):,.0f} by CPU time)"
    )


if __name__ == "__main__":
    main()
