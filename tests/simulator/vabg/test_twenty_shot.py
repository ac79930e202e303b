"""The "20 shot" (rulings §4, §12) on each of the four d20 shots the engine reads.

Team "Short": slot 1 has two extra ball numbers and claims 6 and 7, so slot 2 gets only
the 8 of his two: he makes a 2 on a rolled 20 that his card reads as a miss
(``AVERAGE_D20`` misses 16-20). The same rolls without the rule are misses.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from simulator.vabg import ADVANCED, team_from_json
from tests.simulator.vabg.scripting import play, trip_story, trips
from tests.simulator.vabg.teams import player, team_json

NO_TWENTY = replace(ADVANCED, twenty_shot=False)


def short_team():
    extras = {1: 2, 2: 2}
    return team_from_json(
        team_json(
            "Short", 2000, [player(f"S{s}", s, extra_ball=extras.get(s, 0)) for s in range(1, 6)]
        )
    )


def plain_team():
    return team_from_json(team_json("Plain", 2000, [player(f"P{s}", s) for s in range(1, 6)]))


@pytest.mark.parametrize(("rules", "made"), [(ADVANCED, True), (NO_TWENTY, False)])
def test_a_20_on_the_main_read_is_a_made_2(rules, made):
    story = trip_story(play(plain_team(), short_team(), trips((2, 62, 20)), rules=rules))
    assert story[1] == ("make 2 S2 (jumper (20 shot))" if made else "miss 2 S2 (jumper)")


@pytest.mark.parametrize(("rules", "made"), [(ADVANCED, True), (NO_TWENTY, False)])
def test_a_20_on_a_fouled_shot_is_a_made_2_and_one(rules, made):
    story = trip_story(play(plain_team(), short_team(), trips((2, 36, 20)), rules=rules))
    if made:
        assert story[1:3] == ["make 2 S2 (jumper)", "foul P2 on S2 1 (and-one)"]
    else:
        assert story[1] == "foul P2 on S2 2 (shooting)"


@pytest.mark.parametrize(("rules", "made"), [(ADVANCED, True), (NO_TWENTY, False)])
def test_a_20_on_a_putback_is_a_made_2(rules, made):
    # S1 misses (d20 16); chart d20 8 gives the SG first chance, d6 1 inside his 1-3.
    streams = trips((1, 62, 16, [8, 20], [1]))
    story = trip_story(play(plain_team(), short_team(), streams, rules=rules))
    assert story[1:3] == ["miss 2 S1 (jumper)", "oreb S2"]
    assert story[3] == ("make 2 S2 (putback)" if made else "miss 2 S2 (putback)")


@pytest.mark.parametrize(("rules", "made"), [(ADVANCED, True), (NO_TWENTY, False)])
def test_a_20_on_a_fast_break_is_a_made_2(rules, made):
    # P2's 12 is inside S2's steal range 11-13; the guard breaks at once.
    story = trip_story(play(short_team(), plain_team(), trips((2, 12, 5, [20], [])), rules=rules))
    assert story[1:3] == ["steal S2 fast break", "turnover P2 (steal)"]
    assert story[3] == ("make 2 S2 (fast break)" if made else "miss 2 S2 (fast break)")


def test_a_player_who_claims_all_his_extras_has_no_20_shot():
    # S1 claims both his extras (6 and 7): a 20 is his card's miss.
    story = trip_story(play(plain_team(), short_team(), trips((1, 62, 20))))
    assert story[1] == "miss 2 S1 (jumper)"


def test_a_20_does_not_help_a_free_throw():
    # S2 fouled on the d20 (9-11); both free throws rolled 20 against his 1-14: missed.
    story = trip_story(play(plain_team(), short_team(), trips((2, 62, 10, [20, 20], []))))
    assert story[1:4] == ["foul P2 on S2 2 (shooting)", "ft miss S2", "ft miss S2"]
