"""Round-robin and cross-conference schedules: who meets whom, where, and when."""

from __future__ import annotations

import random
from collections import Counter
from datetime import date, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league.scheduling import (
    ScheduledGame,
    ScheduleError,
    build_round_robin_schedule,
    build_schedule,
    conference_groups,
    cross_conference_rounds,
    round_robin_rounds,
)
from tests.league import assert_doctests_pass, assert_pure

START = date(2025, 11, 3)


def meetings(rounds):
    return Counter(frozenset(pair) for pairs in rounds for pair in pairs)


def venues(rounds):
    home, away = Counter(), Counter()
    for pairs in rounds:
        for h, a in pairs:
            home[h] += 1
            away[a] += 1
    return home, away


def idle(rounds, teams):
    return [set(teams) - {t for pair in pairs for t in pair} for pairs in rounds]


def assert_no_team_twice_in_a_round(rounds):
    for number, pairs in enumerate(rounds, start=1):
        playing = [t for pair in pairs for t in pair]
        assert len(playing) == len(set(playing)), f"round {number}: {pairs}"


def conferences_of(*sizes):
    ids = iter(range(1, 1 + sum(sizes)))
    return {f"C{i}": [next(ids) for _ in range(size)] for i, size in enumerate(sizes)}


# -- round robin ---------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(2, 21))
def test_a_single_round_robin_has_every_pair_meet_once_with_home_and_away_within_one(n):
    teams = list(range(101, 101 + n))
    rounds = round_robin_rounds(teams)
    assert len(rounds) == n - 1 + n % 2
    assert_no_team_twice_in_a_round(rounds)
    met = meetings(rounds)
    assert len(met) == n * (n - 1) // 2
    assert set(met.values()) == {1}
    home, away = venues(rounds)
    assert all(abs(home[t] - away[t]) <= 1 for t in teams)
    if n % 2:  # an odd count: everyone plays (n - 1) / 2 at home and as many away
        assert all(home[t] == away[t] for t in teams)


@pytest.mark.parametrize("n", range(2, 21))
def test_a_double_round_robin_has_every_pair_meet_once_at_each_home(n):
    teams = list(range(1, n + 1))
    rounds = round_robin_rounds(teams, double=True)
    assert len(rounds) == 2 * (n - 1 + n % 2)
    assert_no_team_twice_in_a_round(rounds)
    ordered = Counter(pair for pairs in rounds for pair in pairs)
    assert ordered == Counter({(a, b): 1 for a in teams for b in teams if a != b})
    home, away = venues(rounds)
    assert all(home[t] == away[t] == n - 1 for t in teams)


@pytest.mark.parametrize("n", [3, 5, 7, 9, 15, 19])
def test_with_an_odd_count_the_bye_rotates_through_every_team_once_a_cycle(n):
    teams = list(range(1, n + 1))
    single = round_robin_rounds(teams)
    byes = idle(single, teams)
    assert all(len(b) == 1 for b in byes)
    assert sorted(next(iter(b)) for b in byes) == teams
    double = round_robin_rounds(teams, double=True)
    assert Counter(next(iter(b)) for b in idle(double, teams)) == Counter(dict.fromkeys(teams, 2))


@pytest.mark.parametrize("n", [4, 6, 10, 20])
def test_with_an_even_count_nobody_rests(n):
    teams = list(range(1, n + 1))
    assert all(not b for b in idle(round_robin_rounds(teams, double=True), teams))


@settings(deadline=None)
@given(
    teams=st.lists(
        st.integers(min_value=1, max_value=10_000), min_size=2, max_size=20, unique=True
    ),
    double=st.booleans(),
)
def test_any_field_of_2_to_20_teams_gets_a_valid_round_robin(teams, double):
    rounds = round_robin_rounds(teams, double=double)
    n = len(teams)
    assert_no_team_twice_in_a_round(rounds)
    assert len(rounds) == (2 if double else 1) * (n - 1 + n % 2)
    assert all(len(pairs) == n // 2 for pairs in rounds)
    met = meetings(rounds)
    assert set(met) == {frozenset((a, b)) for a in teams for b in teams if a != b}
    assert set(met.values()) == {2 if double else 1}
    home, away = venues(rounds)
    for t in teams:
        assert home[t] == away[t] if double else abs(home[t] - away[t]) <= 1
    if n % 2:
        byes = Counter(next(iter(b)) for b in idle(rounds, teams))
        assert byes == Counter(dict.fromkeys(teams, 2 if double else 1))


def test_the_order_of_the_ids_decides_the_pairings_and_the_result_is_repeatable():
    assert round_robin_rounds([1, 2, 3, 4]) == round_robin_rounds([1, 2, 3, 4])
    assert round_robin_rounds([1, 2, 3, 4]) != round_robin_rounds([4, 3, 2, 1])


# -- cross-conference games ----------------------------------------------------------------


CROSS_CASES = [
    ((4, 4), 1),
    ((4, 4), 4),
    ((5, 5, 5), 2),
    ((5, 5, 5), 10),
    ((3, 4, 5), 4),
    ((6, 6), 3),
    ((7, 7, 7, 7, 7, 7), 5),
    ((8, 8, 8, 8), 7),
    ((2, 2, 2), 3),
    ((12, 12), 11),
]


@pytest.mark.parametrize(("sizes", "games"), CROSS_CASES)
def test_each_team_plays_exactly_n_cross_conference_games_never_the_same_opponent_twice(
    sizes, games
):
    conferences = conferences_of(*sizes)
    conference_of = {t: name for name, ids in conferences.items() for t in ids}
    rounds = cross_conference_rounds(conferences, games_per_team=games, rng=random.Random(7))
    assert_no_team_twice_in_a_round(rounds)
    met = meetings(rounds)
    assert set(met.values()) == {1}
    assert all(len({conference_of[t] for t in pair}) == 2 for pair in met)
    played = Counter(t for pair in met for t in pair)
    assert played == Counter(dict.fromkeys(conference_of, games))
    home, away = venues(rounds)
    assert all(abs(home[t] - away[t]) <= 1 for t in conference_of)


def test_zero_cross_conference_games_gives_no_rounds():
    assert cross_conference_rounds(conferences_of(3, 3), games_per_team=0) == []


def test_the_same_generator_seed_gives_the_same_cross_conference_rounds():
    conferences = conferences_of(6, 6, 6)
    first = cross_conference_rounds(conferences, games_per_team=4, rng=random.Random(11))
    again = cross_conference_rounds(conferences, games_per_team=4, rng=random.Random(11))
    assert first == again


# -- a whole season ------------------------------------------------------------------------


def test_a_season_plays_cross_conference_rounds_first_then_each_conference_round_robin():
    conferences = {"East": [1, 2, 3, 4, 5], "West": [6, 7, 8, 9, 10]}
    games = build_schedule(
        conferences=conferences,
        start_date=START,
        days_between_rounds=2,
        double_round_robin=True,
        cross_conference_games=2,
        rng=random.Random(5),
    )
    cross = [g for g in games if not g.is_conference_game]
    conference = [g for g in games if g.is_conference_game]
    assert max(g.round for g in cross) < min(g.round for g in conference)
    assert Counter(t for g in cross for t in (g.home_id, g.away_id)) == Counter(
        dict.fromkeys(range(1, 11), 2)
    )
    for name, ids in conferences.items():
        mine = [g for g in conference if g.conference == name]
        assert all({g.home_id, g.away_id} <= set(ids) for g in mine)
        assert Counter((g.home_id, g.away_id) for g in mine) == Counter(
            {(a, b): 1 for a in ids for b in ids if a != b}
        )
    for g in games:
        assert g.game_date == START + timedelta(days=2 * (g.round - 1))
    by_round = Counter((g.round, t) for g in games for t in (g.home_id, g.away_id))
    assert set(by_round.values()) == {1}
    assert [(g.round) for g in games] == sorted(g.round for g in games)


def test_a_season_keeps_every_teams_home_and_away_games_level():
    games = build_schedule(
        conferences=conferences_of(6, 6, 6),
        start_date=START,
        cross_conference_games=3,
        rng=random.Random(2),
    )
    home = Counter(g.home_id for g in games)
    away = Counter(g.away_id for g in games)
    assert all(home[t] + away[t] == 8 for t in range(1, 19))
    assert all(abs(home[t] - away[t]) <= 1 for t in range(1, 19))


def test_a_smaller_conference_finishes_its_round_robin_early():
    games = build_schedule(
        conferences={"Big": [1, 2, 3, 4, 5, 6], "Small": [7, 8]}, start_date=START
    )
    assert max(g.round for g in games if g.conference == "Small") == 1
    assert max(g.round for g in games if g.conference == "Big") == 5


def test_neutral_flags_follow_the_kind_of_game():
    games = build_schedule(
        conferences=conferences_of(4, 4),
        start_date=START,
        cross_conference_games=2,
        neutral=False,
        cross_conference_neutral=True,
    )
    assert all(g.neutral is (g.conference is None) for g in games)


def test_a_single_group_round_robin_is_dated_and_tagged():
    games = build_round_robin_schedule(
        [10, 20, 30], start_date=START, days_between_rounds=7, conference="Pool A"
    )
    assert games[0] == ScheduledGame(1, START, games[0].home_id, games[0].away_id, False, "Pool A")
    assert len(games) == 3
    assert [g.game_date for g in games] == [START + timedelta(days=7 * i) for i in range(3)]


# -- bad input -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: round_robin_rounds([1]), "needs at least 2 teams, got 1"),
        (lambda: round_robin_rounds([]), "needs at least 2 teams, got 0"),
        (lambda: round_robin_rounds([1, 2, 2, 3]), "repeated: [2]"),
        (lambda: cross_conference_rounds({}, games_per_team=1), "got none"),
        (
            lambda: cross_conference_rounds({"A": [1, 2], "B": [2, 3]}, games_per_team=1),
            "team id 2 is in both conference 'A' and conference 'B'",
        ),
        (
            lambda: cross_conference_rounds(conferences_of(3, 3), games_per_team=-1),
            "cross_conference_games must be 0 or more, got -1",
        ),
        (
            lambda: cross_conference_rounds(conferences_of(3, 3), games_per_team=4),
            "4 cross-conference games a team is more than the 3 teams outside conference 'C0'",
        ),
        (
            lambda: cross_conference_rounds(conferences_of(4), games_per_team=2),
            "every team is in conference 'C0', so there is no other conference to play 2",
        ),
        (  # three teams each alone in its conference all play as the independents
            lambda: cross_conference_rounds({"Independent": [1, 2, 3]}, games_per_team=1),
            "every team plays with the independents ('Independent': a team alone in its "
            "conference joins them)",
        ),
        (
            lambda: cross_conference_rounds(conferences_of(5, 2, 2), games_per_team=1),
            "conference 'C0' has 5 of the 9 teams",
        ),
        (
            lambda: cross_conference_rounds(conferences_of(3, 3, 3), games_per_team=1),
            "an odd number (1) of cross-conference games",
        ),
        (
            lambda: cross_conference_rounds(conferences_of(3, 4, 5), games_per_team=7),
            "cross_conference_games=7 cannot be met: conferences 'C1', 'C2'",
        ),
        (
            lambda: cross_conference_rounds(conferences_of(2, 4, 11, 11), games_per_team=16),
            "cross_conference_games=16 cannot be met: conferences 'C2', 'C3'",
        ),
        (
            lambda: build_schedule(
                conferences=conferences_of(2, 2), start_date=START, days_between_rounds=0
            ),
            "days_between_rounds must be 1 to 365, got 0",
        ),
        (
            lambda: build_round_robin_schedule([1, 2], start_date=START, days_between_rounds=-3),
            "days_between_rounds must be 1 to 365, got -3",
        ),
    ],
)
def test_bad_input_raises_a_schedule_error_that_names_the_value(call, message):
    with pytest.raises(ScheduleError) as caught:
        call()
    assert message in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_the_module_is_pure_and_its_examples_hold():
    assert_pure("league.scheduling")
    assert_doctests_pass("league.scheduling")


# -- teams alone in their conference ---------------------------------------------------------


def test_teams_alone_in_their_conference_play_with_the_independents() -> None:
    field = {1: "SEC", 2: "SEC", 3: "Horizon", 4: "Ivy", 5: "Independent", 6: "Big Ten"}
    assert conference_groups(field) == {
        1: "SEC", 2: "SEC", 3: "Independent", 4: "Independent", 5: "Independent",
        6: "Independent",
    }  # fmt: skip


def test_a_team_still_alone_among_the_independents_plays_in_the_smallest_conference() -> None:
    field = {1: "SEC", 2: "SEC", 3: "SEC", 4: "ACC", 5: "ACC", 6: "Horizon"}
    assert conference_groups(field)[6] == "ACC"
    assert conference_groups({1: "A", 2: "A", 3: "B", 4: "B", 5: "Ivy"})[5] == "A"  # by name


def test_conferences_of_two_or_more_and_one_group_are_kept_as_they_are() -> None:
    field = {1: "SEC", 2: "SEC", 3: "ACC", 4: "ACC"}
    assert conference_groups(field) == field
    assert conference_groups(dict.fromkeys(range(1, 5), "")) == dict.fromkeys(range(1, 5), "")


def test_the_all_time_fields_conferences_make_a_schedule_with_cross_games() -> None:
    # The all-time field's conference sizes (fixtures/teams): 13 teams alone in theirs.
    sizes = {"Big East": 14, "Big Ten": 13, "SEC": 12, "ACC": 11, "Independent": 8,
             "Big 12": 6, "MVC": 5, "CAA": 3, "C-USA": 3, "Southern": 2, "Pac-12": 2,
             "Pac-10": 2, "Big Eight": 2, **{f"Alone {n}": 1 for n in range(13)}}  # fmt: skip
    ids = iter(range(1, 97))
    field = {next(ids): name for name, size in sizes.items() for _ in range(size)}
    groups = conference_groups(field)
    assert Counter(groups.values())["Independent"] == 8 + 13
    by_group: dict[str, list[int]] = {}
    for team, group in groups.items():
        by_group.setdefault(group, []).append(team)
    games = build_schedule(
        conferences=by_group, start_date=START, cross_conference_games=2, rng=random.Random(1)
    )
    played = Counter(t for g in games for t in (g.home_id, g.away_id))
    assert set(played) == set(field)
    assert sum(1 for g in games if g.conference is None) == 96
