"""Grid court's odds (simulator/gridcourt/odds.py): seeded simulation with its error stated.

The stored runs must be what the engine plays from their seed, and a fresh run from other
seeds must agree with them within four standard errors.
"""

from __future__ import annotations

import math

import pytest

from simulator.games import find_game
from simulator.gridcourt import odds as gridcourt_odds
from simulator.gridcourt.odds import STYLE_SEED, simulated_odds, styled_odds, table_odds
from simulator.gridcourt.oddstable import TABLE
from simulator.gridcourt.rules import PRESETS, STANDARD, GridRules


@pytest.mark.parametrize("name", list(PRESETS))
def test_each_printed_level_has_a_stored_run_with_its_standard_error(name: str) -> None:
    odds = table_odds(PRESETS[name])
    assert odds is not None and odds.method == "simulated"
    assert odds.games == 2000
    assert sum(odds.final.values()) == pytest.approx(1.0)
    assert all(max(h, a) >= 21 > min(h, a) for h, a in odds.final)
    p = odds.p_home_win
    assert odds.standard_error == pytest.approx(math.sqrt(p * (1 - p) / odds.games))
    assert find_game("gridcourt").odds(PRESETS[name]) == odds


def test_rules_never_stored_are_run_for_their_own_odds_never_another_level_s(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The run a pairing gets, shortened to 100 games (the same code; 1,000 took 14 s of the
    # suite on a busy machine), its per-process cache emptied on both sides of the test.
    monkeypatch.setattr(gridcourt_odds, "STYLE_GAMES", 100)
    styled_odds.cache_clear()
    try:
        assert table_odds(GridRules(pieces=3)) is None
        odds = find_game("gridcourt").odds(GridRules(pieces=3))
        assert odds is not None and odds.method == "simulated" and odds.games == 100
        assert odds == simulated_odds(GridRules(pieces=3), games=100, seed=STYLE_SEED)
        assert odds.final != table_odds(STANDARD).final  # type: ignore[union-attr]
    finally:
        styled_odds.cache_clear()


def test_the_stored_run_is_what_the_engine_plays_from_its_seed() -> None:
    seed, rows = TABLE[(14, 0, 5)]
    stored = {(h, a): n for h, a, n in rows}
    again = simulated_odds(STANDARD, games=40, seed=seed)  # the run's first 40 games
    for key, p in again.final.items():
        assert round(p * 40) <= stored.get(key, 0), key
    assert simulated_odds(STANDARD, games=5, seed=3) == simulated_odds(STANDARD, games=5, seed=3)


def test_a_fresh_run_from_other_seeds_agrees_with_the_stored_one() -> None:
    stored = table_odds(STANDARD)
    assert stored is not None
    fresh = simulated_odds(STANDARD, games=160, seed=10**9)
    se = math.hypot(stored.standard_error, fresh.standard_error)
    assert abs(fresh.p_home_win - stored.p_home_win) <= 4 * se
    # The loser's mean score, with the standard error of the fresh run's mean.
    losers = {k: p for k, p in fresh.final.items()}
    mean = sum(min(k) * p for k, p in losers.items())
    sd = math.sqrt(sum((min(k) - mean) ** 2 * p for k, p in losers.items()))
    stored_mean = sum(min(k) * p for k, p in stored.final.items())
    assert abs(mean - stored_mean) <= 4 * sd / math.sqrt(160) * 1.1
