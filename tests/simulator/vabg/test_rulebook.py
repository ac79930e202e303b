"""The rulebook's worked examples, replayed with scripted dice.

The sample game is Kentucky 2012 against Kansas 2008 (``teams.py``). Each test
says which passage of the rulebook (``000_...``) or of vabg-rulings.md it plays.
The team with the ball in the example is made the visitor, so that its trip is
the game's first (the visitor plays first, §1).
"""

from __future__ import annotations

import pytest

from simulator.vabg import BASIC, team_from_json
from tests.simulator.vabg.scripting import play, trip_story, trips
from tests.simulator.vabg.teams import (
    kansas_2008,
    kentucky_2012,
    player,
    team_json,
)

KY = kentucky_2012()
KU = kansas_2008()


@pytest.mark.parametrize(
    ("offense", "d8", "carrier"),
    [
        (KY, 6, "Marquis Teague"),  # "Marquis Teague does have a 7 (1&7) ... ball on a roll of 6"
        (KY, 7, "Michael Kidd-Gilchrist"),
        (KY, 8, "Terrence Jones"),
        (KU, 6, "Mario Chalmers"),  # "Russell Robinson does ONLY have a 1 ... Chalmers does"
        (KU, 7, "Brandon Rush"),
        (KU, 8, "Darnell Jackson"),
        (KY, 5, "Anthony Davis"),
        (KU, 1, "Russell Robinson"),
    ],
)
def test_the_d8_hands_extra_numbers_top_to_bottom(offense, d8, carrier):
    defense = KU if offense is KY else KY
    result = play(defense, offense, trips((d8, 44, 5)))
    assert trip_story(result)[0] == f"trip {carrier}"


def test_kidd_gilchrist_on_a_7_is_stolen_by_chalmers_halved_11_20():
    # Rulebook: Rush's 11-15 halved is 11-13 and misses the 15; Chalmers' 11-20 halved
    # (after Kentucky's 51-58 takes one number off: 11-19) is 11-15 and steals.
    result = play(KU, KY, trips((7, 15, 9, [4], [])))
    story = trip_story(result)
    assert story[:3] == [
        "trip Michael Kidd-Gilchrist",
        "steal Mario Chalmers fast break",
        "turnover Michael Kidd-Gilchrist (steal)",
    ]


def test_on_a_3_rushs_own_11_15_steals_the_15_in_the_basic_preset():
    result = play(KU, KY, trips((3, 15, 9)), rules=BASIC)
    assert trip_story(result)[:3] == [
        "trip Michael Kidd-Gilchrist",
        "steal Brandon Rush",
        "turnover Michael Kidd-Gilchrist (steal)",
    ]


def test_on_a_3_the_advanced_dunk_table_takes_the_15_off_rushs_range():
    # vabg-rulings.md §14: Kentucky's 51-58 takes one number off every Kansas steal range,
    # so Rush's "normal 11-15" is 11-14 under the advanced preset; the d20 decides.
    result = play(KU, KY, trips((3, 15, 9)))
    assert "steal Brandon Rush" not in trip_story(result)


def test_davis_halved_block_range_blocks_chalmers_on_26():
    # Lamb's 21-21 halved is still 21-21; Davis' 21-31 halved is 21-26 and any defender may
    # block on a 6-8. The book hands Chalmers the ball "on a 7"; its own distribution gives
    # him the 6 (§14). Possession 44 is even: the rebound chart rolls d20 12, d6 5.
    result = play(KY, KU, trips((6, 26, 9, [12], [5])))
    assert trip_story(result) == [
        "trip Mario Chalmers",
        "block Anthony Davis",
        "miss 2 Mario Chalmers (blocked)",
        "dreb Anthony Davis",
    ]


def test_on_a_2_lambs_own_block_range_cannot_reach_26():
    result = play(KY, KU, trips((2, 26, 5)))
    assert trip_story(result) == ["trip Mario Chalmers", "make 2 Mario Chalmers (jumper)"]


@pytest.mark.parametrize(
    ("offense", "roll", "dunk"),
    [
        (KY, 56, True),  # Kentucky 51-60 minus Kansas 2 = 51-58: dunks on 51-56
        (KY, 51, True),
        (KY, 61, False),  # "there is actually no roll of 57 or 58": 61 is no dunk
        (KU, 56, True),  # Kansas 51-60 minus Kentucky 3 = 51-57: dunks on 51-56
        (KU, 61, False),
    ],
)
def test_the_sample_games_dunk_ranges_are_51_58_and_51_57(offense, roll, dunk):
    defense = KU if offense is KY else KY
    result = play(defense, offense, trips((4, roll, 8)))
    story = trip_story(result)
    carrier = offense.starter(4).name
    assert (f"make 2 {carrier} (dunk)" in story) is dunk


def test_a_dunk_roll_with_a_3_made_on_the_d20_scores_3():
    result = play(KU, KY, trips((1, 55, 1)))
    assert trip_story(result) == ["trip Marquis Teague", "make 3 Marquis Teague (3 on a dunk roll)"]


def test_kentuckys_51_58_drops_kansas_steals_and_kentucky_turnovers_by_one():
    # Robinson's 11-14 becomes 11-13: a 14 is no steal. Teague's 41-42 becomes 41-41.
    no_steal = play(KU, KY, trips((1, 14, 5)))
    assert trip_story(no_steal) == ["trip Marquis Teague", "make 2 Marquis Teague (jumper)"]
    no_turnover = play(KU, KY, trips((1, 42, 5)))
    assert trip_story(no_turnover) == ["trip Marquis Teague", "make 2 Marquis Teague (jumper)"]
    turnover = play(KU, KY, trips((1, 41, 5)))
    assert trip_story(turnover) == ["trip Marquis Teague", "turnover Marquis Teague (turnover)"]


def test_kansas_51_57_lowers_kentucky_steals_but_not_kansas_turnovers():
    # Teague's 11-14 becomes 11-13; Robinson's 41-42 turnover range stays.
    no_steal = play(KY, KU, trips((1, 14, 5)))
    assert "steal Marquis Teague" not in trip_story(no_steal)
    turnover = play(KY, KU, trips((1, 42, 5)))
    assert trip_story(turnover) == [
        "trip Russell Robinson",
        "turnover Russell Robinson (turnover)",
    ]


def test_without_the_dunk_table_changes_the_printed_ranges_hold():
    steal = play(KU, KY, trips((1, 14, 5, [], [])), rules=BASIC)
    assert trip_story(steal)[1] == "steal Russell Robinson"


def test_davis_turns_it_over_on_no_roll_of_41_46():
    # "Anthony Davis ... his range is 41-40, meaning he will not turn over the ball".
    for roll in (41, 46):
        result = play(KU, KY, trips((5, roll, 5)))
        assert trip_story(result) == ["trip Anthony Davis", "make 2 Anthony Davis (jumper)"]


@pytest.mark.parametrize(
    ("where", "d20", "outcome"),
    [
        # "Davis has a foul range of 10 to 14. If Kentucky is the visiting team playing at
        # Kansas, Davis is only fouled on a 10 to 13 but a roll of 14 is a turnover".
        ("away", 13, "foul"),
        ("away", 14, "no call"),
        ("away", 15, "miss"),
        # "If Kentucky was the home team then Davis' range is now 10 to 15".
        ("home", 14, "foul"),
        ("home", 15, "foul"),
        ("home", 16, "miss"),
        ("neutral", 14, "foul"),
        ("neutral", 15, "miss"),
    ],
)
def test_davis_foul_range_at_home_and_away(where, d20, outcome):
    # Kentucky needs the first trip: make it the visitor and, for "home", play Kansas
    # as the visitor with one Kansas turnover first.
    if where == "home":
        streams = trips((1, 41, 1), (5, 62, d20, [14, 14], []))
        result = play(KY, KU, streams, neutral=False)
        story = trip_story(result, 1)
    else:
        streams = trips((5, 62, d20, [14, 14], []))
        result = play(KU, KY, streams, neutral=where == "neutral")
        story = trip_story(result)
    assert story[0] == "trip Anthony Davis"
    expected = {
        "foul": "foul Darrell Arthur on Anthony Davis 2 (shooting)",
        "no call": "turnover Anthony Davis (no call)",
        "miss": "miss 2 Anthony Davis (jumper)",
    }[outcome]
    assert expected in story


def test_marquette_1977_turns_a_51_55_range_into_a_stop_on_51_56():
    # "Team A with a 51-55 range played the 1977 Marquette team ... adj dunk range of 11 ...
    # NOT SCORING on rolls of 51-56 ... misses a shot with the player guarding him getting
    # the rebound on a 1-5, or turns the ball over on a 6, 7 or 8."
    team_a = team_from_json(
        team_json(
            "Team A",
            2000,
            [player(f"A{s}", s, positions=[s], extra_ball=1 if s == 1 else 0) for s in range(1, 6)],
            dunk_top=55,
        )
    )
    marquette = team_from_json(
        team_json("Marquette", 1977, [player(f"M{s}", s) for s in range(1, 6)], dunk_adjust=-11)
    )
    for roll in (51, 56):
        missed = play(marquette, team_a, trips((3, roll, 1)))
        assert trip_story(missed) == ["trip A3", "miss 2 A3 (stopped)", "dreb M3"]
        lost = play(marquette, team_a, trips((6, roll, 1)))
        assert trip_story(lost) == ["trip A1", "turnover A1 (stopped)"]
    nothing = play(marquette, team_a, trips((3, 61, 1)))
    assert trip_story(nothing) == ["trip A3", "make 3 A3 (jumper)"]


def test_rebound_examples_with_davis_and_arthur():
    # Kansas misses on an even possession, d20 12 -> defensive center Davis, d6 5 within
    # his 1-6: Davis rebounds.
    kansas_miss = play(KY, KU, trips((1, 62, 16, [12], [5])))
    assert trip_story(kansas_miss)[-1] == "dreb Anthony Davis"
    # Kentucky misses, d20 12 -> Kansas' Arthur, 1-4 def: the 5 gives Davis the offensive
    # rebound; his putback (d20 1) is a make.
    kentucky_miss = play(KU, KY, trips((1, 62, 16, [12, 1], [5])))
    assert trip_story(kentucky_miss)[-3:] == [
        "miss 2 Marquis Teague (jumper)",
        "oreb Anthony Davis",
        "make 2 Anthony Davis (putback)",
    ]
    # A 10 or 20 after a Kentucky miss: Davis' off 1-6 is the best on the floor.
    assert "oreb Anthony Davis" in trip_story(play(KU, KY, trips((1, 62, 16, [20, 1], [3]))))
    # After a Kansas miss: Arthur's off 1-6 ties Davis' def 1-6, and ties go to the offense.
    story = trip_story(play(KY, KU, trips((1, 62, 16, [10, 1], [3]))))
    assert "oreb Darrell Arthur" in story


def test_twenty_shot_gives_davis_a_2_when_his_7_is_taken_above_him():
    # "Davis and Arthur have a 5&7 ... they both only get the ball if the 8-sided die is a 5.
    # However, a roll of 5 on the 8-sided die and roll of 20 ... a 2-point shot made".
    result = play(KU, KY, trips((5, 62, 20)))
    assert trip_story(result) == ["trip Anthony Davis", "make 2 Anthony Davis (jumper (20 shot))"]
    # Kidd-Gilchrist keeps his 7: no 20 shot for him.
    result = play(KU, KY, trips((3, 62, 20, [12], [1])))
    assert trip_story(result)[1] == "miss 2 Michael Kidd-Gilchrist (jumper)"
    # The basic preset has no 20 shot.
    result = play(KU, KY, trips((5, 62, 20)), rules=BASIC)
    assert trip_story(result)[1] == "miss 2 Anthony Davis (jumper)"


def test_opening_credits_of_the_20_20_start():
    result = play(KY, KU, trips())
    ky = {p.name: p for p in result.home.players}
    ku = {p.name: p for p in result.away.players}
    opening = [e for e in result.events if type(e).__name__ == "Opening"]
    by_name = {e.player: e for e in opening}
    # Kentucky has 8 players: its two highest-PPG starters (Davis 14.2, Lamb 13.7) get 4.
    assert by_name["Anthony Davis"].pts == 4 and by_name["Doron Lamb"].pts == 4
    assert by_name["Marquis Teague"].pts == 2 and by_name["Eloy Vargas"].pts == 2
    assert sum(e.pts for e in opening if e.team == "home") == 20
    assert sum(e.pts for e in opening if e.team == "away") == 20
    # Guards start with a steal, the front line with 2 rebounds, the center with a block.
    assert (by_name["Russell Robinson"].stl, by_name["Mario Chalmers"].stl) == (1, 1)
    assert by_name["Brandon Rush"].stl == 0 and by_name["Brandon Rush"].reb == 2
    assert (by_name["Darrell Arthur"].reb, by_name["Darrell Arthur"].blk) == (2, 1)
    assert by_name["Sherron Collins"].reb == 1 and by_name["Sherron Collins"].stl == 0
    assert all(e.pf == 1 for e in opening)
    assert ky["Eloy Vargas"].pts >= 2 and ku["Cole Aldrich"].pf >= 1


def test_a_five_man_roster_gives_every_player_4_points():
    five = team_from_json(team_json("Five", 1950, [player(f"F{s}", s) for s in range(1, 6)]))
    result = play(KY, five, trips())
    opening = [e for e in result.events if type(e).__name__ == "Opening" and e.team == "away"]
    assert [e.pts for e in opening] == [4, 4, 4, 4, 4]


def test_chalmers_steals_on_31_only_when_his_range_reaches_11_20():
    # "31 - Steal. This is a steal if any defender on the court has a steal range of 11-20
    # or higher (e.g. Mario Chalmers)." In the basic preset his 11-20 stands ...
    basic = play(KU, KY, trips((4, 31, 5)), rules=BASIC)
    assert trip_story(basic)[1] == "steal Mario Chalmers"
    # ... but Kentucky's 51-58 makes it 11-19 in the advanced preset (§12).
    advanced = play(KU, KY, trips((4, 31, 5)))
    assert "steal Mario Chalmers" not in trip_story(advanced)


def test_davis_blocks_anyone_on_32():
    # "32 - Block ... if any defender on the court has a block range of 21-30 or higher".
    result = play(KY, KU, trips((1, 32, 5, [15], [1])))
    assert trip_story(result)[:3] == [
        "trip Russell Robinson",
        "block Anthony Davis",
        "miss 2 Russell Robinson (blocked)",
    ]
