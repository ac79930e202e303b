"""A season's odds order the teams as its standings do (league/season_sampling.py)."""

from __future__ import annotations

import numpy as np
import pytest

from league import odds
from league.models import Game
from league.season_sampling import Left, Played, groups_of, place_rows, sample_places
from league.selectors import standings_for_season
from tests import factories
from tests.league.test_other_games import play_all


def played(home: int, away: int, home_won: bool, conference: bool = True) -> Played:
    return Played(home, away, home_won, conference)


def test_a_conference_is_won_on_the_conference_record_not_on_overall_wins() -> None:
    # Team 0: 1-1 in conference, 3 cross-conference wins (4-1 overall).
    # Team 1: 2-0 in conference, 1 cross-conference loss (2-1 overall): it wins the
    # conference, as the standings say, though team 0 has more wins.
    games = [
        played(1, 0, True),
        played(0, 2, True),
        played(1, 2, True),
        *(played(0, 3, True, conference=False) for _ in range(3)),
        played(1, 3, False, conference=False),
    ]
    groups = {"East": [0, 1, 2], "West": [3]}
    for left in ([], [Left(2, 3, 0.5, False)]):  # finished, or one cross game to come
        got = sample_places(4, groups, games, left, seasons=2_000, rng=np.random.default_rng(1))
        assert got.places[1, 0] == 1.0 and got.places[0, 1] == 1.0 and got.places[2, 2] == 1.0


def test_a_finished_season_s_odds_rows_read_in_the_standings_order_not_by_wins() -> None:
    # East: 1 wins the conference 2-0 in it; 2 (0-2 in conference, 4 cross-conference wins,
    # so 4-2) is third behind 0 (1-1), though 2 has won more games than 0 (1-1 overall).
    games = [
        played(1, 0, True),
        played(0, 2, True),
        played(1, 2, True),
        *(played(2, 3, True, conference=False) for _ in range(4)),
    ]
    groups = {"East": [0, 1, 2], "West": [3]}
    got = sample_places(4, groups, games, [], seasons=500, rng=np.random.default_rng(3))
    teams = [(10, "Zero", "East"), (11, "One", "East"), (12, "Two", "East"), (13, "Three", "West")]
    rows = place_rows(teams, groups, games, got)
    east = [r for r in rows if r["conference"] == "East"]
    assert [r["team_id"] for r in east] == [11, 10, 12]  # 1st, 2nd, 3rd: not 11, 12, 10
    assert [r["wins"] for r in east] == [2, 1, 4]


def test_teams_level_on_the_conference_record_are_split_by_the_overall_record() -> None:
    # 0 and 1 split their conference games 1-1 each (a three-way circle with 2), 0 has
    # an extra cross-conference win: 0 ahead of 1 on the overall record every time.
    games = [
        played(0, 1, True),
        played(1, 2, True),
        played(2, 0, True),
        played(0, 3, True, conference=False),
    ]
    got = sample_places(
        4, {"A": [0, 1, 2], "B": [3]}, games, [], seasons=1_000, rng=np.random.default_rng(2)
    )
    assert got.places[0, 0] == 1.0
    # 1 and 2 are level on both records: a coin flip, about half each.
    assert got.places[1, 1] == pytest.approx(0.5, abs=0.06)
    assert got.places[1, 1] + got.places[2, 1] == pytest.approx(1.0)


def test_without_conferences_the_overall_record_orders_and_a_sure_game_counts() -> None:
    # One group, "": 0 has won twice and surely loses its last game (P(home) = 1): 2-1,
    # ahead of 1 (1-1) and 2 (1-2) on win percentage, whatever the number of games.
    games = [played(0, 2, True, False), played(0, 1, True, False), played(1, 2, True, False)]
    got = sample_places(
        3,
        groups_of(["", "", ""]),
        games,
        [Left(2, 0, 1.0, False)],
        seasons=4_000,
        rng=np.random.default_rng(3),
    )
    assert got.expected_wins.tolist() == pytest.approx([2.0, 1.0, 1.0])
    assert got.places[0, 0] == 1.0


@pytest.mark.django_db
@pytest.mark.parametrize("game", ["sixdice", "vabg"])
def test_a_finished_seasons_odds_are_its_final_standings(game, django_capture_on_commit_callbacks):
    # Two conferences of three, two cross-conference games a team: the conference record
    # and overall wins can disagree, and the odds page must read as the tables do.
    teams = [(factories.full_team if game == "vabg" else factories.TeamFactory)() for _ in range(6)]
    season = factories.make_season(
        teams=teams,
        game=game,
        seed=11,
        name=f"Conf {game}",
        conferences={t.pk: ("East" if i < 3 else "West") for i, t in enumerate(teams)},
        cross_conference_games=2,
        strategy=False,
    )
    play_all(season, django_capture_on_commit_callbacks)
    assert not season.games.exclude(status=Game.Status.FINAL).exists()
    result = odds.season_odds(season, seasons=500)
    assert result["games_left"] == 0
    by_team = {row["team_id"]: row for row in result["teams"]}
    for _conference, rows in standings_for_season(season_id=season.pk):
        for place, row in enumerate(rows):
            expected = [0.0] * len(rows)
            expected[place] = 1.0
            assert by_team[row["team_id"]]["places"] == expected, (row["team"], place)
    assert "conference record" in result["tiebreak"]
