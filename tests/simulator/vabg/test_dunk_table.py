"""The dunk table of vabg-rulings.md §3, defined once (``rules.dunk_row``) and read by all.

Each X from 34 to 66 is checked roll by roll against the rulings' sentences, and the
engine's precomputed tables (``simulator.vabg.tables``) against the same row, so the engine, the card calculator
(``tests/cards/test_dunk_table.py``) and the rulings cannot drift apart.
"""

from __future__ import annotations

import pytest

from simulator.vabg import tables
from simulator.vabg.rules import DUNK_TOP_MAX, DUNK_TOP_MIN, DunkRow, dunk_row

EVERY_X = range(34, 67)
DUNK_ROLLS = (*range(51, 57), *range(61, 67))  # two d6 read as 51-66


def rulings_dunks(x: int, roll: int) -> bool:
    """§3: X >= 61 dunks on 51-56 and 61..X; 57-60 on 51-56; 51-56 on 51..X; 50 nothing."""
    if x >= 61:
        return roll <= 56 or roll <= x
    if 57 <= x <= 60:
        return roll <= 56
    if 51 <= x <= 56:
        return roll <= x
    return False


def rulings_stops(x: int, roll: int) -> bool:
    """§3: 44-49 stop on the first 50-X numbers of 51-56; X <= 43 on 51-56, and for
    X <= 39 also on 61..(61+39-X)."""
    if 44 <= x <= 49:
        return roll in DUNK_ROLLS[: 50 - x]
    if x <= 43:
        return roll <= 56 or (x <= 39 and roll <= 61 + 39 - x)
    return False


def rulings_changes(x: int) -> tuple[int, int]:
    """§3: (opponent steal ranges, own turnover ranges) for X, in numbers."""
    high = {57: (-1, 0), 58: (-1, -1), 59: (-2, -1)}
    low = {43: (1, 0), 42: (1, 1), 41: (2, 1)}
    if x >= 60:
        return (-2, -2)
    if x <= 40:
        return (2, 2)
    return high.get(x) or low.get(x) or (0, 0)


@pytest.mark.parametrize("x", EVERY_X)
def test_the_dunk_table_reads_as_rulings_section_3(x):
    row = dunk_row(x)
    assert row.dunks == tuple(r for r in DUNK_ROLLS if rulings_dunks(x, r))
    assert row.stops == tuple(r for r in DUNK_ROLLS if rulings_stops(x, r))
    assert (row.steals, row.turnovers) == rulings_changes(x)


@pytest.mark.parametrize(
    ("x", "dunks", "stops"),
    [
        (66, 12, 0),
        (62, 8, 0),
        (60, 6, 0),
        (57, 6, 0),
        (53, 3, 0),
        (50, 0, 0),
        (47, 0, 3),
        (44, 0, 6),
        (40, 0, 6),
        (39, 0, 7),
        (34, 0, 12),
    ],
)
def test_the_dunk_table_has_the_counts_worked_by_hand(x, dunks, stops):
    row = dunk_row(x)
    assert (len(row.dunks), len(row.stops)) == (dunks, stops)


def test_a_roll_never_both_dunks_and_stops():
    for x in EVERY_X:
        row = dunk_row(x)
        assert not set(row.dunks) & set(row.stops), x


def test_an_effective_top_outside_34_to_66_is_clamped():
    assert (DUNK_TOP_MIN, DUNK_TOP_MAX) == (34, 66)
    assert dunk_row(10) == dunk_row(34)
    assert dunk_row(99) == dunk_row(66)
    assert dunk_row(66) == DunkRow(
        dunks=(51, 52, 53, 54, 55, 56, 61, 62, 63, 64, 65, 66), stops=(), steals=-2, turnovers=-2
    )


@pytest.mark.parametrize("x", EVERY_X)
def test_the_engine_plays_the_same_table(x):
    row = dunk_row(x)
    kinds = tables.ROLL_KINDS[x]
    assert tuple(r for r in DUNK_ROLLS if kinds[r] == tables.RollKind.DUNK) == row.dunks
    assert tuple(r for r in DUNK_ROLLS if kinds[r] == tables.RollKind.STOP) == row.stops
    assert (tables.STEAL_CHANGES[x], tables.TURNOVER_CHANGES[x]) == (row.steals, row.turnovers)
