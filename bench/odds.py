"""Measure how fast the exact odds (simulator/vabg/odds.py) solve matchups on one core.

Three figures, each by the wall clock and by the process's own CPU time:

- **per matchup, amortised**: ``matchup_odds`` (P(win), P(overtime), expected points
  and overtimes, the margin law; what a pairwise table stores) for every ordered pair of
  a sample of the fixture field, advanced preset, home court, the fastest of
  ``--repeat`` runs; goal 1 ms (issue 13);
- **all pairs**: the 4,560 unordered pairs of the 96 team files of fixtures/teams,
  advanced preset, neutral court, as ``python -m simulator odds --pairs`` computes them;
  goal 5 s;
- **one full game law**: ``game_odds`` with the score laws too (what ``odds HOME AWAY``
  prints), Kentucky 2012 hosting Kansas 2008.

It asserts nothing: timing never goes in tests.

    python bench/odds.py [--sample 24] [--repeat 3] [--pin] [--skip-all-pairs]
"""

from __future__ import annotations

import argparse
import itertools
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script from anywhere, without installing

from bench.engine import pin_to_one_core  # noqa: E402
from simulator.vabg import ADVANCED, read_team_file  # noqa: E402
from simulator.vabg.odds import game_odds, matchup_odds  # noqa: E402

TEAMS = ROOT / "fixtures" / "teams"
GOAL_MATCHUP_MS = 1.0
GOAL_ALL_PAIRS_S = 5.0


def timed(work: object) -> tuple[float, float]:
    """Run ``work()``; return its wall and CPU seconds."""
    start, cpu = time.perf_counter(), time.process_time()
    work()  # type: ignore[operator]
    return time.perf_counter() - start, time.process_time() - cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=24, help="teams for the per-matchup run")
    parser.add_argument("--pin", action="store_true", help="stay on one CPU (Linux)")
    parser.add_argument("--skip-all-pairs", action="store_true", help="skip the 4,560 pairs")
    parser.add_argument(
        "--repeat", type=int, default=3, help="per-matchup runs; the fastest is shown"
    )
    args = parser.parse_args(argv)

    files = sorted(TEAMS.glob("*.json"))
    teams = [read_team_file(path) for path in files]
    pinned = pin_to_one_core() if args.pin else "not pinned"
    print(f"VABG exact odds: {len(teams)} fixture teams, advanced rules")
    print(f"Python {platform.python_version()} on {platform.machine()}, {pinned}")

    sample = teams[: args.sample]
    pairs = [(h, a) for h, a in itertools.permutations(sample, 2)]
    matchup_odds(sample[0], sample[1])  # warm-up: imports and the d20-read caches

    def per_matchup() -> None:
        for home, away in pairs:
            matchup_odds(home, away, rules=ADVANCED, neutral=False)

    # The fastest of a few runs: on a shared machine the others only add other work's time.
    wall, cpu = min(timed(per_matchup) for _ in range(max(1, args.repeat)))
    ms = 1000 * cpu / len(pairs)
    print(
        f"per matchup (home court, {len(pairs):,} ordered pairs): "
        f"{1000 * wall / len(pairs):.2f} ms wall, {ms:.2f} ms CPU "
        f"(goal {GOAL_MATCHUP_MS:g} ms: {'met' if ms <= GOAL_MATCHUP_MS else 'not met'})"
    )

    if not args.skip_all_pairs:
        unordered = list(itertools.combinations(teams, 2))

        def all_pairs() -> None:
            for home, away in unordered:
                matchup_odds(home, away, rules=ADVANCED, neutral=True)

        wall, cpu = timed(all_pairs)
        print(
            f"all {len(unordered):,} pairs (neutral): {wall:.2f} s wall, {cpu:.2f} s CPU "
            f"(goal {GOAL_ALL_PAIRS_S:g} s: {'met' if cpu <= GOAL_ALL_PAIRS_S else 'not met'})"
        )

    home = read_team_file(TEAMS / "kentucky-2012.json")
    away = read_team_file(TEAMS / "kansas-2008.json")
    runs = 20

    def full() -> None:
        for _ in range(runs):
            game_odds(home, away, rules=ADVANCED)

    wall, cpu = timed(full)
    print(
        f"one full game law with score laws ({away.label} at {home.label}): "
        f"{1000 * wall / runs:.1f} ms wall, {1000 * cpu / runs:.1f} ms CPU"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
