"""Measure how long six dice's exact odds take to solve, once per rules in a process.

For each preset (and another printing of the dice): the chain's solve (every position's
P(home wins)), then the law of the final score from the jump ball, by the wall clock and
by the process's CPU time. It asserts nothing: timing never goes in tests.

    .venv/bin/python bench/sixdice_odds.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from simulator.sixdice.odds import SixDiceOdds
from simulator.sixdice.rules import PRESETS, SixDiceRules


def main() -> None:
    rule_sets = {**PRESETS, "faces BBPPSF": SixDiceRules(faces="BBPPSF")}
    for name, rules in rule_sets.items():
        wall, cpu = time.perf_counter(), time.process_time()
        chain = SixDiceOdds(rules)
        solved = time.perf_counter() - wall, time.process_time() - cpu
        wall, cpu = time.perf_counter(), time.process_time()
        law = chain.final_law()
        flowed = time.perf_counter() - wall, time.process_time() - cpu
        print(
            f"{name}: solve {solved[0]:.2f} s wall, {solved[1]:.2f} s CPU; final-score law "
            f"{flowed[0] * 1000:.0f} ms wall, {flowed[1] * 1000:.0f} ms CPU "
            f"({len(law)} final scores)"
        )


if __name__ == "__main__":
    main()
