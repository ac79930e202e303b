"""Run grid court's odds for the printed levels and write simulator/gridcourt/oddstable.py.

    .venv/bin/python bench/gridcourt_odds.py [GAMES]     # default 2000 games a level

Game i of a level is played on SeededDice(SEED + i). Prints each level's P(home wins) with
its standard error and how long the run took.
"""

from __future__ import annotations

import pprint
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from simulator.gridcourt.odds import simulated_odds, table_entry
from simulator.gridcourt.rules import PRESETS

SEED = 2026_11_26
OUT = Path(__file__).resolve().parent.parent / "simulator" / "gridcourt" / "oddstable.py"


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    table = {}
    for name, rules in PRESETS.items():
        started = time.perf_counter()
        odds = simulated_odds(rules, games=games, seed=SEED)
        key, entry = table_entry(rules, odds)
        table[key] = entry
        print(
            f"{name}: P(home wins) {odds.p_home_win:.4f} (se {odds.standard_error:.4f}), "
            f"{games} games in {time.perf_counter() - started:.0f} s",
            flush=True,
        )
    head = OUT.read_text().split("TABLE:")[0]
    body = pprint.pformat(table, width=96, compact=True)
    OUT.write_text(
        head + "TABLE: dict[tuple[int, int, int], tuple[int, list[list[int]]]] = " + body + "\n"
    )
    ruff = Path(sys.executable).with_name("ruff")
    subprocess.run([str(ruff), "format", str(OUT)], check=True)  # the project's own format


if __name__ == "__main__":
    main()
