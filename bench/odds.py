"""Measure how fast the exact odds (simulator/vabg/odds.py, league/odds.py) are on one core.

Each figure by the wall clock and by the process's own CPU time (what the goals read):

- **per matchup, one at a time**: ``matchup_odds`` (P(win), P(overtime), expected points
  and overtimes, the margin law; what a pairwise table stores) for every ordered pair of
  a sample of the fixture field, advanced preset, home court;
- **per matchup, amortised over a field**: ``field_odds`` for the same ordered pairs at
  once, and for every ordered pair of the 96 field; goal 1 ms (issue 13);
- **all pairs**: the 4,560 unordered pairs of the 96 team files of fixtures/teams,
  advanced preset, neutral court (``field_odds``); goal 5 s;
- **one full game law**: ``game_odds`` with the score laws too (what ``odds HOME AWAY``
  prints), Kentucky 2012 hosting Kansas 2008;
- **the strategy choices on** (``coachodds``), per matchup without the score laws (what a
  table of a season or tournament with them stores), over the ordered pairs of the
  sample's first 8 teams: with the exact coach (the rules' coach: solved, then the odds)
  on a home court and on a neutral one (what a tournament plays), the exact coach alone
  (``solve_coach``, what a game played by the engine needs), the odds with the pair's
  coach given (what a table built after its games walks: their coaches are stored), and
  with the thresholds of
  games before rules version 3 (their charts and previews); goal 5 ms for the exact
  coach's pair (issue 25); one full game law with the score laws (what ``odds HOME
  AWAY --strategy`` prints); and what a new coached 96-team tournament costs from the
  neutral figure: the 4,560 pairs its bracket lets meet times a pair's CPU;
- **the league** (``--skip-league`` skips it): on a scratch SQLite database, the 96
  fixture teams in a 96-team tournament as the product creates one (neutral courts, the
  strategy choices on): what a new tournament costs, its pair table built and stored
  (``pair_table_build``: the pairs its bracket lets meet, in the bracket's order, 4,560 of
  the 9,120 ordered pairs; each solved with the exact coach), then ``bracket_odds`` once
  the table exists: the first call of the process (it takes every card version) and the
  fastest of the next ``--repeat`` (versions cached); goal 50 ms. ``--plain-league`` does
  the same for a tournament without the strategy choices (the same 4,560 pairs, each
  solved by ``field_odds``).

The per-matchup figures are the fastest of ``--repeat`` runs: on a shared machine the
others only add other work's time. It asserts nothing: timing never goes in tests.

    python bench/odds.py [--sample 24] [--repeat 3] [--pin] [--skip-all-pairs]
                         [--skip-league] [--plain-league]
"""

from __future__ import annotations

import argparse
import itertools
import os
import platform
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script from anywhere, without installing

from bench.engine import pin_to_one_core  # noqa: E402
from simulator import native  # noqa: E402
from simulator.vabg import ADVANCED, read_team_file  # noqa: E402
from simulator.vabg.coaching import DEFAULT_POLICY  # noqa: E402
from simulator.vabg.coachodds import coach_odds, solve_coach  # noqa: E402
from simulator.vabg.odds import field_odds, game_odds, matchup_odds  # noqa: E402
from simulator.vabg.rules import preset  # noqa: E402

TEAMS = ROOT / "fixtures" / "teams"
GOAL_MATCHUP_MS = 1.0
GOAL_ALL_PAIRS_S = 5.0
GOAL_BRACKET_MS = 50.0
GOAL_COACHED_MS = 5.0


def timed(work: Callable[[], object]) -> tuple[float, float]:
    """Run ``work()``; return its wall and CPU seconds."""
    start, cpu = time.perf_counter(), time.process_time()
    work()
    return time.perf_counter() - start, time.process_time() - cpu


def per_call_ms(work: Callable[[], object], runs: int) -> str:
    """Run ``work()`` ``runs`` times; return its wall and CPU milliseconds a call, as printed."""

    def all_runs() -> None:
        for _ in range(runs):
            work()

    wall, cpu = timed(all_runs)
    return f"{1000 * wall / runs:.1f} ms wall, {1000 * cpu / runs:.1f} ms CPU"


def verdict(value: float, goal: float, unit: str) -> str:
    return f"goal {goal:g} {unit}: {'met' if value <= goal else 'not met'}"


def league(repeat: int, strategy: bool) -> None:
    """Time the pair table's build and the bracket odds of a 96-team tournament."""
    scratch = Path(tempfile.gettempdir()) / f"vabg-bench-odds-{os.getpid()}.sqlite3"
    scratch.unlink(missing_ok=True)
    os.environ["SQLITE_PATH"] = str(scratch)
    os.environ.pop("DATABASE_URL", None)
    os.environ.pop("CELERY_BROKER_URL", None)
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("LOG_LEVEL", "ERROR")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", "--noinput", verbosity=0)
    from cards.models import Team
    from cards.services import teams_import
    from config.celery import app
    from league import odds, services, tournaments

    app.conf.task_always_eager = True
    try:
        files = sorted(TEAMS.glob("*.json"))
        teams_import(files=[(f.name, f.read_bytes()) for f in files])
        teams = list(Team.objects.order_by("school", "season"))
        regions = {
            r: teams[i * 24 : (i + 1) * 24]
            for i, r in enumerate(("West", "East", "Midwest", "South"))
        }
        cup = tournaments.tournament_create(
            league=services.league_get_or_create(name="Bench"),
            name="Odds 96",
            regions=regions,
            seed=96,
            strategy=strategy,
        )
        built: dict[str, int] = {}
        wall, cpu = timed(lambda: built.update(odds.pair_table_build(season_id=cup.pk)))
        pairs = built.get("computed", 0)
        ordered = len(teams) * (len(teams) - 1)
        what = "the exact coach" if strategy else "no strategy choices"
        print(
            f"league: a new 96-team tournament's pair table ({what}, neutral courts): "
            f"{pairs:,} pairs that can meet, in the bracket's order, of {ordered:,} ordered "
            f"pairs, solved and stored: {wall:.1f} s wall, {cpu:.1f} s CPU "
            f"({1000 * cpu / max(1, pairs):.1f} ms CPU a pair)"
        )
        odds._VERSIONS.clear()  # the first request of a process takes every card version
        wall, cpu = timed(lambda: odds.bracket_odds(cup))
        print(
            f"league: bracket odds of the 96 field, first request (cards built for their "
            f"versions): {1000 * wall:.0f} ms wall, {1000 * cpu:.0f} ms CPU"
        )
        wall, cpu = min(timed(lambda: odds.bracket_odds(cup)) for _ in range(max(1, repeat)))
        ms = 1000 * cpu
        print(
            f"league: bracket odds of the 96 field, table built, versions cached: "
            f"{1000 * wall:.0f} ms wall, {ms:.0f} ms CPU ({verdict(ms, GOAL_BRACKET_MS, 'ms')})"
        )
    finally:
        from django.db import connections

        connections.close_all()  # the next league() of this process opens a fresh file
        scratch.unlink(missing_ok=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=24, help="teams for the per-matchup run")
    parser.add_argument("--pin", action="store_true", help="stay on one CPU (Linux)")
    parser.add_argument("--skip-all-pairs", action="store_true", help="skip the 96 field")
    parser.add_argument("--skip-league", action="store_true", help="skip the league figures")
    parser.add_argument(
        "--plain-league", action="store_true", help="also a tournament without strategy choices"
    )
    parser.add_argument("--repeat", type=int, default=3, help="runs; the fastest is shown")
    args = parser.parse_args(argv)
    repeat = max(1, args.repeat)

    files = sorted(TEAMS.glob("*.json"))
    teams = [read_team_file(path) for path in files]
    pinned = pin_to_one_core() if args.pin else "not pinned"
    print(f"VABG exact odds: {len(teams)} fixture teams, advanced rules")
    print(f"Python {platform.python_version()} on {platform.machine()}, {pinned}")
    print(f"the engine: {native.ENGINE}")

    sample = teams[: args.sample]
    pairs = list(itertools.permutations(sample, 2))
    matchup_odds(sample[0], sample[1])  # warm-up: imports and the d20-read caches
    field_odds(sample[:2])

    def one_at_a_time() -> None:
        for home, away in pairs:
            matchup_odds(home, away, rules=ADVANCED, neutral=False)

    wall, cpu = timed(one_at_a_time)
    print(
        f"per matchup, one at a time (matchup_odds, home court, {len(pairs):,} ordered "
        f"pairs): {1000 * wall / len(pairs):.2f} ms wall, {1000 * cpu / len(pairs):.2f} ms CPU"
    )

    wall, cpu = min(
        timed(lambda: field_odds(sample, rules=ADVANCED, neutral=False)) for _ in range(repeat)
    )
    ms = 1000 * cpu / len(pairs)
    print(
        f"per matchup, amortised (field_odds, home court, the {len(pairs):,} ordered pairs "
        f"of {len(sample)} teams): {1000 * wall / len(pairs):.2f} ms wall, {ms:.2f} ms CPU "
        f"({verdict(ms, GOAL_MATCHUP_MS, 'ms')})"
    )

    if not args.skip_all_pairs:
        ordered = len(teams) * (len(teams) - 1)
        wall, cpu = timed(lambda: field_odds(teams, rules=ADVANCED, neutral=False))
        ms = 1000 * cpu / ordered
        print(
            f"per matchup, amortised (field_odds, home court, all {ordered:,} ordered pairs "
            f"of the {len(teams)} field): {1000 * wall / ordered:.2f} ms wall, "
            f"{ms:.2f} ms CPU ({verdict(ms, GOAL_MATCHUP_MS, 'ms')})"
        )
        unordered = len(teams) * (len(teams) - 1) // 2
        wall, cpu = min(
            timed(lambda: field_odds(teams, rules=ADVANCED, neutral=True)) for _ in range(repeat)
        )
        print(
            f"all {unordered:,} pairs (field_odds, neutral): {wall:.2f} s wall, {cpu:.2f} s CPU "
            f"({verdict(cpu, GOAL_ALL_PAIRS_S, 's')})"
        )

    home = read_team_file(TEAMS / "kentucky-2012.json")
    away = read_team_file(TEAMS / "kansas-2008.json")
    full = per_call_ms(lambda: game_odds(home, away, rules=ADVANCED), runs=20)
    print(f"one full game law with score laws ({away.label} at {home.label}): {full}")

    coached = preset("advanced", strategy=True)
    few = list(itertools.permutations(sample[:8], 2))
    stored = {(h, a): solve_coach(h, a, rules=coached, neutral=True) for h, a in few}
    neutral_ms = 0.0
    for label, work, goal in (
        (
            "the exact coach's odds (coach_odds without score laws), home court",
            lambda h, a: coach_odds(h, a, rules=coached, scores=False),
            True,
        ),
        (
            "the exact coach's odds (coach_odds without score laws), neutral court",
            lambda h, a: coach_odds(h, a, rules=coached, neutral=True, scores=False),
            True,
        ),
        (
            "the exact coach alone (solve_coach), home court",
            lambda h, a: solve_coach(h, a, rules=coached),
            False,
        ),
        (
            "the exact coach's odds with the pair's coach stored (coach_odds(coach=...): "
            "what a table built after its games walks), neutral court",
            lambda h, a: coach_odds(
                h, a, rules=coached, neutral=True, scores=False, coach=stored[(h, a)]
            ),
            False,
        ),
        (
            "the thresholds' odds (coach_odds, coach=DEFAULT_POLICY), home court",
            lambda h, a: coach_odds(h, a, rules=coached, coach=DEFAULT_POLICY, scores=False),
            False,
        ),
    ):

        def coached_pairs(work: Callable[[object, object], object] = work) -> None:
            for h, a in few:
                work(h, a)

        wall, cpu = min(timed(coached_pairs) for _ in range(repeat))
        ms = 1000 * cpu / len(few)
        if "neutral" in label and "stored" not in label:
            neutral_ms = ms
        print(
            f"strategy choices on, per matchup, {label}, {len(few)} ordered "
            f"pairs: {1000 * wall / len(few):.1f} ms wall, {ms:.1f} ms CPU"
            + (f" ({verdict(ms, GOAL_COACHED_MS, 'ms')})" if goal else "")
        )
    coached_full = per_call_ms(lambda: coach_odds(home, away, rules=coached), runs=5)
    print(
        f"strategy choices on, the exact coach, one full game law with score laws "
        f"({away.label} at {home.label}): {coached_full}"
    )
    # A knockout bracket lets any two of its teams meet, once, the top team at home: the
    # table of a new 96-team tournament holds n(n - 1) / 2 ordered pairs.
    field = len(teams)
    meet = field * (field - 1) // 2
    print(
        f"a new coached {field}-team tournament: {meet:,} pairs can meet (of "
        f"{field * (field - 1):,} ordered pairs), each solved with the exact coach on a "
        f"neutral court: about {meet * neutral_ms / 1000:.0f} s of CPU at the "
        f"{neutral_ms:.1f} ms a pair above, before storing (the league figures below "
        "measure the whole build)"
    )

    if not args.skip_league:
        league(repeat, strategy=True)
        if args.plain_league:
            league(repeat, strategy=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
