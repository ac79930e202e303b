"""Dice typed past the end of the roll asked for (a six-dice player's review at 375 px).

Several rolls may be typed in one entry (both teams' dice of a main roll, a VABG trip with
its rebound, a whole game), and are taken as typed; but a die past a roll's end begins the
next roll, often the other team's. An entry that ended part-way into a later roll said so;
one that ended at a roll's end said nothing, so a fifth die typed for a VABG trip of four
became the other team's d8, and a third for a grid-court offensive roll the defense's whole
roll, unseen. The answer now names each roll an entry's dice went to, and the page shows it.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.table.test_api import roll, start

pytestmark = pytest.mark.django_db

# A jump ball Kansas 2008 (away) wins, 3 Balls to none: Kansas 2008 has the first main roll.
JUMP = [1, 2, 3, 4, 5, 6, 4, 4, 5, 5, 6, 6]


def sixdice(client, teams):  # type: ignore[no-untyped-def]
    return start(client, teams, game="sixdice", hands=[])


def test_a_die_typed_past_the_roll_asked_for_is_kept_and_the_answer_says_whose_roll_it_began(
    player_client, teams
) -> None:
    game = sixdice(player_client, teams)
    for die in JUMP:  # die by die: each in the roll asked for, nothing to say
        answer = roll(player_client, game["id"], [die])
        assert answer.status_code == 200 and answer.json()["entry_note"] == ""
    assert answer.json()["need"]["step"] == "Kansas 2008: main roll"
    # Seven dice for a six-dice roll: the seventh is Kentucky 2012's first, and said so.
    answer = roll(player_client, game["id"], [1, 1, 2, 2, 4, 5, 3])
    state = answer.json()
    assert answer.status_code == 200, state
    assert state["count"] == 19  # kept as typed: Undo die takes the seventh back
    assert state["need"]["step"] == "Kentucky 2012: main roll" and state["need"]["index"] == 2
    assert state["entry_note"] == (
        "7 dice to 2 rolls: Kansas 2008's main roll: 1 1 2 2 4 5; Kentucky 2012's main roll: "
        "3. Kentucky 2012's main roll needs 5 more. Too many? Undo die."
    )
    # The rest of that roll: nothing to say.
    answer = roll(player_client, game["id"], [4, 4, 5, 5, 6])
    assert answer.status_code == 200 and answer.json()["entry_note"] == ""
    # The game's state (a reload) says nothing: the note answers one entry.
    state = player_client.get(reverse("table:api-game", args=[game["id"]])).json()
    assert state["entry_note"] == ""


def test_whole_rolls_typed_in_one_entry_are_each_named_and_part_of_one_roll_says_nothing(
    player_client, teams
) -> None:
    game = sixdice(player_client, teams)
    # Both teams' jump ball dice in one entry: taken, each team's dice named.
    answer = roll(player_client, game["id"], JUMP)
    assert answer.status_code == 200 and answer.json()["entry_note"] == (
        "12 dice to 2 rolls: Kansas 2008's jump ball: 1 2 3 4 5 6; Kentucky 2012's jump ball: "
        "4 4 5 5 6 6. Too many? Undo die."
    )
    # Three dice of the roll asked for: its index moves on, nothing is said.
    answer = roll(player_client, game["id"], [1, 2, 3])
    assert answer.status_code == 200 and answer.json()["entry_note"] == ""
    assert answer.json()["need"]["index"] == 4


def test_a_die_past_a_vabg_trip_is_named_as_the_other_team_s_d8(player_client, teams) -> None:
    game = start(player_client, teams)
    # Kansas 2008's trip 44 ends on its d20 (1: made); the fifth die is Kentucky 2012's d8.
    answer = roll(player_client, game["id"], [5, 3, 4, 1, 6])
    state = answer.json()
    assert answer.status_code == 200 and state["count"] == 5, state
    assert state["entry_note"] == (
        "5 dice to 2 trips: Kansas 2008's possession 44: 5 3 4 1; Kentucky 2012's possession "
        "44: 6. Too many? Undo die."
    )
    # A trip typed with its rebound is one trip: nothing to say.
    game = start(player_client, teams)
    answer = roll(player_client, game["id"], [5, 3, 4, 17, 6])
    assert answer.status_code == 200 and answer.json()["entry_note"] == ""


def test_a_die_past_a_grid_court_roll_is_named_as_the_defense_s_roll(player_client, teams) -> None:
    game = start(player_client, teams, game="gridcourt", hands=[])
    answer = roll(player_client, game["id"], [3, 5, 4])
    assert answer.status_code == 200 and answer.json()["entry_note"] == (
        "3 dice to 2 rolls: Kansas 2008's offense roll: 3 5; Kentucky 2012's defense roll: 4. "
        "Too many? Undo die."
    )


def test_an_entry_over_many_rolls_names_the_first_two_and_the_last(player_client, teams) -> None:
    game = sixdice(player_client, teams)
    answer = roll(player_client, game["id"], [*JUMP, 1, 1, 2, 2, 4, 5, 4, 4, 5, 5, 6, 6, 1, 2])
    state = answer.json()
    assert answer.status_code == 200, state
    assert state["entry_note"] == (
        "26 dice to 5 rolls: Kansas 2008's jump ball: 1 2 3 4 5 6; Kentucky 2012's jump ball: "
        "4 4 5 5 6 6; ... 2 more ...; Kansas 2008's main roll: 1 2. Kansas 2008's main roll "
        "needs 4 more. Too many? Undo die."
    )
