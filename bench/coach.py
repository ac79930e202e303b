"""How close games are: without the strategy choices, with the thresholds, with the exact coach.

Every figure is read from the exact law of the final margin (no sampling):
``simulator.vabg.odds.matchup_odds`` without the choices, ``coachodds.coach_odds`` with the
thresholds of games before rules version 3 (``coach=DEFAULT_POLICY``) and with the exact
coach (the default). For each game it prints the median winning margin (the smallest m
with P(|margin| <= m) >= 1/2), the share of games decided by 3 points or fewer, the
overtime share and the mean winning margin:

- **identical teams**: each named team against itself on a neutral court, advanced rules;
- **the field** (``--field``): the all-time 96 bracket's round-1 games (seed s v 33 - s,
  s = 9..16 in each region) and round-2 games (seed s = 1..8 v each possible winner of
  its round-1 game, weighted by the chance it gets there, from the same game's exact
  odds), as tournaments play them: neutral courts, the better seed listed at home,
  advanced rules. The figures are those of the mixture of all these games' margin laws,
  each game counted once (a round-2 game split between its two possible opponents).

    python bench/coach.py [--teams kentucky-2012 kansas-2008 ...] [--field]

It asserts nothing: these are measurements (docs/odds.md, "The coach").
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script from anywhere, without installing

from simulator.vabg import DEFAULT_POLICY, TeamCard, read_team_file  # noqa: E402
from simulator.vabg.coachodds import coach_odds  # noqa: E402
from simulator.vabg.odds import GameOdds, matchup_odds  # noqa: E402
from simulator.vabg.rules import preset  # noqa: E402

TEAMS = ROOT / "fixtures" / "teams"
FIELD = ROOT / "fixtures" / "field" / "alltime96.csv"
IDENTICAL = ("kentucky-2012", "kansas-2008", "unlv-1991", "ucla-1972", "georgetown-1984")

Solver = Callable[[TeamCard, TeamCard], GameOdds]
PLAIN = preset("advanced")
COACHED = preset("advanced", strategy=True)
SOLVERS: dict[str, Solver] = {
    "no choices": lambda h, a: matchup_odds(h, a, rules=PLAIN, neutral=True),
    "thresholds": lambda h, a: coach_odds(
        h, a, rules=COACHED, neutral=True, coach=DEFAULT_POLICY, scores=False
    ),
    "exact coach": lambda h, a: coach_odds(h, a, rules=COACHED, neutral=True, scores=False),
}


def closeness(laws: Iterable[tuple[float, Mapping[int, float], float]]) -> str:
    """Return the printed figures of a weighted mixture of games: (weight, margin law,
    P(overtime)) each."""
    winning: dict[int, float] = {}
    overtime = total = 0.0
    for weight, margin, p_overtime in laws:
        total += weight
        overtime += weight * p_overtime
        for m, p in margin.items():
            winning[abs(m)] = winning.get(abs(m), 0.0) + weight * p
    seen = 0.0
    median = 0
    for m in sorted(winning):
        seen += winning[m]
        if seen >= total / 2:
            median = m
            break
    close = sum(p for m, p in winning.items() if m <= 3) / total
    mean = sum(m * p for m, p in winning.items()) / total
    return (
        f"median {median:2d}   within 3: {close:6.2%}   overtime: {overtime / total:6.2%}"
        f"   mean {mean:5.2f}"
    )


def identical(names: Iterable[str]) -> None:
    print("Identical teams (a team against itself), neutral court, advanced rules:")
    for name in names:
        team = read_team_file(TEAMS / f"{name}.json")
        print(f"  {team.label}")
        for label, solve in SOLVERS.items():
            odds = solve(team, team)
            print(f"    {label:12} {closeness([(1.0, odds.margin, odds.p_overtime)])}")


def field_games() -> tuple[
    list[tuple[TeamCard, TeamCard]], list[tuple[TeamCard, TeamCard, TeamCard]]
]:
    """Return the round-1 games (better seed first) and the round-2 games (the seed with
    a bye, then the two teams of the round-1 game it meets)."""
    cards = {}
    for path in sorted(TEAMS.glob("*.json")):
        card = read_team_file(path)
        cards[(card.school, card.season)] = card
    regions: dict[str, dict[int, TeamCard]] = {}
    with FIELD.open(newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            card = cards[(row["school"], int(row["season"]))]
            regions.setdefault(row["region"], {})[int(row["seed"])] = card
    first, second = [], []
    for seeds in regions.values():
        for s in range(9, 17):
            first.append((seeds[s], seeds[33 - s]))
        for s in range(1, 9):
            second.append((seeds[s], seeds[17 - s], seeds[16 + s]))
    return first, second


def field() -> None:
    first, second = field_games()
    print(
        f"The all-time 96 field: {len(first)} round-1 games and {len(second)} round-2 games "
        "(each opponent weighted by its chance), neutral courts, advanced rules:"
    )
    for label, solve in SOLVERS.items():
        start = time.process_time()
        ones, twos = [], []
        for home, away in first:
            odds = solve(home, away)
            ones.append((1.0, odds.margin, odds.p_overtime))
        for seed, upper, lower in second:
            reach = solve(upper, lower).p_home_win
            for opponent, weight in ((upper, reach), (lower, 1.0 - reach)):
                odds = solve(seed, opponent)
                twos.append((weight, odds.margin, odds.p_overtime))
        cpu = time.process_time() - start
        print(f"  {label}  ({cpu:.1f} s CPU)")
        print(f"    round 1      {closeness(ones)}")
        print(f"    round 2      {closeness(twos)}")
        print(f"    both         {closeness(ones + twos)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", nargs="*", default=list(IDENTICAL), help="team file names")
    parser.add_argument("--field", action="store_true", help="also the field's rounds 1 and 2")
    args = parser.parse_args(argv)
    identical(args.teams)
    if args.field:
        field()
    return 0


if __name__ == "__main__":
    sys.exit(main())
