"""Measure how the board games' policies play, from seeded games (docs/engine.md).

    .venv/bin/python bench/policy_figures.py [GAMES]            # default 1000 games a row
    .venv/bin/python bench/policy_figures.py --styles [GAMES]   # the styles table
    .venv/bin/python bench/policy_figures.py --styles --game=sixdice 1000   # one game's rows

Without ``--styles`` it prints, for grid court at each printed level (14 columns, five
pieces), the rulings' §4 policy beside the default style, both teams alike: 3-point
attempts, shots, shot-clock and paint violations a game, and the visitor's (team 1, who
starts with the ball) share of wins with its standard error; then the same for six dice.
With ``--styles`` it plays pairs of styles (the home team's style against the default)
and prints the home team's win share and 3-point attempts, each with its standard error.
Game ``i`` of a row is played on ``SeededDice(SEED + i)``; rows are Markdown table lines.
"""

from __future__ import annotations

import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from simulator.dice import SeededDice
from simulator.games import StyledTeam, find_game
from simulator.gridcourt.rules import GridRules
from simulator.gridcourt.style import DEFAULT_STYLE as GRID_DEFAULT
from simulator.gridcourt.style import GridStyle
from simulator.sixdice.style import DEFAULT_STYLE as DICE_DEFAULT
from simulator.sixdice.style import SixDiceStyle

SEED = 7_000_000
"""Other seeds than the stored odds runs', so a styled run and its odds are independent."""


def _mean_se(values: list[float]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    se = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, se


def _share(wins: int, games: int) -> str:
    p = wins / games
    return f"{p:.1%} ({math.sqrt(p * (1 - p) / games):.1%})"


def _play(game: str, home: Any, away: Any, rules: Any, games: int) -> list[Any]:
    kind = find_game(game)
    h, a = StyledTeam("Home", 2000, home), StyledTeam("Away", 2000, away)
    return [kind.play(h, a, SeededDice(SEED + i), rules) for i in range(games)]


def grid_row(label: str, style: GridStyle | None, level: int, games: int) -> str:
    """Return one Markdown row: both teams play ``style`` (``None``: the rulings' §4)."""
    started = time.perf_counter()
    results = _play("gridcourt", style, style, GridRules(level=level), games)
    tpa, fga, scv, paint, rolls = [], [], [], [], []
    for r in results:
        boxes = (r.home.box, r.away.box)
        tpa.append(sum(b.totals.tpa for b in boxes))
        fga.append(sum(b.totals.fga for b in boxes))
        scv.append(sum(b.shot_clock_violations for b in boxes))
        paint.append(sum(b.totals.three_sec for b in boxes))
        rolls.append(sum(b.off_rolls + b.def_rolls for b in boxes))
    away = sum(r.away.score > r.home.score for r in results)
    cells = [f"{m:.2f} ({se:.2f})" for m, se in map(_mean_se, (tpa, fga, scv))]
    return (
        f"| {level} | {label} | {' | '.join(cells)} | {sum(paint)} | "
        f"{statistics.fmean(rolls):.0f} | {_share(away, games)} |"
        f" <!-- {time.perf_counter() - started:.0f} s -->"
    )


def dice_row(label: str, style: SixDiceStyle, games: int) -> str:
    """Return one Markdown row of six dice, both teams playing ``style``."""
    results = _play("sixdice", style, style, None, games)
    tpa = [r.home.box.fg3a + r.away.box.fg3a for r in results]
    away = sum(r.away.score > r.home.score for r in results)
    m, se = _mean_se([float(x) for x in tpa])
    return f"| {label} | {m:.2f} ({se:.2f}) | {_share(away, games)} |"


def style_row(game: str, home: Any, away: Any, rules: Any, games: int) -> str:
    """Return one row: the home team's style against the visitor's, from the home side."""
    results = _play(game, home, away, rules, games)
    wins = sum(r.home.score > r.away.score for r in results)
    if game == "gridcourt":
        tpa = [float(r.home.box.totals.tpa) for r in results]
        opp = [float(r.away.box.totals.tpa) for r in results]
    else:
        tpa = [float(r.home.box.fg3a) for r in results]
        opp = [float(r.away.box.fg3a) for r in results]
    pts = [float(r.home.score - r.away.score) for r in results]
    odds = find_game(game).odds(
        rules, StyledTeam("Home", 2000, home), StyledTeam("Away", 2000, away)
    )
    exact = "" if odds is None else f"{odds.p_home_win:.1%}"
    if odds is not None and odds.method == "simulated":
        exact += f" ({odds.standard_error:.1%}, {odds.games:,} games)"
    cells = [f"{m:.2f} ({se:.2f})" for m, se in map(_mean_se, (tpa, opp, pts))]
    return (
        f"| {_text(home)} | {_text(away)} | {_share(wins, games)} | {exact} | {' | '.join(cells)} |"
    )


def _text(style: Any) -> str:
    if style is None:
        return "rulings §4"
    return ", ".join(f"{k} {v}" for k, v in style.to_json().items())


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    games = int(args[0]) if args else 1000
    if "--styles" in sys.argv:
        print(f"Styles, {games:,} seeded games a row (seed {SEED} + i)\n")
        print("| home style | visitor style | home wins (se) | odds | home 3PA (se) "
              "| visitor 3PA (se) | margin (se) |")  # fmt: skip
        print("|---|---|---|---|---|---|---|")
        only = next((a.split("=", 1)[1] for a in sys.argv if a.startswith("--game=")), None)
        for level in (0, 1) if only in (None, "gridcourt") else ():
            rules = GridRules(level=level)
            print(f"| **grid court, level {level}** | | | | | | |")
            for home in (
                GridStyle(threes=200),
                GridStyle(threes=150),
                GridStyle(threes=50),
                GridStyle(patience=20),
                GridStyle(patience=80),
                GridStyle(crashers=1),
                GridStyle(crashers=0),
                GridStyle(trap=True),
                None,
            ):
                print(style_row("gridcourt", home, GRID_DEFAULT, rules, games), flush=True)
        print("| **six dice** | | | | | | |")
        for dice in (
            ()
            if only not in (None, "sixdice")
            else (
                SixDiceStyle(threes="top"),
                SixDiceStyle(threes="outside"),
                SixDiceStyle(threes="always"),
                SixDiceStyle(inside="drive"),
                SixDiceStyle(chip="shots"),
            )
        ):
            print(style_row("sixdice", dice, DICE_DEFAULT, None, games), flush=True)
        return
    print(f"Policies, {games:,} seeded games a row (seed {SEED} + i), both teams alike\n")
    print("| level | policy | 3PA a game (se) | shots a game (se) | shot-clock violations "
          "a game (se) | paint violations in all | rolls a game | visitor wins (se) |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|")
    for level in (0, 1, 2):
        for label, style in (("rulings §4", None), ("default style", GRID_DEFAULT)):
            print(grid_row(label, style, level, games), flush=True)
        print(grid_row("default, trap", GridStyle(trap=True), level, games), flush=True)
    print("\n| six dice | 3PA a game (se) | visitor wins (se) |\n|---|---|---|")
    print(dice_row("default style (rulings §4)", DICE_DEFAULT, games))


if __name__ == "__main__":
    main()
