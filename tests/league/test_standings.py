"""Standings: records, games behind, streaks, and the tiebreakers in their order."""

from __future__ import annotations

import random
from datetime import date, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league.standings import (
    COIN_FLIP,
    CONFERENCE_RECORD,
    HEAD_TO_HEAD,
    POINT_DIFFERENCE,
    FinishedGame,
    Record,
    StandingsError,
    compute_standings,
)
from tests.league import assert_doctests_pass, assert_pure

A, B, C, D, X = 1, 2, 3, 4, 99
DAY = date(2026, 1, 5)


def won(winner, loser, *, margin=5, home=True, conference=False, neutral=False, day=0):
    """A game ``winner`` won by ``margin``; ``home`` says whether the winner was at home."""
    high, low = 70 + margin, 70
    game_date = DAY + timedelta(days=day)
    if home:
        return FinishedGame(winner, loser, high, low, neutral, conference, day, game_date)
    return FinishedGame(loser, winner, low, high, neutral, conference, day, game_date)


def order(rows):
    return [row.team_id for row in rows]


def labels(rows):
    return {row.team_id: row.tiebreaker for row in rows}


def row_of(rows, team):
    (row,) = (r for r in rows if r.team_id == team)
    return row


# -- counting ------------------------------------------------------------------------------


def test_a_row_counts_wins_losses_splits_and_points():
    games = [
        won(A, B, margin=10, home=True, conference=True, day=1),  # A 80-70 at home
        won(A, C, margin=3, home=False, day=2),  # A 73-70 away
        won(D, A, margin=1, neutral=True, day=3),  # A 70-71 on a neutral court
        won(B, A, margin=2, home=False, conference=True, day=4),  # A 70-72 at home
    ]
    rows = compute_standings(games, seed=1)
    a = row_of(rows, A)
    assert (a.wins, a.losses, a.games) == (2, 2, 4)
    assert a.win_pct == 0.5
    assert (str(a.home), str(a.away), str(a.neutral), str(a.conference)) == (
        "1-1",
        "1-0",
        "0-1",
        "1-1",
    )
    assert (a.points_for, a.points_against) == (80 + 73 + 70 + 70, 70 + 70 + 71 + 72)
    assert a.point_difference == 10 + 3 - 1 - 2
    assert str(row_of(rows, D).neutral) == "1-0"
    assert row_of(rows, D).home == Record(0, 0)
    assert [r.rank for r in rows] == [1, 2, 3, 4]


def test_teams_are_ordered_by_win_percentage_and_untied_rows_name_no_tiebreaker():
    games = [won(A, B), won(A, C), won(A, D), won(B, C), won(B, D), won(D, C, day=1)]
    rows = compute_standings(games, seed=1)
    assert order(rows) == [A, B, D, C]  # 3-0, 2-1, 1-2, 0-3
    assert [r.win_pct for r in rows] == [1.0, 2 / 3, 1 / 3, 0.0]
    assert [r.tiebreaker for r in rows] == [None] * 4


def test_games_behind_count_half_games_from_the_leader():
    games = (
        [won(A, X, day=d) for d in range(5)]
        + [won(X, A, day=5)]  # A 5-1
        + [won(B, X, day=d) for d in range(4)]  # B 4-0
        + [won(C, X, day=d) for d in range(4)]
        + [won(X, C, day=d) for d in range(4, 6)]  # C 4-2
        + [won(D, X, day=d) for d in range(2)]
        + [won(X, D, day=d) for d in range(2, 6)]  # D 2-4
    )
    rows = compute_standings(games, seed=1, team_ids=[A, B, C, D])
    assert order(rows) == [B, A, C, D]
    assert [r.games_behind for r in rows] == [0.0, 0.0, 1.0, 3.0]
    # A leader on percentage with fewer games can trail a team on games behind.
    games = [won(A, X)] + [won(B, X, day=d) for d in range(9)] + [won(X, B, day=9)]
    rows = compute_standings(games, seed=1, team_ids=[A, B])
    assert [(r.team_id, r.games_behind) for r in rows] == [(A, 0.0), (B, -3.5)]


def test_the_streak_is_the_current_run_in_date_order_not_list_order():
    games = [
        won(A, B, day=4),
        won(B, A, day=1),
        won(A, C, day=3),
        won(A, D, day=2),
        won(C, B, day=5),
    ]
    random.Random(3).shuffle(games)
    rows = compute_standings(games, seed=1)
    assert row_of(rows, A).streak == "W3"
    assert row_of(rows, B).streak == "L2"
    assert row_of(rows, C).streak == "W1"
    assert row_of(rows, D).streak == "L1"


def test_within_a_date_the_round_then_the_list_order_decides_the_streak():
    same_day = [
        FinishedGame(A, B, 60, 50, round=2, game_date=DAY),
        FinishedGame(A, C, 50, 60, round=1, game_date=DAY),
    ]
    assert row_of(compute_standings(same_day, seed=1), A).streak == "W1"
    undated = [FinishedGame(A, B, 60, 50), FinishedGame(A, C, 50, 60)]
    assert row_of(compute_standings(undated, seed=1), A).streak == "L1"


def test_a_listed_team_without_games_is_0_0_with_no_streak():
    rows = compute_standings([won(A, B)], seed=1, team_ids=[A, B, C])
    c = row_of(rows, C)
    assert (c.wins, c.losses, c.win_pct, c.streak, c.points_for) == (0, 0, 0.0, "", 0)
    assert compute_standings([], seed=1) == []


# -- two-team ties, one per tiebreaker ------------------------------------------------------


def test_a_two_team_tie_goes_to_the_head_to_head_winner():
    games = [won(B, A, margin=1, day=1), won(A, X, margin=30), won(X, B, day=2)]
    rows = compute_standings(games, seed=1, team_ids=[A, B])
    assert order(rows) == [B, A]  # 1-1 each; A has the better point difference but lost to B
    assert labels(rows) == {A: HEAD_TO_HEAD, B: HEAD_TO_HEAD}


def test_a_two_team_tie_with_a_split_series_goes_to_the_conference_record():
    games = [
        won(A, B, margin=1, conference=True, day=1),
        won(B, A, margin=1, conference=True, day=2),
        won(A, X, conference=True, day=3),
        won(X, A, margin=20, day=4),
        won(B, X, margin=20, day=3),
        won(X, B, conference=True, day=4),
    ]
    rows = compute_standings(games, seed=1, team_ids=[A, B])
    assert [(str(r.conference), r.point_difference) for r in rows] == [("2-1", -15), ("1-2", 15)]
    assert order(rows) == [A, B]
    assert labels(rows) == {A: CONFERENCE_RECORD, B: CONFERENCE_RECORD}


def test_two_teams_that_never_met_skip_head_to_head():
    games = [won(A, X, conference=True), won(X, A, day=1), won(B, X), won(X, B, day=1)]
    rows = compute_standings(games, seed=1, team_ids=[B, A])
    assert order(rows) == [A, B]
    assert labels(rows) == {A: CONFERENCE_RECORD, B: CONFERENCE_RECORD}


def test_a_two_team_tie_level_on_conference_record_goes_to_the_point_difference():
    games = [
        won(A, B, margin=2, day=1),
        won(B, A, margin=1, day=2),
        won(A, X, margin=10, conference=True, day=3),
        won(X, A, margin=10, conference=True, day=4),
        won(B, X, margin=10, conference=True, day=3),
        won(X, B, margin=12, conference=True, day=4),
    ]
    rows = compute_standings(games, seed=1, team_ids=[B, A])
    assert order(rows) == [A, B]
    assert [r.point_difference for r in rows] == [1, -3]
    assert labels(rows) == {A: POINT_DIFFERENCE, B: POINT_DIFFERENCE}


def test_a_two_team_tie_level_on_everything_goes_to_a_coin_flip_fixed_by_the_seed():
    games = [won(A, B, margin=4, day=1), won(B, A, margin=4, day=2)]
    orders = {tuple(order(compute_standings(games, seed=seed))) for seed in range(40)}
    assert orders == {(A, B), (B, A)}  # both sides win some flips
    for seed in range(10):
        first = compute_standings(games, seed=seed)
        again = compute_standings(list(reversed(games)), seed=seed)
        assert order(first) == order(again)
        assert labels(first) == {A: COIN_FLIP, B: COIN_FLIP}


# -- three-way ties ------------------------------------------------------------------------


def cycle(conference_winner=None):
    """A beat B, B beat C, C beat A; each also splits two games with X."""
    games = [won(A, B, day=1), won(B, C, day=2), won(C, A, day=3)]
    for day, team in enumerate((A, B, C), start=4):
        games += [
            won(team, X, day=day, conference=team == conference_winner),
            won(X, team, day=day + 10),
        ]
    return games


def test_a_three_way_cycle_leaves_head_to_head_level_and_falls_to_the_conference_record():
    games = cycle(conference_winner=A)
    games.append(won(X, C, conference=True, day=30))
    games.append(won(C, X, day=31))  # C stays level overall, but 0-1 in conference
    rows = compute_standings(games, seed=1, team_ids=[C, B, A])
    assert [str(r.conference) for r in rows] == ["1-0", "0-0", "0-1"]
    assert order(rows) == [A, B, C]
    assert labels(rows) == {A: CONFERENCE_RECORD, B: CONFERENCE_RECORD, C: CONFERENCE_RECORD}


def test_after_a_split_the_teams_still_tied_start_again_from_their_own_head_to_head():
    # The cycle leaves all three 1-1 among themselves; A's conference win sets A apart;
    # B and C are still level (no conference games: .500), so their own game decides.
    rows = compute_standings(cycle(conference_winner=A), seed=1, team_ids=[C, B, A])
    assert order(rows) == [A, B, C]
    assert labels(rows) == {A: CONFERENCE_RECORD, B: HEAD_TO_HEAD, C: HEAD_TO_HEAD}


def test_a_three_way_tie_won_outright_on_head_to_head_places_everyone_by_it():
    games = [won(A, B), won(A, C, day=1), won(B, C, day=2)]  # A 2-0, B 1-1, C 0-2 among them
    games += [won(X, A, day=d) for d in range(3, 5)] + [won(X, B, day=5), won(B, X, day=6)]
    games += [won(C, X, day=d) for d in range(6, 8)]
    rows = compute_standings(games, seed=1, team_ids=[A, B, C])
    assert [(r.wins, r.losses) for r in rows] == [(2, 2)] * 3
    assert order(rows) == [A, B, C]
    assert labels(rows) == dict.fromkeys((A, B, C), HEAD_TO_HEAD)


def test_a_three_way_tie_level_on_everything_is_settled_by_coin_flips_alone():
    games = [won(A, B, day=1), won(B, C, day=2), won(C, A, day=3)]
    rows = compute_standings(games, seed=5)
    assert sorted(order(rows)) == [A, B, C]
    assert labels(rows) == dict.fromkeys((A, B, C), COIN_FLIP)
    assert order(compute_standings(games, seed=5)) == order(rows)


# -- properties ----------------------------------------------------------------------------


@st.composite
def seasons(draw):
    teams = draw(st.integers(min_value=2, max_value=8))
    count = draw(st.integers(min_value=0, max_value=30))
    games = []
    for day in range(count):
        home, away = draw(st.lists(st.integers(1, teams), min_size=2, max_size=2, unique=True))
        home_score = draw(st.integers(40, 100))
        away_score = draw(st.integers(40, 100).filter(lambda s, h=home_score: s != h))
        neutral, conference = draw(st.booleans()), draw(st.booleans())
        games.append(
            FinishedGame(home, away, home_score, away_score, neutral, conference, day % 3, DAY)
        )
    return list(range(1, teams + 1)), games


@settings(deadline=None)
@given(season=seasons(), seed=st.integers(0, 2**32))
def test_any_season_gives_consistent_standings(season, seed):
    teams, games = season
    rows = compute_standings(games, seed=seed, team_ids=teams)
    assert sorted(order(rows)) == teams
    assert [r.rank for r in rows] == list(range(1, len(teams) + 1))
    assert sum(r.wins for r in rows) == sum(r.losses for r in rows) == len(games)
    assert sum(r.points_for for r in rows) == sum(r.points_against for r in rows)
    pcts = [r.win_pct for r in rows]
    assert pcts == sorted(pcts, reverse=True)
    for row in rows:
        tied = sum(1 for r in rows if r.win_pct == row.win_pct) > 1
        assert (row.tiebreaker is not None) == tied
        assert row.home.games + row.away.games + row.neutral.games == row.games
        if row.games:
            letter, run = row.streak[0], int(row.streak[1:])
            assert letter in "WL" and 1 <= run <= row.games
    assert compute_standings(games, seed=seed, team_ids=teams) == rows


# -- bad input -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("games", "team_ids", "message"),
    [
        (
            [FinishedGame(A, B, 60, 60)],
            None,
            "game 0 (1 v 2): a finished game has a winner, got a tie 60-60",
        ),
        (
            [won(A, B), FinishedGame(A, B, -1, 50)],
            None,
            "game 1 (1 v 2): home_score must be 0 or more, got -1",
        ),
        ([FinishedGame(A, A, 60, 50)], None, "a team cannot play itself, team id 1"),
        ([won(A, B)], [A, B, A], "repeated: [1]"),
    ],
)
def test_bad_input_raises_a_standings_error_that_names_the_value(games, team_ids, message):
    with pytest.raises(StandingsError) as caught:
        compute_standings(games, seed=1, team_ids=team_ids)
    assert message in str(caught.value)


def test_the_module_is_pure_and_its_examples_hold():
    assert_pure("league.standings")
    assert_doctests_pass("league.standings")
