"""The challenge's arithmetic (pure): live scores, and the exact expected score checked
against every outcome of small brackets enumerated one by one."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from challenge import scoring
from league import bracket as brackets


def enumerate_outcomes(bracket, index, p):
    """Yield (winners {key: team}, probability) for every way the bracket can go."""
    games = sorted(bracket.games, key=lambda g: g.round)
    for choice in itertools.product((0, 1), repeat=len(games)):
        winners: dict[str, int] = {}
        prob = 1.0
        for game, c in zip(games, choice, strict=True):
            top, bottom = brackets.entrants(bracket, winners)[game.key]
            q = p[index[top], index[bottom]]
            winners[game.key] = top if c == 0 else bottom
            prob *= q if c == 0 else 1.0 - q
        yield winners, prob


def random_picks(bracket, rng, count):
    """Brackets filled at random (each consistent with itself)."""
    out = []
    for _ in range(count):
        picks: dict[str, int] = {}
        for game in sorted(bracket.games, key=lambda g: g.round):
            top, bottom = brackets.entrants(bracket, picks)[game.key]
            picks[game.key] = top if rng.random() < 0.5 else bottom
        out.append(picks)
    return out


@pytest.mark.parametrize("teams", [4, 6, 8])
def test_the_expected_score_is_the_mean_over_every_outcome_of_the_bracket(teams) -> None:
    rng = np.random.default_rng(teams)
    bracket = brackets.bracket_for_field(list(range(101, 101 + teams)))
    order = sorted(bracket.seeds, key=bracket.seeds.get)
    index = {t: i for i, t in enumerate(order)}
    p = rng.uniform(0.05, 0.95, size=(teams, teams))
    p = np.triu(p, 1) + np.tril(1.0 - p.T, -1)  # P(i beats j) + P(j beats i) = 1
    np.fill_diagonal(p, 0.5)
    round_points = [1, 3, 7][: bracket.rounds]
    keys = scoring.game_keys(bracket)
    points = scoring.game_points(bracket, round_points)
    picks = random_picks(bracket, rng, 25)
    picks[0] = {k: v for k, v in list(picks[0].items())[:2]}  # a half-filled entry
    matrix = scoring.picks_matrix(picks, keys, index)

    laws = scoring.game_law_matrix(bracket, {}, index, p)
    closed = scoring.expected_scores(matrix, laws, points)

    brute = np.zeros(len(picks))
    total = 0.0
    rounds = {g.key: g.round for g in bracket.games}
    for winners, prob in enumerate_outcomes(bracket, index, p):
        total += prob
        for e, entry in enumerate(picks):
            brute[e] += prob * sum(
                round_points[rounds[k] - 1] for k, t in entry.items() if winners[k] == t
            )
    assert total == pytest.approx(1.0)
    np.testing.assert_allclose(closed, brute, rtol=1e-12, atol=1e-12)


def test_the_expected_score_after_a_result_counts_that_game_as_decided() -> None:
    bracket = brackets.bracket_for_field([1, 2, 3, 4])
    index = {1: 0, 2: 1, 3: 2, 4: 3}
    p = np.full((4, 4), 0.5)
    keys = scoring.game_keys(bracket)
    points = scoring.game_points(bracket, [1, 2])
    picks = scoring.picks_matrix([{"R1-1": 1, "R1-2": 2, "R2-1": 1}], keys, index)
    before = scoring.expected_scores(picks, scoring.game_law_matrix(bracket, {}, index, p), points)
    assert before[0] == pytest.approx(0.5 + 0.5 + 2 * 0.25)
    won = scoring.game_law_matrix(bracket, {"R1-1": 1}, index, p)
    assert scoring.expected_scores(picks, won, points)[0] == pytest.approx(1 + 0.5 + 2 * 0.5)
    lost = scoring.game_law_matrix(bracket, {"R1-1": 4}, index, p)
    assert scoring.expected_scores(picks, lost, points)[0] == pytest.approx(0 + 0.5 + 0)


def test_live_scores_count_points_the_most_still_reachable_and_the_picks_alive() -> None:
    bracket = brackets.bracket_for_field([1, 2, 3, 4])  # R1-1: 1 v 4, R1-2: 2 v 3
    index = {1: 0, 2: 1, 3: 2, 4: 3}
    keys = scoring.game_keys(bracket)
    points = scoring.game_points(bracket, [1, 2])
    picks = scoring.picks_matrix(
        [
            {"R1-1": 1, "R1-2": 2, "R2-1": 1},  # right so far, champion alive
            {"R1-1": 4, "R1-2": 2, "R2-1": 4},  # champion out in the first game
            {"R1-1": 1, "R1-2": 99, "R2-1": 1},  # 99: a team no longer in the bracket
        ],
        keys,
        index,
    )
    winners = np.array([index[1], -1, -1])  # 1 beat 4; the rest unplayed
    eliminated = np.array([False, False, False, True])
    s = scoring.live_scores(picks, winners, eliminated, points)
    assert s.points.tolist() == [1, 0, 1]
    assert s.max_points.tolist() == [4, 1, 3]
    assert s.alive.tolist() == [2, 1, 1]
    assert s.correct.tolist() == [1, 0, 1]


def test_the_simulated_win_chances_match_an_enumeration_within_their_error() -> None:
    bracket = brackets.bracket_for_field(list(range(1, 9)))
    index = {t: t - 1 for t in range(1, 9)}
    rng = np.random.default_rng(5)
    p = rng.uniform(0.2, 0.8, size=(8, 8))
    p = np.triu(p, 1) + np.tril(1.0 - p.T, -1)
    np.fill_diagonal(p, 0.5)
    keys = scoring.game_keys(bracket)
    points = scoring.game_points(bracket, [1, 2, 4])
    picks_list = random_picks(bracket, rng, 6)
    picks = scoring.picks_matrix(picks_list, keys, index)
    exact = np.zeros(len(picks_list))
    for winners, prob in enumerate_outcomes(bracket, index, p):
        w = np.array([index[winners[k]] for k in keys])
        s = scoring.live_scores(picks, w, np.zeros(8, bool), points).points
        top = s == s.max()
        exact += prob * top / top.sum()
    outcomes = scoring.simulate_winners(bracket, {}, index, p, samples=20000, seed=3)
    prob, error = scoring.win_probabilities(picks, outcomes, points)
    assert prob.sum() == pytest.approx(1.0)
    assert np.all(np.abs(prob - exact) <= 4 * error + 1e-9), (prob, exact, error)


def test_brackets_level_in_every_draw_share_it_with_no_error() -> None:
    """Three identical brackets share every draw: each wins exactly a third, but the page
    showed "33.3% ± 1.1" (the error of a yes-or-no draw, not of a shared one)."""
    bracket = brackets.bracket_for_field(list(range(1, 9)))
    index = {t: t - 1 for t in range(1, 9)}
    keys = scoring.game_keys(bracket)
    points = scoring.game_points(bracket, [1, 2, 4])
    same = random_picks(bracket, np.random.default_rng(2), 1) * 3
    other = random_picks(bracket, np.random.default_rng(9), 1)
    p = np.full((8, 8), 0.5)
    outcomes = scoring.simulate_winners(bracket, {}, index, p, samples=2000, seed=4)
    prob, error = scoring.win_probabilities(
        scoring.picks_matrix(same, keys, index), outcomes, points
    )
    np.testing.assert_allclose(prob, [1 / 3] * 3)
    np.testing.assert_allclose(error, [0.0] * 3, atol=1e-9)  # the sums' round-off alone
    # With one winner a draw, the error is a yes-or-no draw's, sqrt(p (1 - p) / S).
    both = scoring.picks_matrix([same[0], *other], keys, index)
    prob, error = scoring.win_probabilities(both, outcomes, points)
    assert prob.sum() == pytest.approx(1.0)
    assert np.all(error <= np.sqrt(prob * (1 - prob) / 2000) + 1e-12)


def test_pick_rows_read_back_as_the_picks_matrix() -> None:
    bracket = brackets.bracket_for_field([11, 22, 33, 44])
    keys = scoring.game_keys(bracket)
    index = {11: 0, 22: 1, 33: 2, 44: 3}
    picks = [{"R1-1": 11, "R1-2": 33, "R2-1": 33}, {}, {"R1-1": 44, "R1-2": 77}]
    rows = [scoring.pick_row(p, keys) for p in picks]
    np.testing.assert_array_equal(
        scoring.rows_matrix(rows, len(keys), index), scoring.picks_matrix(picks, keys, index)
    )
    assert scoring.rows_matrix([], len(keys), index).shape == (0, len(keys))
