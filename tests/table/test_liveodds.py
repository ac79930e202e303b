"""The live win probability from a position (simulator/vabg/liveodds.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator.vabg import ADVANCED, BASIC, preset, read_team_file
from simulator.vabg.liveodds import LiveOdds
from simulator.vabg.odds import StrategyNotSolvedError, Walk, game_odds, margin_swing

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "teams"
HOME = read_team_file(FIXTURES / "kentucky-2012.json")
AWAY = read_team_file(FIXTURES / "kansas-2008.json")


@pytest.mark.parametrize(
    ("rules", "neutral"), [(ADVANCED, False), (ADVANCED, True), (BASIC, False)]
)
def test_before_the_first_trip_it_is_the_exact_odds_of_the_game(rules, neutral):
    live = LiveOdds(HOME, AWAY, rules=rules, neutral=neutral)
    exact = game_odds(HOME, AWAY, rules=rules, neutral=neutral)
    assert live.p_home_win(0, 0, 0) == pytest.approx(exact.p_home_win, abs=1e-12)


def test_each_position_is_the_average_of_the_positions_one_trip_later():
    # P(win | before trip k) = sum over the trip's swings s of P(s) P(win | after k, +s).
    live = LiveOdds(HOME, AWAY, rules=ADVANCED)
    walk = Walk(HOME, AWAY, ADVANCED, False, None, None)
    regulation, overtimes = walk.periods()
    for period, trips in ((0, regulation.trips), (1, overtimes[0].trips)):
        for k in sorted({0, 1, 11, len(trips) // 2 + 1, len(trips) - 1}):
            home_has_ball, key = trips[k]
            swing, zero = margin_swing(walk.laws[key], home_has_ball)
            for margin in (-7, -1, 0, 2):
                expected = sum(
                    p * live.p_home_win(period, k + 1, margin + i - zero)
                    for i, p in enumerate(swing.tolist())
                    if p
                )
                assert live.p_home_win(period, k, margin) == pytest.approx(expected, abs=1e-12)


def test_after_the_last_trip_the_leader_has_won_and_a_tie_goes_to_overtime():
    live = LiveOdds(HOME, AWAY, rules=ADVANCED)
    end = live.trips_in(0)
    assert end == 88
    assert live.p_home_win(0, end, 1) == 1.0
    assert live.p_home_win(0, end, -1) == 0.0
    assert 0.0 < live.p_home_win(0, end, 0) < 1.0
    assert live.p_home_win(0, 80, 30) > 0.999999
    assert live.p_home_win(0, 80, -30) < 1e-6


def test_with_the_coach_policy_on_no_exact_answer_is_claimed():
    with pytest.raises(StrategyNotSolvedError):
        LiveOdds(HOME, AWAY, rules=preset("advanced", strategy=True))
