"""The card calculator values a dunk range by the engine's own table (rulings §3)."""

from __future__ import annotations

import pytest

from cards.calculator import dunk_outcomes
from simulator.vabg.rules import dunk_row


@pytest.mark.parametrize("x", range(30, 71))
def test_the_calculator_counts_the_dunk_table_the_engine_plays(x):
    row = dunk_row(x)
    assert dunk_outcomes(x) == (len(row.dunks), len(row.stops), row.steals, row.turnovers)
