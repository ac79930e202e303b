"""One or more scripted tests per section of vabg-rulings.md.

Most tests use two plain teams (``twin``): every card average, dunk ranges 51-56
with no adjustment (so no §3 changes), point guards with one extra ball number
and forwards with one each. Trips are padded with turnovers (d8 1, 41) to reach
a given possession number.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from simulator import ScriptedDice, SeededDice
from simulator.vabg import (
    ADVANCED,
    BASIC,
    DEFAULT_POLICY,
    RULES_VERSION,
    CoachPolicy,
    GameRules,
    RotationError,
    RulesVersionError,
    TeamCard,
    box_score,
    play_game,
    team_from_json,
)
from simulator.vabg.events import Call, Enter, FreeThrow, Shot, Steal, Trip
from tests.simulator.vabg.scripting import ThenSeeded, brief, play, trip_story, trips
from tests.simulator.vabg.teams import player, team_json, twin_team_json
from tests.simulator.vabg.test_odds import fixture

TURNOVER = (1, 41, 1)


def twin(name: str, season: int = 2010, slots: dict[int, dict] | None = None):
    """Return a plain team; ``slots={1: {...}}`` overrides the starter of a slot."""
    doc = twin_team_json(name, season)
    for p in doc["players"]:
        if p["role"] == "starter" and p["slot"] in (slots or {}):
            p.update((slots or {})[p["slot"]])
    return team_from_json(doc)


HOME = twin("Home")
AWAY = twin("Away")


def pad(numbers: int) -> list[tuple[int, int, int]]:
    """Return turnover trips for both teams over ``numbers`` possession numbers."""
    return [TURNOVER] * (2 * numbers)


def story_at(result, number: int, team: str = "away") -> list[str]:
    """Return the first trip story of ``team`` at possession ``number`` of regulation."""
    index = next(
        i
        for i, e in enumerate(
            e for e in result.events if isinstance(e, Trip) and e.kind != "reroll"
        )
        if e.number == number and e.team == team and e.period == 0
    )
    return trip_story(result, index)


# §1 game frame ----------------------------------------------------------------------------


def test_the_visitor_plays_first_and_each_team_has_44_trips():
    result = play(HOME, AWAY, trips(), plans=False)
    regulation = [e for e in result.events if isinstance(e, Trip) and e.period == 0]
    normal = [e for e in regulation if e.kind != "reroll"]
    assert normal[0].team == "away" and normal[1].team == "home"
    assert sum(e.team == "away" for e in normal) == 44
    assert [e.number for e in normal[::2]] == list(range(44, 0, -1))


def test_a_tie_after_possession_1_goes_to_a_10_possession_overtime_with_the_starters():
    # Every regulation trip is a turnover: 20-20. Overtime (10..1, the 2026-11-23 note):
    # turnovers until the home team's last trip, a 3 (d20 1).
    script = trips(*pad(44), *pad(9), TURNOVER, (1, 62, 1))
    dice = ScriptedDice(**script)
    result = play_game(HOME, AWAY, dice, neutral=True)
    assert result.overtimes == 1
    assert (result.home.score, result.away.score) == (23, 20)
    assert result.home.periods == (20, 3) and result.away.periods == (20, 0)
    overtime = [e for e in result.events if isinstance(e, Trip) and e.period == 1]
    assert [e.number for e in overtime[::2]] == list(range(10, 0, -1))
    # The starters finished regulation (37-1) and play the overtime: nobody enters.
    assert not [e for e in result.events if isinstance(e, Enter) and e.period == 1]
    assert result.home.line("Home Starter 1").poss == 37 + 10
    assert result.home.line("Home Reserve 1").poss == 7


def test_the_overtime_length_is_a_rule_option_that_stored_games_keep():
    five = replace(ADVANCED, overtime_possessions=5)
    script = trips(*pad(44), *pad(4), TURNOVER, (1, 62, 1))
    result = play_game(HOME, AWAY, ScriptedDice(**script), rules=five, neutral=True)
    assert (result.overtimes, result.home.score, result.away.score) == (1, 23, 20)
    assert result.home.line("Home Starter 1").poss == 37 + 5
    stored = result.to_json()["rules"]
    assert stored["overtime_possessions"] == 5 and stored["version"] == RULES_VERSION
    assert GameRules.from_json(stored) == five


def test_rules_stored_before_versions_were_kept_replay_with_the_5_possession_overtime():
    old = {
        k: v
        for k, v in ADVANCED.to_json().items()
        if k
        not in (
            "version",
            "overtime_possessions",
            "pre_1987_claimed_extra",
            "fouled_reroll_turnover",
        )
    }
    assert GameRules.from_json(old).overtime_possessions == 5
    assert GameRules.from_json({**old, "version": 2}).overtime_possessions == 10


def test_rules_stored_before_version_3_read_a_pre_1987_centers_extra_number_off_his_card():
    # Version 2 documents never named the switch of the 2026-11-26 note.
    old = {
        k: v
        for k, v in ADVANCED.to_json().items()
        if k not in ("pre_1987_claimed_extra", "fouled_reroll_turnover")
    }
    assert ADVANCED.to_json()["version"] == RULES_VERSION >= 3
    for version, claimed in ((1, False), (2, False), (3, True), (4, True)):
        rules = GameRules.from_json({**old, "version": version})
        assert rules.pre_1987_claimed_extra is claimed
        assert rules.name == "advanced"  # the preset as that version had it
    assert GameRules.from_json(ADVANCED.to_json()) == ADVANCED


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ({"version": RULES_VERSION + 1}, "newer than this engine's"),
        ({"version": "two"}, "must be a whole number"),
        ({"version": RULES_VERSION, "shot_clock_seconds": 35}, "shot_clock_seconds"),
        ({"version": RULES_VERSION, "overtime_possessions": 0}, "overtime_possessions"),
        ({"version": RULES_VERSION, "home_court": "yes"}, "home_court"),
        ({"version": RULES_VERSION, "coach": "coin flip"}, "the coach must be one of"),
    ],
)
def test_rules_this_engine_cannot_play_are_refused_naming_why(doc, message):
    with pytest.raises(RulesVersionError, match=message):
        GameRules.from_json(doc)


# §2 rotation and tired players -----------------------------------------------------------


def test_basic_rotation_plays_the_first_reserve_44_38_and_the_starter_37_1():
    result = play(HOME, AWAY, trips(), rules=BASIC, plans=False)
    for s in range(1, 6):
        assert result.home.line(f"Home Reserve {s}").poss == 7 + 0
        assert result.home.line(f"Home Starter {s}").poss >= 37


def test_advanced_default_plan_fills_44_downward_with_reserves_by_their_can_play():
    doc = twin_team_json("Deep")
    for p in doc["players"]:
        if p["slot"] == 1:
            p["can_play"] = 30 if p["role"] == "starter" else 10
    doc["players"] = [p for p in doc["players"] if p["name"] != "Deep Reserve 5"]
    doc["players"].append(player("Deep Third Guard", 1, "reserve", can_play=9))
    deep = team_from_json(doc)
    result = play(deep, AWAY, trips(), plans=False)
    # Starter 30 of 44: the gap 44-31 (14) goes to the first reserve (10: 44-35), then the
    # second (4 of his 9: 34-31), then the starter plays 30-1.
    if result.overtimes == 0:
        assert result.home.line("Deep Reserve 1").poss == 10
        assert result.home.line("Deep Third Guard").poss == 4
        assert result.home.line("Deep Starter 1").poss == 30


def test_a_plan_that_leaves_possessions_uncovered_is_refused_naming_them():
    plan = {s: [(f"Home Starter {s}", 44, 1)] for s in range(1, 6)}
    plan[2] = [("Home Starter 2", 44, 3)]
    with pytest.raises(RotationError, match="slot 2: possessions 2, 1 have nobody planned"):
        play_game(HOME, AWAY, ScriptedDice(), home_plan=plan)
    plan[2] = [("Nobody", 44, 1)]
    with pytest.raises(RotationError, match="no player named 'Nobody'"):
        play_game(HOME, AWAY, ScriptedDice(), home_plan=plan)


TIRED = {"can_play": 0}  # tired from his first possession


@pytest.mark.parametrize(
    ("fields", "d20", "expected"),
    [
        ({}, 2, "make 3 Away Starter 1 (jumper)"),
        (TIRED, 2, "make 2 Away Starter 1 (jumper)"),  # d20 2 + 1 reads 3: a 2-made
        (TIRED, 8, "foul Home Starter 1 on Away Starter 1 2 (shooting)"),  # 8+1 = fouled
        (TIRED, 20, "miss 2 Away Starter 1 (jumper)"),  # 20 + 1 is read as 20
    ],
)
def test_a_tired_shooter_reads_his_d20_one_higher(fields, d20, expected):
    away = twin("Away", slots={1: fields})
    result = play(HOME, away, trips((1, 62, d20, [14, 14, 12], [1])))
    assert trip_story(result)[1] == expected


def test_a_tired_shooter_makes_a_free_throw_only_when_d20_plus_1_is_inside_the_range():
    away = twin("Away", slots={1: TIRED})
    result = play(HOME, away, trips((1, 62, 10, [13, 14, 12], [5])))
    assert trip_story(result)[2:4] == ["ft make Away Starter 1", "ft miss Away Starter 1"]


@pytest.mark.parametrize(
    ("fields", "roll", "stolen"),
    [
        ({"steal_top": 14}, 14, True),
        ({"steal_top": 14, **TIRED}, 14, False),  # 11-14 tired is 11-13
        ({"steal_top": 14, **TIRED}, 13, True),
        ({"steal_top": 11, **TIRED}, 11, False),  # shortening stops at an empty range
    ],
)
def test_a_tired_defender_steals_on_one_number_less(fields, roll, stolen):
    home = twin("Home", slots={1: fields})
    result = play(home, AWAY, trips((1, roll, 5, [5], [])))
    assert (trip_story(result)[1] == "steal Home Starter 1 fast break") is stolen


def test_a_tired_defender_fouls_and_blocks_one_number_differently():
    home = twin("Home", slots={1: {"foul_from": 35, "block_top": 25, **TIRED}})
    fouled = play(home, AWAY, trips((1, 34, 5, [14], [])))
    assert trip_story(fouled)[1:3] == [
        "make 2 Away Starter 1 (jumper)",
        "foul Home Starter 1 on Away Starter 1 1 (and-one)",
    ]
    not_blocked = play(home, AWAY, trips((1, 25, 5)))
    assert trip_story(not_blocked)[1] == "make 2 Away Starter 1 (jumper)"
    never_fouls = twin("Home", slots={1: {"foul_from": 37, **TIRED}})
    now_fouls = play(never_fouls, AWAY, trips((1, 36, 5, [14], [])))
    assert "foul Home Starter 1" in trip_story(now_fouls)[2]


def test_a_tired_carrier_turns_it_over_on_one_number_more_even_from_none():
    for top, roll in ((43, 44), (40, 41)):
        away = twin("Away", slots={1: {"turnover_top": top, **TIRED}})
        result = play(HOME, away, trips((1, roll, 5)))
        assert trip_story(result)[1] == "turnover Away Starter 1 (turnover)"


def test_tired_players_are_off_in_the_basic_preset():
    away = twin("Away", slots={1: TIRED})
    result = play(HOME, away, trips((1, 62, 2)), rules=BASIC)
    assert trip_story(result)[1] == "make 3 Away Starter 1 (jumper)"


# §3 dunk ranges ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dunk_top", "adjust", "roll", "outcome"),
    [
        (66, 0, 66, "dunk"),
        (63, 0, 63, "dunk"),
        (63, 0, 64, "none"),
        (60, 0, 61, "none"),  # 57-60 dunk only on 51-56
        (56, -2, 54, "dunk"),
        (56, -2, 55, "none"),
        (50, 0, 51, "none"),
        (49, 0, 51, "stop"),
        (49, 0, 52, "none"),
        (44, 0, 56, "stop"),
        (43, 0, 61, "none"),
        (39, 0, 61, "stop"),
        (34, 0, 66, "stop"),
        (34, -32, 66, "stop"),  # clamped to 34
    ],
)
def test_the_dunk_table(dunk_top, adjust, roll, outcome):
    offense = team_from_json(
        team_json("Off", 2000, [player(f"O{s}", s) for s in range(1, 6)], dunk_top=dunk_top)
    )
    defense = team_from_json(
        team_json("Def", 2000, [player(f"D{s}", s) for s in range(1, 6)], dunk_adjust=adjust)
    )
    story = trip_story(play(defense, offense, trips((2, roll, 5))))
    assert (
        story[1]
        == {
            "dunk": "make 2 O2 (dunk)",
            "stop": "miss 2 O2 (stopped)",
            "none": "make 2 O2 (jumper)",
        }[outcome]
    )


@pytest.mark.parametrize(
    ("dunk_top", "steal_top", "turnover_top", "steal_roll", "to_roll", "stolen", "lost"),
    [
        (59, 14, 43, 12, 42, True, True),  # 59: steals -2 (11-12), turnovers -1 (41-42)
        (59, 14, 43, 13, 43, False, False),
        (62, 11, 41, 11, 41, True, True),  # keep one: 11-11 and 41-41 survive
        (62, 10, 40, 11, 41, False, False),  # empty stays empty
        (41, 12, 41, 14, 42, True, True),  # 41: steals +2, turnovers +1
        (40, 12, 41, 15, 43, False, True),  # 40: +2/+2 -> 11-14, 41-43
    ],
)
def test_dunk_ranges_change_steal_and_turnover_ranges(
    dunk_top, steal_top, turnover_top, steal_roll, to_roll, stolen, lost
):
    offense = team_from_json(
        team_json(
            "Off",
            2000,
            [player(f"O{s}", s, turnover_top=turnover_top) for s in range(1, 6)],
            dunk_top=dunk_top,
        )
    )
    defense = team_from_json(
        team_json("Def", 2000, [player(f"D{s}", s, steal_top=steal_top) for s in range(1, 6)])
    )
    steal = trip_story(play(defense, offense, trips((5, steal_roll, 5))))
    assert (steal[1] == "steal D5") is stolen
    lose = trip_story(play(defense, offense, trips((5, to_roll, 5))))
    assert (lose[1] == "turnover O5 (turnover)") is lost


def test_a_player_level_dunk_override_replaces_the_team_value():
    offense_doc = team_json("Off", 2000, [player(f"O{s}", s) for s in range(1, 6)], dunk_top=50)
    offense_doc["players"][2]["dunk_top"] = 56
    offense = team_from_json(offense_doc)
    defense = team_from_json(team_json("Def", 2000, [player(f"D{s}", s) for s in range(1, 6)]))
    assert trip_story(play(defense, offense, trips((3, 53, 5))))[1] == "make 2 O3 (dunk)"
    assert trip_story(play(defense, offense, trips((2, 53, 5))))[1] == "make 2 O2 (jumper)"


# §4 who gets the ball ------------------------------------------------------------------------


def test_an_unclaimed_6_8_runs_the_shot_clock_and_a_second_6_8_is_a_team_turnover():
    plain = team_from_json(team_json("Plain", 2000, [player(f"P{s}", s) for s in range(1, 6)]))
    lost = play(HOME, plain, trips((7, 62, 5), (6, 62, 5)))
    assert trip_story(lost) == ["trip None", "trip None reroll", "turnover None (shot clock)"]
    saved = play(HOME, plain, trips((7, 62, 5), (2, 62, 5)))
    assert trip_story(saved) == ["trip None", "trip P2 reroll", "make 2 P2 (jumper)"]


def test_a_claimed_6_8_on_the_re_roll_is_still_a_turnover():
    no_point = twin("Away", slots={1: {"positions": [2]}})
    result = play(HOME, no_point, trips((6, 62, 5), (7, 62, 5)))
    assert trip_story(result)[-1] == "turnover None (shot clock)"


def test_without_a_point_guard_every_6_8_runs_the_shot_clock():
    no_point = twin("Away", slots={1: {"positions": [2, 3]}})
    result = play(HOME, no_point, trips((6, 62, 5), (3, 62, 5)))
    assert trip_story(result) == [
        "trip None",
        "trip Away Starter 3 reroll",
        "make 2 Away Starter 3 (jumper)",
    ]
    zero = twin("Away", slots={1: {"positions": [0, 2]}})
    assert trip_story(play(HOME, zero, trips((6, 62, 5))))[0] == "trip Away Starter 1"


def test_a_6_and_8_card_takes_two_free_numbers():
    doc = twin_team_json("Two")
    for p in doc["players"]:
        if p["role"] == "starter":
            p["extra_ball"] = {1: 0, 2: 2, 3: 0, 4: 1, 5: 0}[p["slot"]]
    two = team_from_json(doc)
    carriers = [trip_story(play(HOME, two, trips((d8, 62, 5))))[0] for d8 in (6, 7, 8)]
    assert carriers == ["trip Two Starter 2", "trip Two Starter 2", "trip Two Starter 4"]


def test_basic_6_8_leaves_the_carrier_to_his_own_defender_with_whole_ranges():
    home = twin("Home", slots={1: {"steal_top": 20}})
    # Advanced: halved 11-15, any defender: Home Starter 1 steals a 14 from the SF on a 7.
    advanced = play(home, AWAY, trips((7, 14, 5, [5], [])))
    assert trip_story(advanced)[1] == "steal Home Starter 1 fast break"
    basic = play(home, AWAY, trips((7, 14, 5)), rules=BASIC)
    assert trip_story(basic)[1] == "make 2 Away Starter 3 (jumper)"


def test_halving_rounds_the_count_up_and_checks_the_carriers_own_defender_first():
    home = twin("Home", slots={1: {"steal_top": 15}, 3: {"steal_top": 16}})
    # On a 7 (Away Starter 3): own defender Home Starter 3, 11-16 halved 11-13, goes first.
    result = play(home, AWAY, trips((7, 13, 5, [5], [])))
    assert trip_story(result)[1] == "steal Home Starter 3 fast break"


# §5 the 11-66 roll: fouls --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("d20", "number", "expected"),
    [
        (
            1,
            44,
            [
                "make 3 Away Starter 1 (jumper)",
                "foul Home Starter 1 on Away Starter 1 1 (and-one)",
                "ft make Away Starter 1",
            ],
        ),
        (
            5,
            44,
            [
                "make 2 Away Starter 1 (jumper)",
                "foul Home Starter 1 on Away Starter 1 1 (and-one)",
                "ft make Away Starter 1",
            ],
        ),
        (
            13,
            44,
            [
                "foul Home Starter 1 on Away Starter 1 3 (shooting)",
                "ft make Away Starter 1",
                "ft make Away Starter 1",
                "ft make Away Starter 1",
            ],
        ),
        (
            17,
            44,
            [
                "foul Home Starter 1 on Away Starter 1 2 (shooting)",
                "ft make Away Starter 1",
                "ft make Away Starter 1",
            ],
        ),
        (
            10,
            44,
            [
                "foul Home Starter 1 on Away Starter 1 2 (shooting)",
                "ft make Away Starter 1",
                "ft make Away Starter 1",
            ],
        ),
        (
            10,
            33,
            [
                "foul Home Starter 1 on Away Starter 1 2 (one-and-one)",
                "ft make Away Starter 1",
                "ft make Away Starter 1",
            ],
        ),
        (
            10,
            11,
            [
                "foul Home Starter 1 on Away Starter 1 2 (one-and-one)",
                "ft make Away Starter 1",
                "ft make Away Starter 1",
            ],
        ),
        (
            10,
            10,
            [
                "foul Home Starter 1 on Away Starter 1 2 (shooting)",
                "ft make Away Starter 1",
                "ft make Away Starter 1",
            ],
        ),
    ],
)
def test_a_33_36_foul_reads_the_d20_for_and_ones_one_and_ones_and_shots(d20, number, expected):
    streams = trips(*pad(44 - number), (1, 36, d20, [3, 3, 3], []))
    result = play(HOME, AWAY, streams if d20 in (13,) else _trim(streams, d20))
    story = story_at(result, number)
    assert story[1:] == expected
    # A shot missed while fouled is no attempt: no shot event unless the shot was made.
    assert any(text.startswith("make") for text in story) is (d20 <= 8)


def _trim(streams, d20):
    # Only as many free-throw rolls as the outcome uses.
    used = {1: 1, 5: 1, 10: 2, 17: 2}[d20]
    streams["d20"] = streams["d20"][: len(streams["d20"]) - 3 + used]
    return streams


def test_a_missed_one_and_one_ends_after_one_shot_with_a_rebound():
    streams = trips(*pad(44 - 30), (1, 36, 10, [20, 12], [1]))
    story = story_at(play(HOME, AWAY, streams), 30)
    assert story[1:] == [
        "foul Home Starter 1 on Away Starter 1 2 (one-and-one)",
        "ft miss Away Starter 1",
        "dreb Home Starter 5",
    ]


def test_a_block_is_a_missed_2_and_the_rebound_follows():
    home = twin("Home", slots={2: {"block_top": 24}})
    story = trip_story(play(home, AWAY, trips((2, 24, 5, [14], [1]))))
    assert story[1:] == [
        "block Home Starter 2",
        "miss 2 Away Starter 2 (blocked)",
        "dreb Home Starter 4",
    ]


# §6 free throws and their rebounds -------------------------------------------------------------


@pytest.mark.parametrize(
    ("d20", "d6", "rebounder"),
    [
        (7, 6, "dreb Home Starter 4"),  # 6-9: defensive PF, d6 not read
        (9, 6, "dreb Home Starter 4"),
        (17, 6, "dreb Home Starter 5"),  # 16-19: defensive C, d6 not read
        (12, 6, "oreb Away Starter 5"),  # the chart as usual: def C's 1-4 misses a 6
        (2, 1, "oreb Away Starter 5"),
    ],
)
def test_a_missed_last_free_throw_uses_the_free_throw_chart(d20, d6, rebounder):
    streams = trips((1, 62, 10, [20, 20, d20, 5], [d6]))
    story = trip_story(play(HOME, AWAY, streams))
    assert story[2:5] == ["ft miss Away Starter 1", "ft miss Away Starter 1", rebounder]


def test_a_missed_last_free_throw_on_an_odd_number_goes_to_that_numbers_defender():
    streams = trips(*pad(1), (1, 62, 10, [20, 20], []))
    story = story_at(play(HOME, AWAY, streams), 43)
    assert story[-1] == "dreb Home Starter 5"


# §7 rebounds --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("number", "rebounder"),
    [
        (43, "Home Starter 5"),
        (33, "Home Starter 5"),
        (41, "Home Starter 4"),
        (39, "Home Starter 5"),  # best defensive rebounder (all 1-4: the higher slot... )
        (37, "Home Starter 3"),
        (35, "Home Starter 2"),
        (15, "Home Starter 2"),
        (25, "Home Starter 1"),
        (5, "Home Starter 1"),
    ],
)
def test_odd_numbers_give_the_rebound_to_the_numbers_defender(number, rebounder):
    home = twin("Home", slots={5: {"def_reb": 6}})
    streams = trips(*pad(44 - number), (1, 62, 16))
    story = story_at(play(home, AWAY, streams), number)
    assert story == ["trip Away Starter 1", "miss 2 Away Starter 1 (jumper)", f"dreb {rebounder}"]


def test_best_defensive_rebounder_ties_go_to_the_higher_slot():
    streams = trips(*pad(5), (1, 62, 16))
    story = story_at(play(HOME, AWAY, streams), 39)
    assert story[-1] == "dreb Home Starter 1"


def test_offensive_rebounds_and_putbacks_go_on_until_the_trip_ends():
    streams = trips((1, 62, 16, [1, 16, 4, 5], [1, 1]))
    story = trip_story(play(HOME, AWAY, streams))
    assert story == [
        "trip Away Starter 1",
        "miss 2 Away Starter 1 (jumper)",
        "oreb Away Starter 5",
        "miss 2 Away Starter 5 (putback)",
        "oreb Away Starter 4",
        "make 2 Away Starter 4 (putback)",
    ]


def test_a_putback_foul_gives_two_shots_by_the_rebounders_defender():
    streams = trips((1, 62, 16, [6, 10, 3, 3], [1]))
    story = trip_story(play(HOME, AWAY, streams))
    assert story[2:] == [
        "oreb Away Starter 3",
        "foul Home Starter 3 on Away Starter 3 2 (shooting)",
        "ft make Away Starter 3",
        "ft make Away Starter 3",
    ]


def test_possession_1_uses_the_chart():
    streams = trips(*pad(43), (1, 62, 16, [2, 5], [1]))
    story = story_at(play(HOME, AWAY, streams), 1)
    assert story[2:] == ["oreb Away Starter 5", "make 2 Away Starter 5 (putback)"]


def test_without_the_chart_the_shooters_defender_gets_every_miss():
    streams = trips((3, 62, 16), (1, 62, 20), (2, 24, 5))
    home = twin("Home", slots={2: {"block_top": 24}})
    result = play(home, AWAY, streams, rules=BASIC)
    assert trip_story(result)[-1] == "dreb Home Starter 3"
    assert trip_story(result, 2)[1:] == [
        "block Home Starter 2",
        "miss 2 Away Starter 2 (blocked)",
        "dreb Home Starter 2",
    ]


# §8 fast breaks ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("slot", "roll", "fast"),
    [(1, 12, True), (2, 12, True), (3, 12, False), (3, 13, True), (4, 15, True), (4, 14, False)],
)
def test_guards_always_and_forwards_on_odd_steals_fast_break(slot, roll, fast):
    home = twin("Home", slots={slot: {"steal_top": 16}})
    streams = trips((slot, roll, 5, [5] if fast else [], []))
    story = trip_story(play(home, AWAY, streams))
    assert story[1] == f"steal Home Starter {slot}" + (" fast break" if fast else "")
    if fast:
        assert story[3] == f"make 2 Home Starter {slot} (fast break)"


def test_a_center_never_fast_breaks():
    home = twin("Home", slots={5: {"steal_top": 16}})
    story = trip_story(play(home, AWAY, trips((5, 11, 5))))
    assert story[1:] == ["steal Home Starter 5", "turnover Away Starter 5 (steal)"]


def test_a_fast_break_miss_is_rebounded_by_the_numbers_rules_with_the_stealers_as_offense():
    home = twin("Home", slots={1: {"steal_top": 16}})
    streams = trips((1, 12, 5, [16, 1, 5], [1]))
    story = trip_story(play(home, AWAY, streams))
    assert story[3:] == [
        "miss 2 Home Starter 1 (fast break)",
        "oreb Home Starter 5",
        "make 2 Home Starter 5 (putback)",
    ]
    # The bonus costs the stealers no possession: their own trip at 44 comes next.
    following = [e for e in play(home, AWAY, streams).events if isinstance(e, Trip)][1]
    assert (following.team, following.number, following.kind) == ("home", 44, "")


def test_a_fast_break_foul_is_two_shots_by_the_opponent_in_the_stealers_slot():
    home = twin("Home", slots={2: {"steal_top": 16}})
    story = trip_story(play(home, AWAY, trips((2, 16, 5, [10, 3, 3], []))))
    assert story[3:] == [
        "foul Away Starter 2 on Home Starter 2 2 (shooting)",
        "ft make Home Starter 2",
        "ft make Home Starter 2",
    ]


# §9 pre-1987 centers ---------------------------------------------------------------------------


PRE_1987_CENTER_D20 = {"3PM": "1-2", "2PM": "3-9", "FOUL": "10-11", "3PX": "12-15", "2PX": "16-20"}


def old_team(extras: dict[int, int], season: int = 1975, **slots: dict) -> TeamCard:
    """Return a plain team whose center has two 3-made numbers; ``extras`` by slot."""
    fields = {s: {"extra_ball": extras.get(s, 0)} for s in range(1, 6)}
    fields[5]["d20"] = PRE_1987_CENTER_D20
    for slot, more in slots.items():
        fields[int(slot[-1])].update(more)
    return twin("Old", season, slots=fields)


def d20_reads(team: TeamCard, slot: int, rolls=(3, 4, 5), **kwargs) -> list[str]:
    """Return what the player in ``slot`` does with each main d20 roll at possession 44."""
    return [trip_story(play(HOME, team, trips((slot, 62, roll)), **kwargs))[1] for roll in rolls]


def test_a_pre_1987_centers_3s_are_2s_and_move_to_the_guards():
    old = old_team({1: 1, 3: 1, 4: 1})
    center = play(HOME, old, trips((5, 62, 1)))
    assert trip_story(center)[1] == "make 2 Old Starter 5 (jumper)"
    center_miss = play(HOME, old, trips((5, 62, 13, [16], [])))
    assert trip_story(center_miss)[1] == "miss 2 Old Starter 5 (jumper)"
    # n = 2: the PG and the SG gain one each: the first of their 3-8 two-made numbers.
    assert d20_reads(old, 1) == [
        "make 3 Old Starter 1 (jumper)",
        "make 2 Old Starter 1 (jumper)",
        "make 2 Old Starter 1 (jumper)",
    ]
    assert d20_reads(old, 2, (3, 4)) == [
        "make 3 Old Starter 2 (jumper)",
        "make 2 Old Starter 2 (jumper)",
    ]
    modern = old_team({1: 1, 3: 1, 4: 1}, season=1990)
    assert trip_story(play(HOME, modern, trips((5, 62, 1))))[1] == "make 3 Old Starter 5 (jumper)"
    assert trip_story(play(HOME, old, trips((5, 62, 1)), rules=BASIC))[1] == (
        "make 3 Old Starter 5 (jumper)"
    )


def test_a_centers_listed_extra_number_that_a_teammate_above_claims_gives_no_gain():
    # The 2026-11-26 note: PG 6, SF 7, PF 8; the center's "5&7" card gets no number, so
    # he does not hold one, and the PG (who takes the 6) gains only the n = 2 one.
    old = old_team({1: 1, 3: 1, 4: 1, 5: 1})
    assert trip_story(play(HOME, old, trips((8, 62, 5))))[0] == "trip Old Starter 4"
    reads = [text.split(" Old")[0] for text in d20_reads(old, 1)]
    assert reads == ["make 3", "make 2", "make 2"]
    # Rules version 2 read his card: the PG gained one more (3 and 4 are 3s).
    by_card = replace(ADVANCED, pre_1987_claimed_extra=False)
    assert [text.split(" Old")[0] for text in d20_reads(old, 1, rules=by_card)] == [
        "make 3",
        "make 3",
        "make 2",
    ]


def test_a_center_who_gets_an_extra_number_gives_whoever_takes_the_6_one_more_gain():
    # SG 6, SF 7, the center 8 (the PF has none): the SG takes the 6 and gains one more.
    old = old_team({2: 1, 3: 1, 5: 1})
    assert trip_story(play(HOME, old, trips((8, 62, 5))))[0] == "trip Old Starter 5"
    assert trip_story(play(HOME, old, trips((6, 62, 5))))[0] == "trip Old Starter 2"
    reads = [text.split(" Old")[0] for text in d20_reads(old, 2)]
    assert reads == ["make 3", "make 3", "make 2"]  # the n = 2 gain and the 6's
    assert [text.split(" Old")[0] for text in d20_reads(old, 1)] == ["make 3", "make 2", "make 2"]
    # The same lineup under rules version 2: the same gains (his card lists one).
    by_card = replace(ADVANCED, pre_1987_claimed_extra=False)
    assert [t.split(" Old")[0] for t in d20_reads(old, 2, rules=by_card)] == reads


def test_a_center_who_takes_the_6_himself_gains_nothing_from_it():
    # Nobody above him has an extra number: the center claims the 6. "Whoever takes the
    # d8 6 gains one more" does not turn his own 2s back into 3s (docs/engine.md).
    old = old_team({5: 1})
    assert trip_story(play(HOME, old, trips((6, 62, 5))))[0] == "trip Old Starter 5"
    assert [t.split(" Old")[0] for t in d20_reads(old, 5, (1, 2, 3))] == ["make 2"] * 3
    assert [t.split(" Old")[0] for t in d20_reads(old, 1)] == ["make 3", "make 2", "make 2"]


def test_a_center_whose_6_8_never_comes_without_a_point_guard_holds_no_extra_number():
    # SG 6, SF 7, C 8, but slot 1 cannot run the point: every 6-8 runs the shot clock (§4),
    # so no number goes to the center and nobody takes the 6.
    old = old_team({2: 1, 3: 1, 5: 1}, slot1={"positions": [2]})
    assert trip_story(play(HOME, old, trips((8, 62, 5), (5, 62, 5))))[0] == "trip None"
    assert [t.split(" Old")[0] for t in d20_reads(old, 2)] == ["make 3", "make 2", "make 2"]


def test_a_substitution_that_takes_the_centers_extra_number_away_takes_the_gain_with_it():
    # PF: a reserve with no extra number plays 44-38 (the center claims the 8 and the PG,
    # who takes the 6, gains one more), then the starter with one (he claims the 8).
    old = old_team({1: 1, 3: 1, 4: 1, 5: 1})
    plan = {s: [(f"Old Starter {s}", 44, 1)] for s in range(1, 6)}
    plan[4] = [("Old Reserve 4", 44, 38), ("Old Starter 4", 37, 1)]

    def play_44_and_37(d8: int, d20: int) -> tuple[list[str], list[str]]:
        dice = ThenSeeded(**trips((d8, 62, d20), *pad(7)[1:], (d8, 62, d20)))
        result = play_game(HOME, old, dice, neutral=True, away_plan=plan)
        return story_at(result, 44), story_at(result, 37)

    at_44, at_37 = play_44_and_37(8, 5)
    assert (at_44[0], at_37[0]) == ("trip Old Starter 5", "trip Old Starter 4")
    at_44, at_37 = play_44_and_37(1, 4)
    assert (at_44[1], at_37[1]) == (
        "make 3 Old Starter 1 (jumper)",
        "make 2 Old Starter 1 (jumper)",
    )


# §10 strategy ------------------------------------------------------------------------------------


# The rules of each choice, played by the thresholds of games before rules version 3 (the
# exact coach's own choices: tests/simulator/vabg/test_coachodds.py).


def test_a_trailing_team_fouls_on_2a_under_the_coach_policy():
    # The visitor scores a 2 first; everything else is a turnover until 2a.
    rolls = [(1, 62, 5), *[TURNOVER] * (2 * 42 - 1)]
    # 2a: the visitor's trip with the home team fouling (d8 1, 62: no steal or turnover),
    # two free throws made; then the home team's 2a trip (a turnover).
    rolls += [(1, 62, 9, [3, 3], []), TURNOVER]
    strategy = replace(ADVANCED, strategy=True)
    result = play(HOME, AWAY, trips(*rolls), rules=strategy, coach=DEFAULT_POLICY)
    calls = [e for e in result.events if isinstance(e, Call)]
    assert calls[0].call == "intentional foul" and calls[0].team == "home"
    assert calls[0].number == 2
    fouling = [e for e in result.events if isinstance(e, Trip) and e.kind == "foul"]
    assert fouling[0].team == "away" and fouling[0].number == 2
    assert result.away.line("Away Starter 1").fta >= 2


def test_a_6_8_on_the_re_roll_of_a_trip_fouled_on_purpose_is_a_shot_clock_turnover():
    # Only slot 1 claims an extra number (the 6): a 7 runs the shot clock on the 2a trip the
    # home team fouls, and the re-roll's 6, claimed or not, is the team turnover (§4, §12).
    one_extra = twin("Away", slots={3: {"extra_ball": 0}, 4: {"extra_ball": 0}})
    rolls = [(1, 62, 5), *[TURNOVER] * (2 * 42 - 1), (7, 62, 9), (6, 62, 9, [3, 3], [])]
    stored = {k: v for k, v in ADVANCED.to_json().items() if k != "fouled_reroll_turnover"}
    strategy = GameRules.from_json({**stored, "strategy": True})
    assert strategy.fouled_reroll_turnover and RULES_VERSION >= 4

    def fouled_2a(rules: GameRules) -> list[str]:
        result = play(HOME, one_extra, trips(*rolls), rules=rules, coach=DEFAULT_POLICY)
        fouled = next(
            i for i, e in enumerate(result.events) if isinstance(e, Trip) and e.kind == "foul"
        )
        assert (result.events[fouled].team, result.events[fouled].number) == ("away", 2)
        return [text for e in result.events[fouled:] if (text := brief(e)) is not None][:3]

    assert fouled_2a(strategy) == [
        "trip None foul",
        "trip None reroll",
        "turnover None (shot clock)",
    ]
    # Games stored under rules versions 1-3 played the claimed 6: the fouled trip went on.
    before = GameRules.from_json({**stored, "strategy": True, "version": 3})
    assert not before.fouled_reroll_turnover
    assert fouled_2a(before)[:3] == [
        "trip None foul",
        "trip Away Starter 1 reroll",
        "foul Home Starter 1 on Away Starter 1 2 (intentional)",
    ]


def test_without_the_strategy_switch_nobody_fouls_on_purpose():
    rolls = [(1, 62, 5), *[TURNOVER] * (2 * 42 - 1)]
    result = play(HOME, AWAY, trips(*rolls))
    assert not [e for e in result.events if isinstance(e, Call)]


def test_try_for_3_turns_2s_into_3s_and_misses_within_the_doubling_limit():
    # The home team trails by 6 at its trip on 10: 3-made 1-2 may grow to 1-4; the 2-made
    # 3-8 loses 3-4 to 3s and 7-8 to misses with the defense rebounding.
    # The visitor leads 26-20 with two 3s on dunk rolls (d20 1) at 44 and 43.
    rolls = [(1, 55, 1), TURNOVER, (1, 55, 1), *[TURNOVER] * (2 * 34 - 3)]
    rolls += [TURNOVER, (1, 62, 8), TURNOVER, (1, 62, 4), TURNOVER, (1, 62, 4)]
    strategy = replace(ADVANCED, strategy=True)
    result = play(HOME, AWAY, trips(*rolls), rules=strategy, coach=DEFAULT_POLICY)
    assert story_at(result, 10, "home")[1:] == [
        "miss 3 Home Starter 1 (jumper (try for 3))",
        "dreb Away Starter 1",
    ]
    assert story_at(result, 9, "home")[1] == "make 3 Home Starter 1 (jumper)"
    # Down 3, no longer more than 3: a 4 is a 2 again.
    assert story_at(result, 8, "home")[1] == "make 2 Home Starter 1 (jumper)"
    plain = play(HOME, AWAY, trips(*rolls))
    assert story_at(plain, 10, "home")[1] == "make 2 Home Starter 1 (jumper)"


EAGER = CoachPolicy(
    extra_possession_within=44, foul_deficit_max=200, try3_within=44, try3_deficit_over=-200
)


def test_only_a_trailing_team_chooses_whatever_its_coach_asks():
    # A coach that would foul at any margin, try for 3 ahead or behind and take every
    # extra possession: §10 lets only the trailing team, §8 only in the last 5 numbers.
    home, away = fixture("kentucky-2012"), fixture("kansas-2008")
    rules = replace(ADVANCED, strategy=True)
    tries = 0
    takers = set()
    for seed in range(60):
        result = play_game(home, away, SeededDice(seed), rules=rules, coach=EAGER)
        score = {"home": 20, "away": 20}
        other = {"home": "away", "away": "home"}
        ran: dict[tuple[int, int], set[str]] = {}
        for e in result.events:
            if isinstance(e, Call) and e.call == "intentional foul":
                assert score[e.team] < score[other[e.team]], (seed, e)
            elif isinstance(e, Call) and e.call == "extra possession":
                assert e.number <= 5, (seed, e)
                # §8: a team that fast-broke in the number takes them, and the call is its
                # own (the visitor was named whoever took them).
                assert e.team in ran.get((e.period, e.number), set()), (seed, e)
                takers.add(e.team)
            elif isinstance(e, Steal) and e.fast_break:
                ran.setdefault((e.period, e.number), set()).add(e.team)
            elif isinstance(e, Shot) and e.how == "jumper (try for 3)":
                assert score[e.team] < score[other[e.team]], (seed, e)
                tries += 1
            if isinstance(e, Shot) and e.made:
                score[e.team] += e.value
            elif isinstance(e, FreeThrow) and e.made:
                score[e.team] += 1
    assert tries > 10 and takers == {"home", "away"}


# §13 box-score credits ---------------------------------------------------------------------------


def _box_before_trip(result, trip: int):
    """Rebuild the box score from the events before the given trip (0 = the first)."""
    starts = [i for i, e in enumerate(result.events) if isinstance(e, Trip) and e.kind != "reroll"]
    return box_score(result.events[: starts[trip]])


def test_box_score_credits_follow_the_events_of_a_scripted_sequence():
    home = twin("Home", slots={2: {"steal_top": 16}, 5: {"block_top": 26}})
    plain = team_from_json(team_json("Plain", 2000, [player(f"P{s}", s) for s in range(1, 6)]))
    rolls = [
        # 44 away: P2's 12 stolen by Home Starter 2; his fast break misses (d20 16); chart
        # d20 11 (P5, def 1-4) with d6 6: Home Starter 5's offensive rebound, putback made.
        (2, 12, 5, [16, 11, 3], [6]),
        (1, 41, 1),  # 44 home: Home Starter 1 turns it over
        (7, 62, 5),  # 43 away: nobody holds a 7; the shot clock re-roll ...
        (6, 62, 5),  # ... is a 6 again: a team turnover
        (5, 24, 5),  # 43 home: P5's 21-21 cannot block 24; Home Starter 5 makes a 2
        (5, 25, 9, [20], []),  # 42 away: Home Starter 5 blocks P5; a 20: best rebounder
    ]
    result = play(home, plain, trips(*rolls))
    home_box, away_box, _ = _box_before_trip(result, 5)
    p2, p5 = away_box.line("P2"), away_box.line("P5")
    hs1, hs2, hs5 = (home_box.line(f"Home Starter {s}") for s in (1, 2, 5))
    # A steal is a steal of the stealer (after his opening one) and a turnover of the carrier.
    assert (hs2.stl, p2.to) == (2, 1)
    # The fast break's miss is a missed 2 of the stealer; the putback a made 2.
    assert (hs2.fga, hs2.fgm) == (1, 0)
    assert (hs5.oreb, hs5.fgm, hs5.fga, hs5.pts) == (1, 2, 2, 2 + 4)
    # The shot-clock violation is a team turnover credited to no player.
    assert away_box.team_turnovers == 1
    assert sum(p.to for p in away_box.players) == 1
    assert away_box.totals.to == 2
    # A block is the blocker's (after the center's opening block) and a missed 2 of the
    # carrier; on a d20 of 20 the best rebounder on the floor (Home's 1-4, slot 1 first).
    assert (hs5.blk, p5.fga, p5.fgm) == (2, 1, 0)
    assert (hs1.dreb, hs1.to) == (1, 1)
    # Opening credits: reb = opening + oreb + dreb; pf 1 each.
    assert hs5.reb == 2 + 1
    assert {p.pf for p in (*home_box.players, *away_box.players)} == {1}


def test_a_stop_on_a_6_8_is_a_turnover_of_the_carrier_and_a_fouled_miss_no_attempt():
    offense = team_from_json(
        team_json(
            "Off",
            2000,
            [player(f"O{s}", s, extra_ball=1 if s == 1 else 0) for s in range(1, 6)],
            dunk_top=44,
        )
    )
    defense = team_from_json(team_json("Def", 2000, [player(f"D{s}", s) for s in range(1, 6)]))
    result = play(defense, offense, trips((6, 53, 5)))
    assert trip_story(result)[1] == "turnover O1 (stopped)"
    # A miss while fouled (d20 13 after a 35: three shots) is no field-goal attempt.
    result = play(defense, offense, trips((2, 35, 13, [1, 1, 1], [])))
    assert trip_story(result)[1] == "foul D2 on O2 3 (shooting)"
    first_trip = [e for e in result.events if type(e).__name__ == "Shot" and e.number == 44]
    assert not [e for e in first_trip if e.team == "away"]
