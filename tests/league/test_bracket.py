"""Single-elimination brackets: byes, standard seeding, reseeding, the all-time 96 field."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from league.bracket import (
    MAX_KEY_LENGTH,
    Bracket,
    BracketError,
    Reseeded,
    Seeded,
    WinnerOf,
    alltime_96,
    bracket_for_field,
    bracket_from_json,
    bracket_to_json,
    champion,
    entrants,
    group_stage_seeds,
    next_games,
    standard_order,
)
from tests.league import assert_doctests_pass, assert_pure

REGIONS = ("East", "West", "Midwest", "South")


def field_96():
    """Team id = 1000 * (region index + 1) + seed, so a team's region and seed read off it."""
    return {
        name: [1000 * (i + 1) + seed for seed in range(1, 25)] for i, name in enumerate(REGIONS)
    }


def team(region, seed):
    return 1000 * (REGIONS.index(region) + 1) + seed


def play(bracket, pick, winners=None):
    """Play every game to the end with ``pick(ready_game) -> winner``; return winners, order."""
    winners = dict(winners or {})
    order = []
    while ready := next_games(bracket, winners):
        for game in ready:
            winners[game.key] = pick(game)
            order.append(game)
    return winners, order


def chalk(game):
    return game.top_team_id if game.top_seed <= game.bottom_seed else game.bottom_team_id


def upsets(game):
    return game.bottom_team_id if game.top_seed <= game.bottom_seed else game.top_team_id


def coin(seed):
    rng = random.Random(seed)
    return lambda game: rng.choice([game.top_team_id, game.bottom_team_id])


def first_round_of(bracket, winners=None):
    return {g.key: g for g in next_games(bracket, winners or {})}


# -- the generic field ---------------------------------------------------------------------


def test_the_standard_order_keeps_the_top_seeds_apart():
    assert standard_order(2) == [1, 2]
    assert standard_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
    with pytest.raises(BracketError, match="power of two, got 12"):
        standard_order(12)


@pytest.mark.parametrize("n", range(2, 71))
def test_every_field_from_2_to_70_plays_n_minus_1_games_with_byes_for_the_top_seeds(n):
    teams = [100 + seed for seed in range(1, n + 1)]
    bracket = bracket_for_field(teams)
    size = 1 << (n - 1).bit_length()
    assert len(bracket.games) == n - 1
    assert all(len(g.key) <= MAX_KEY_LENGTH for g in bracket.games)
    first_game = {}
    winners, order = play(bracket, coin(n))
    for game in order:
        for t in (game.top_team_id, game.bottom_team_id):
            first_game.setdefault(t, game.round)
    assert sorted(first_game) == teams  # every team plays
    byes = sorted(bracket.seeds[t] for t, r in first_game.items() if r == 2)
    assert byes == list(range(1, size - n + 1))
    assert all(r == 1 for t, r in first_game.items() if bracket.seeds[t] > size - n)
    assert len(winners) == n - 1
    losers = Counter(
        g.bottom_team_id if winners[g.key] == g.top_team_id else g.top_team_id for g in order
    )
    assert set(losers.values()) == {1}
    assert champion(bracket, winners) in set(teams) - set(losers)
    assert len(bracket.games) == len({g.key for g in bracket.games})


@pytest.mark.parametrize("n", [2, 3, 4, 5, 8, 13, 16, 24, 33, 64, 68, 70])
def test_when_the_better_seed_always_wins_one_meets_two_in_the_final_and_nowhere_earlier(n):
    bracket = bracket_for_field(list(range(1, n + 1)))  # team id = seed
    winners, order = play(bracket, chalk)
    final = order[-1]
    assert (final.top_team_id, final.bottom_team_id) == (1, 2)
    assert champion(bracket, winners) == 1
    if n >= 4:
        semis = [(g.top_team_id, g.bottom_team_id) for g in order if g.round == bracket.rounds - 1]
        assert sorted(semis) == [(1, 4), (2, 3)]
    # No result at all can bring 1 and 2 together before the final.
    for seed in range(20):
        _, order = play(bracket, coin(seed))
        assert all({g.top_team_id, g.bottom_team_id} != {1, 2} for g in order[:-1])


def test_a_field_of_24_is_one_region_of_the_96_format():
    bracket = bracket_for_field(list(range(1, 25)))
    first = first_round_of(bracket)
    assert sorted((g.top_seed, g.bottom_seed) for g in first.values()) == [
        (s, 33 - s) for s in range(9, 17)
    ]
    second = [g for g in bracket.games if g.round == 2]
    assert len(second) == 8
    for game in second:
        s = game.top.seed
        feeder = bracket.game(game.bottom.game_key)
        assert {feeder.top.seed, feeder.bottom.seed} == {17 - s, 16 + s}


def test_a_three_team_field_gives_the_top_seed_a_bye_to_the_final():
    bracket = bracket_for_field([7, 8, 9])
    assert bracket.games[0].top == Seeded(8, 2)
    assert bracket.games[1].top == Seeded(7, 1)
    assert bracket.games[1].bottom == WinnerOf("R1-1")


# -- reseeding -----------------------------------------------------------------------------


def test_reseeding_pairs_the_best_remaining_seed_with_the_worst():
    bracket = bracket_for_field(list(range(1, 9)), reseed=True)  # team id = seed
    winners = {"R1-1": 8, "R1-2": 4, "R1-3": 7, "R1-4": 3}  # 1 and 2 lose to 8 and 7
    ready = next_games(bracket, winners)
    assert [(g.top_team_id, g.bottom_team_id) for g in ready] == [(3, 8), (4, 7)]
    fixed = bracket_for_field(list(range(1, 9)))
    unchanged = next_games(fixed, winners)
    assert [(g.top_team_id, g.bottom_team_id) for g in unchanged] == [(8, 4), (7, 3)]
    winners |= {ready[0].key: 8, ready[1].key: 4}
    (final,) = next_games(bracket, winners)
    assert (final.top_team_id, final.bottom_team_id) == (4, 8)


def test_reseeding_after_a_round_of_byes_takes_the_bye_teams_in():
    bracket = bracket_for_field([10, 20, 30, 40, 50, 60], reseed=[1])
    first = next_games(bracket, {})
    assert [(g.top_seed, g.bottom_seed) for g in first] == [(4, 5), (3, 6)]
    winners = {g.key: g.bottom_team_id for g in first}  # 5 and 6 win
    second = next_games(bracket, winners)
    assert [(g.top_seed, g.bottom_seed) for g in second] == [(1, 6), (2, 5)]
    assert all(isinstance(g.top, Reseeded) for g in bracket.games if g.round == 2)
    assert all(isinstance(g.top, WinnerOf) for g in bracket.games if g.round == 3)


def test_a_reseeded_round_waits_for_every_game_of_the_round_before():
    bracket = bracket_for_field(list(range(1, 9)), reseed=True)
    assert [g.round for g in next_games(bracket, {"R1-1": 1, "R1-2": 4, "R1-3": 2})] == [1]
    assert entrants(bracket, {"R1-1": 1})["R2-1"] == (None, None)


@pytest.mark.parametrize("n", [3, 5, 8, 12, 17, 40])
def test_a_reseeded_bracket_plays_through_to_one_champion(n):
    bracket = bracket_for_field(list(range(1, n + 1)), reseed=True)
    winners, order = play(bracket, coin(n))
    assert len(order) == n - 1
    for r in range(2, bracket.rounds + 1):
        pairs = [(g.top_seed, g.bottom_seed) for g in order if g.round == r]
        alive = sorted(s for pair in pairs for s in pair)
        assert sorted(pairs) == sorted((alive[i], alive[-1 - i]) for i in range(len(alive) // 2))
    assert champion(bracket, winners) is not None


def test_a_reseed_round_outside_the_bracket_is_refused():
    with pytest.raises(BracketError) as caught:
        bracket_for_field(list(range(1, 9)), reseed=[0, 3])
    assert "8 teams can be reseeded only after rounds [1, 2], got [0, 3]" in str(caught.value)


# -- the all-time 96 field -----------------------------------------------------------------


def test_the_96_field_has_95_games_in_7_rounds():
    bracket = alltime_96(field_96())
    assert len(bracket.games) == 95
    assert Counter(g.round for g in bracket.games) == {1: 32, 2: 32, 3: 16, 4: 8, 5: 4, 6: 2, 7: 1}
    assert len({g.key for g in bracket.games}) == 95
    assert all(len(g.key) <= MAX_KEY_LENGTH for g in bracket.games)


def test_the_96_fields_first_round_pairs_seed_s_with_33_minus_s_in_each_region():
    bracket = alltime_96(field_96())
    first = next_games(bracket, {})
    assert len(first) == 32
    for region in REGIONS:
        pairs = sorted((g.top_seed, g.bottom_seed) for g in first if g.region == region)
        assert pairs == [
            (9, 24),
            (10, 23),
            (11, 22),
            (12, 21),
            (13, 20),
            (14, 19),
            (15, 18),
            (16, 17),
        ]
        assert all(
            (g.top_team_id, g.bottom_team_id)
            == (team(region, g.top_seed), team(region, g.bottom_seed))
            for g in first
            if g.region == region
        )


def test_the_96_fields_seeds_1_to_8_wait_for_the_winner_of_17_minus_s_v_16_plus_s():
    bracket = alltime_96(field_96())
    for region in REGIONS:
        second = [g for g in bracket.games if g.round == 2 and g.region == region]
        assert sorted(g.top.seed for g in second) == list(range(1, 9))
        for game in second:
            s = game.top.seed
            assert game.top == Seeded(team(region, s), s)
            feeder = bracket.game(game.bottom.game_key)
            assert (feeder.round, feeder.region) == (1, region)
            assert (feeder.top.seed, feeder.bottom.seed) == (17 - s, 16 + s)


# The 2nd-round games the 2019-20 tournament really played, as recorded in
# ../shared/data/alltime96_teams.csv: (region, bye seed, seed of the team it met).
PLAYED_SECOND_ROUND = [
    ("East", 1, 16),  # Kentucky 1996 lost to Wake Forest 1996
    ("East", 3, 14),  # Virginia 2019 beat Georgia Tech 2004
    ("East", 5, 12),  # Virginia 1981 lost to Syracuse 1987
    ("East", 6, 11),  # Maryland 2002 lost to Georgetown 1984
    ("East", 8, 9),  # Connecticut 1999 lost to Duke 2010
    ("West", 3, 19),  # Louisville 2013 beat San Diego State 2011
    ("West", 4, 13),  # Cincinnati 1960 v the Gonzaga 2017 / DePaul 1945 winner
    ("West", 4, 20),
    ("Midwest", 5, 12),  # Connecticut 2004 v the Georgetown 2007 / Kansas St. winner
    ("Midwest", 5, 21),
    ("Midwest", 7, 10),  # Wisconsin 2015 beat Illinois 2005
    ("South", 3, 14),  # Florida 2006 v the West Virginia / Auburn 1984 winner
    ("South", 3, 19),
    ("South", 5, 12),  # Kansas 1957 beat Oklahoma State 2004
    ("South", 6, 11),  # Arkansas 1994 v the Auburn 2019 / George Mason 2006 winner
    ("South", 6, 22),
    ("South", 7, 23),  # Kentucky 2012 beat Georgia 1982
]


@pytest.mark.parametrize(("region", "bye_seed", "opponent_seed"), PLAYED_SECOND_ROUND)
def test_the_96_field_reproduces_the_second_round_games_really_played(
    region, bye_seed, opponent_seed
):
    bracket = alltime_96(field_96())
    first = next_games(bracket, {})
    winners = {
        g.key: team(region, opponent_seed)
        if team(region, opponent_seed) in (g.top_team_id, g.bottom_team_id)
        else g.top_team_id
        for g in first
    }
    second = {(g.region, g.top_seed): g.bottom_seed for g in next_games(bracket, winners)}
    assert second[(region, bye_seed)] == opponent_seed


def test_the_96_fields_third_round_sends_1_to_the_8_9_side_and_4_to_the_5_side():
    bracket = alltime_96(field_96())
    _, order = play(bracket, chalk)
    third = sorted(
        (g.top_seed, g.bottom_seed) for g in order if g.round == 3 and g.region == "West"
    )
    assert third == [(1, 8), (2, 7), (3, 6), (4, 5)]
    fourth = sorted(
        (g.top_seed, g.bottom_seed) for g in order if g.round == 4 and g.region == "West"
    )
    assert fourth == [(1, 4), (2, 3)]


@pytest.mark.parametrize(
    "final_four",
    [(("West", "East"), ("Midwest", "South")), (("East", "South"), ("West", "Midwest"))],
)
def test_the_region_champions_meet_in_the_final_four_as_configured(final_four):
    bracket = alltime_96(field_96(), final_four=final_four)
    _, order = play(bracket, chalk)
    semis = [g for g in order if g.round == 6]
    assert [g.key for g in semis] == ["R6-1", "R6-2"]
    assert [(g.top_team_id, g.bottom_team_id) for g in semis] == [
        (team(a, 1), team(b, 1)) for a, b in final_four
    ]


def test_the_default_final_four_puts_the_west_champion_against_the_east_champion():
    bracket = alltime_96(field_96())
    semi = bracket.game("R6-1")
    assert (semi.top, semi.bottom) == (WinnerOf("West-R5-1"), WinnerOf("East-R5-1"))
    assert bracket.game("R6-2").top == WinnerOf("Midwest-R5-1")


@pytest.mark.parametrize("seed", range(25))
def test_playing_random_winners_through_the_96_field_yields_exactly_one_champion(seed):
    bracket = alltime_96(field_96())
    winners, order = play(bracket, coin(seed))
    assert len(order) == len(winners) == 95
    assert [g.round for g in order] == sorted(g.round for g in order)
    losers = [g.bottom_team_id if winners[g.key] == g.top_team_id else g.top_team_id for g in order]
    assert len(set(losers)) == 95
    every_team = {t for ids in field_96().values() for t in ids}
    assert {t for g in order for t in (g.top_team_id, g.bottom_team_id)} == every_team
    (survivor,) = every_team - set(losers)
    assert champion(bracket, winners) == survivor
    assert next_games(bracket, winners) == []


def test_before_the_final_there_is_no_champion():
    bracket = alltime_96(field_96())
    winners, _ = play(bracket, upsets)
    del winners["R7-1"]
    assert champion(bracket, winners) is None
    assert [g.key for g in next_games(bracket, winners)] == ["R7-1"]


@pytest.mark.parametrize(
    ("regions", "final_four", "message"),
    [
        ({n: field_96()[n] for n in REGIONS[:3]}, None, "needs 4 regions, got 3"),
        (
            {**field_96(), "South": field_96()["South"][:23]},
            None,
            "region 'South' needs 24 teams by seed, got 23",
        ),
        (field_96(), (("West", "East"), ("Midwest", "North")), "final_four must pair the regions"),
        (
            {**field_96(), "South": [*field_96()["South"][:23], team("East", 1)]},
            None,
            "repeated: [1001]",
        ),
    ],
)
def test_a_bad_96_field_is_refused_with_the_value_named(regions, final_four, message):
    kwargs = {} if final_four is None else {"final_four": final_four}
    with pytest.raises(BracketError) as caught:
        alltime_96(regions, **kwargs)
    assert message in str(caught.value)


# -- winners that cannot be ----------------------------------------------------------------


def test_a_winner_who_did_not_play_in_the_game_is_refused():
    bracket = bracket_for_field([1, 2, 3, 4])
    with pytest.raises(BracketError, match=r"team 3 did not play in game 'R1-1' \(1 v 4\)"):
        next_games(bracket, {"R1-1": 3})


def test_a_winner_for_an_unknown_game_is_refused():
    with pytest.raises(BracketError, match="no game with key 'R9-1'"):
        champion(bracket_for_field([1, 2]), {"R9-1": 1})


def test_an_unknown_key_is_told_how_this_bracket_s_keys_look():
    """The docs' R1-1 is no game of the all-time 96, whose keys carry their region: the
    refusal said only "no game 'R1-1'", and a fan found West-R1-1 by trial."""
    regions = {r: list(range(24 * i + 1, 24 * i + 25)) for i, r in enumerate(REGIONS)}
    with pytest.raises(BracketError) as caught:
        champion(alltime_96(regions), {"R1-1": 1})
    assert "its games are keyed 'West-R1-1' to 'R7-1'" in str(caught.value)


def test_a_winner_before_both_teams_are_known_is_refused():
    bracket = bracket_for_field([1, 2, 3, 4])
    with pytest.raises(BracketError, match=r"game 'R2-1' has a winner \(1\) before both its teams"):
        next_games(bracket, {"R2-1": 1})


@pytest.mark.parametrize(
    ("teams", "message"),
    [([1], "needs at least 2 teams, got 1"), ([1, 2, 1], "repeated: [1]")],
)
def test_a_bad_field_is_refused_with_the_value_named(teams, message):
    with pytest.raises(BracketError) as caught:
        bracket_for_field(teams)
    assert message in str(caught.value)


# -- storage -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "bracket",
    [alltime_96(field_96()), bracket_for_field(list(range(1, 12)), reseed=True)],
    ids=["96", "reseeded-11"],
)
def test_a_bracket_survives_a_trip_through_json(bracket):
    back = bracket_from_json(json.loads(json.dumps(bracket_to_json(bracket))))
    assert back == bracket
    assert isinstance(back, Bracket)


def test_json_of_another_format_is_refused():
    with pytest.raises(BracketError, match="got 'other/1'"):
        bracket_from_json({"format": "other/1"})


# -- a group stage feeding a bracket -------------------------------------------------------


def test_group_winners_are_seeded_above_runners_up_in_group_order():
    groups = {"A": [1, 2, 3, 4], "B": [5, 6, 7, 8]}
    assert group_stage_seeds(groups, advance=2) == [1, 5, 2, 6]  # 1 v 6, 5 v 2
    assert group_stage_seeds(groups, advance=1) == [1, 5]


def test_within_a_place_the_rank_key_orders_the_teams():
    groups = {"A": [1, 2], "B": [3, 4], "C": [5, 6], "D": [7, 8]}
    key = {1: 3, 3: 1, 5: 4, 7: 2, 2: 1, 4: 2, 6: 3, 8: 4}
    assert group_stage_seeds(groups, advance=2, rank_key=key) == [3, 7, 1, 5, 2, 4, 6, 8]


@pytest.mark.parametrize(("groups", "advance"), [(3, 2), (4, 2), (6, 2), (5, 3), (8, 2), (6, 4)])
def test_no_two_teams_of_a_group_meet_in_the_first_round(groups, advance):
    table = {f"G{g}": [100 * g + place for place in range(1, 6)] for g in range(groups)}
    seeds = group_stage_seeds(table, advance=advance)
    assert sorted(seeds) == sorted(t for ids in table.values() for t in ids[:advance])
    place = {t: t % 100 for t in seeds}
    assert [place[t] for t in seeds] == sorted(place[t] for t in seeds)  # winners first
    bracket = bracket_for_field(seeds)
    for game in next_games(bracket, {}):
        assert game.top_team_id // 100 != game.bottom_team_id // 100, game


@pytest.mark.parametrize(
    ("groups", "advance", "message"),
    [
        ({"A": [1, 2], "B": [3]}, 2, "2 teams of each group cannot go through: B has 1 team"),
        ({"A": [1, 2]}, 0, "advance must be at least 1, got 0"),
        ({"A": [1, 2], "B": [2, 3]}, 1, "team id 2 is in both group 'A' and group 'B'"),
        ({"A": [1, 2]}, 1, "needs at least 2 teams, got 1"),
        ({}, 1, "got none"),
    ],
)
def test_a_bad_group_stage_is_refused_with_the_value_named(groups, advance, message):
    with pytest.raises(BracketError) as caught:
        group_stage_seeds(groups, advance=advance)
    assert message in str(caught.value)


def test_the_module_is_pure_and_its_examples_hold():
    assert_pure("league.bracket")
    assert_doctests_pass("league.bracket")
