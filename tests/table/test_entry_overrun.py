"""Dice typed past the end of the roll asked for (a six-dice player's review at 375 px).

Several rolls may be typed in one entry (both teams' dice of a main roll, say), and are
taken as typed; but an entry that ends part-way into a later roll used to say nothing, so a
seventh die typed for a six-dice roll silently began the other team's roll. The answer now
says where the entry left the game, and the page shows it.
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
    answer = roll(player_client, game["id"], JUMP)
    assert answer.status_code == 200 and answer.json()["entry_note"] == ""
    assert answer.json()["need"]["step"] == "Kansas 2008: main roll"
    # Seven dice for a six-dice roll: the seventh is Kentucky 2012's first, and said so.
    answer = roll(player_client, game["id"], [1, 1, 2, 2, 4, 5, 3])
    state = answer.json()
    assert answer.status_code == 200, state
    assert state["count"] == 19  # kept as typed: Undo die takes the seventh back
    assert state["need"]["step"] == "Kentucky 2012: main roll" and state["need"]["index"] == 2
    assert state["entry_note"].startswith(
        "6 dice for Kansas 2008's main roll and 1 of Kentucky 2012's main roll: that roll "
        "needs 5 more"
    )
    # The rest of that roll: nothing to say.
    answer = roll(player_client, game["id"], [4, 4, 5, 5, 6])
    assert answer.status_code == 200 and answer.json()["entry_note"] == ""
    # The game's state (a reload) says nothing: the note answers one entry.
    state = player_client.get(reverse("table:api-game", args=[game["id"]])).json()
    assert state["entry_note"] == ""


def test_whole_rolls_typed_in_one_entry_or_part_of_the_roll_asked_for_say_nothing(
    player_client, teams
) -> None:
    game = sixdice(player_client, teams)
    # Both teams' jump ball dice, then both teams' main roll, each in one entry.
    for dice in (JUMP, [1, 1, 2, 2, 4, 5, 4, 4, 5, 5, 6, 6]):
        answer = roll(player_client, game["id"], dice)
        assert answer.status_code == 200 and answer.json()["entry_note"] == "", answer.json()
    # Three dice of the roll asked for: its index moves on, nothing is said.
    answer = roll(player_client, game["id"], [1, 2, 3])
    assert answer.status_code == 200 and answer.json()["entry_note"] == ""
    assert answer.json()["need"]["index"] == 4


def test_an_entry_that_runs_over_two_rolls_names_the_first_and_the_one_it_ends_in(
    player_client, teams
) -> None:
    game = sixdice(player_client, teams)
    answer = roll(player_client, game["id"], [*JUMP, 1, 1, 2, 2, 4, 5, 4, 4])
    state = answer.json()
    assert answer.status_code == 200, state
    assert state["entry_note"].startswith(
        "18 dice for Kansas 2008's jump ball and the rolls after it and 2 of Kentucky 2012's "
        "main roll: that roll needs 4 more"
    )
