"""Six dice's exact odds (simulator/sixdice/odds.py) against the engine itself.

The chain is solved from the dice math; here the engine plays seeded games from the same
positions and every figure must fall within four standard errors of the exact one, for
the standard rules, the chip reroll, another printing of the dice and the Deflected Pass's
old penalty (rules version 1). The positions the chain reads from a stored game must be the
very positions the engine passed through.
"""

from __future__ import annotations

import math
import statistics

import pytest

from simulator import SeededDice
from simulator.games import TeamName, find_game
from simulator.sixdice import play_game
from simulator.sixdice.engine import Table
from simulator.sixdice.odds import SixDiceOdds, exact_odds, solved, states_before_rolls
from simulator.sixdice.rules import CHIP_REROLL, STANDARD, SixDiceRules
from simulator.sixdice.state import AWAY, HOME, GameState

Z = 4.0
"""Four standard errors: with the dozen comparisons below, a false alarm is below 1 in 1,000."""

LOPSIDED = GameState.main_roll(HOME, 3, AWAY, away_score=14, home_score=9)
"""Home trailing 9-14 with the ball at depth 3, the visitor holding the chip."""

RULE_SETS = {
    "standard": STANDARD,
    "chip reroll": CHIP_REROLL,
    "two Pass faces": SixDiceRules(faces="BBPPSF"),
    "version 1": SixDiceRules.from_json({"version": 1}),
}


def within(measured: float, exact: float, se: float) -> bool:
    return abs(measured - exact) <= Z * se


def test_the_law_of_the_final_score_adds_up_and_is_fair_between_home_and_visitor() -> None:
    odds = exact_odds()
    assert odds.method == "exact" and odds.standard_error == 0.0
    assert sum(odds.final.values()) == pytest.approx(1.0, abs=1e-9)
    # §1.3: no home advantage; the jump ball is a coin flip, so the law is symmetric.
    assert odds.p_home_win == pytest.approx(0.5, abs=1e-9)
    for (home, away), p in odds.final.items():
        assert max(home, away) in (21, 22, 23) and min(home, away) <= 20
        assert odds.final.get((away, home), 0.0) == pytest.approx(p, abs=1e-9)
    assert odds.expected_home_pts == pytest.approx(odds.expected_away_pts)


def test_a_team_a_roll_from_winning_is_almost_sure_and_a_finished_game_is_certain() -> None:
    chain = solved(STANDARD)
    assert chain.p_home_win(GameState.main_roll(HOME, 7, AWAY, away_score=0, home_score=20)) > 0.9
    over = GameState("over", HOME, 10, AWAY, away_score=21, home_score=18)
    assert chain.p_home_win(over) == 0.0
    assert chain.final_law(over) == {(18, 21): 1.0}


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_the_engine_from_a_lopsided_position_matches_the_exact_odds(name: str) -> None:
    rules = RULE_SETS[name]
    chain = SixDiceOdds(rules)
    p = chain.p_home_win(LOPSIDED)
    law = chain.final_law(LOPSIDED)
    assert sum(law.values()) == pytest.approx(1.0, abs=1e-9)
    assert sum(q for (h, a), q in law.items() if h > a) == pytest.approx(p, abs=1e-9)
    games = 800
    home_won, home_scores = 0, []
    for i in range(games):
        table = Table(SeededDice(7_000_000 + i), rules=rules, start=LOPSIDED)
        table.play()
        home_won += table.state.home_score > table.state.away_score
        home_scores.append(table.state.home_score)
    assert within(home_won / games, p, math.sqrt(p * (1 - p) / games)), (home_won / games, p)
    mean = sum(h * q for (h, _), q in law.items())
    sd = math.sqrt(sum((h - mean) ** 2 * q for (h, _), q in law.items()))
    assert within(statistics.fmean(home_scores), mean, sd / math.sqrt(games))


def test_whole_games_of_the_engine_follow_the_law_of_the_final_score() -> None:
    """A chi-square over the loser's score and the winner's (21, 22 or 23)."""
    law = exact_odds().final
    bins = [range(0, 12), range(12, 15), range(15, 17), range(17, 19), range(19, 20), range(20, 21)]

    def cell(home: int, away: int) -> tuple[int, bool]:
        loser = min(home, away)
        return next(i for i, b in enumerate(bins) if loser in b), max(home, away) > 21

    expected: dict[tuple[int, bool], float] = {}
    for (home, away), p in law.items():
        expected[cell(home, away)] = expected.get(cell(home, away), 0.0) + p
    games = 1200
    seen: dict[tuple[int, bool], int] = {}
    for i in range(games):
        result = play_game(TeamName("H", 1), TeamName("A", 1), SeededDice(9_000_000 + i))
        key = cell(result.home.score, result.away.score)
        seen[key] = seen.get(key, 0) + 1
    chi2 = sum((seen.get(k, 0) - games * p) ** 2 / (games * p) for k, p in expected.items())
    assert min(games * p for p in expected.values()) > 5  # the test's own assumption
    # 11 degrees of freedom (12 cells): P(chi2 > 31.26) = 0.001.
    assert chi2 < 31.26, (chi2, seen)


def test_the_positions_read_from_a_stored_game_are_those_the_engine_played() -> None:
    for seed in range(12):
        table = Table(SeededDice(seed), rules=CHIP_REROLL if seed % 2 else STANDARD)
        before = []
        while not table.over:
            before.append((len(table.events), table.state))
            table.step()
        events = [e.to_json() for e in table.events]
        assert [(i, s) for i, s in states_before_rolls(events)] == [
            (i, s) for i, s in before if s.phase != "jump" or i == 0
        ]


def test_the_game_hook_answers_a_played_games_chance_before_every_roll() -> None:
    game = find_game("sixdice")
    assert game.has_odds and not game.odds_read_teams
    result = game.play(TeamName("H", 1), TeamName("A", 1), SeededDice(3))
    events = [e.to_json() for e in result.events]
    points = game.win_probability(events, result.rules)
    assert points is not None
    assert events[points[0][0]]["type"] == "jump_ball"
    assert points[0][1] == pytest.approx(0.5)
    assert all(0.0 <= p <= 1.0 for _, p in points)
    rolls = sum(1 for e in events if e["type"] == "main_roll")
    assert len(points) > rolls  # the jump ball, every main roll, every inbound race
