"""Reading ``vabg-team/1`` files (interchange.md, "Team file"): every rule, every message.

A file that breaks any rule is refused as a whole with one message per problem, naming
the player and the field. Each case below changes one value of the rulebook's Kansas
2008 and checks the exact message a commissioner would read.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from simulator.vabg import InvalidCardError, read_team_file, team_from_json
from simulator.vabg.cards import team_key_slips

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "teams"
KANSAS = json.loads((FIXTURES / "kansas-2008.json").read_text(encoding="utf-8"))
ROBINSON = "player 1 (Russell Robinson)"
RUSH = "player 3 (Brandon Rush)"
COLLINS = "player 6 (Sherron Collins)"

Change = Callable[[dict[str, Any]], object]


def kansas(change: Change | None = None) -> dict[str, Any]:
    doc = copy.deepcopy(KANSAS)
    if change is not None:
        change(doc)
    return doc


def problems(doc: object) -> list[str]:
    with pytest.raises(InvalidCardError) as caught:
        team_from_json(doc)
    assert isinstance(caught.value, ValueError)
    return list(caught.value.problems)


def first_player(**values: Any) -> Change:
    return lambda doc: doc["players"][0].update(values)


def first_reserve(**values: Any) -> Change:
    return lambda doc: doc["players"][5].update(values)


def first_d20(**ranges: Any) -> Change:
    return lambda doc: doc["players"][0]["d20"].update(ranges)


# Each rule of interchange.md, broken once, with the one message it must give.
# fmt: off
ONE_PROBLEM: list[tuple[str, Change, str]] = [
    # the team
    ("format", lambda d: d.update(format="vabg-team/2"), "format must be \"vabg-team/1\", got \"vabg-team/2\""),
    ("school", lambda d: d.update(school="  "), "school: must be a non-empty text, got \"  \""),
    ("season low", lambda d: d.update(season=1799), "season must be 1800 to 2200, got 1799"),
    ("season high", lambda d: d.update(season=2201), "season must be 1800 to 2200, got 2201"),
    ("season text", lambda d: d.update(season="2008"), "season must be a whole number 1800 to 2200, got \"2008\""),
    ("season missing", lambda d: d.pop("season"), "season is missing"),
    ("dunk_top low", lambda d: d.update(dunk_top=33), "dunk_top must be 34 to 66, got 33"),
    ("dunk_top high", lambda d: d.update(dunk_top=67), "dunk_top must be 34 to 66, got 67"),
    ("dunk_adjust low", lambda d: d.update(dunk_adjust=-33), "dunk_adjust must be -32 to 32, got -33"),
    ("dunk_adjust high", lambda d: d.update(dunk_adjust=33), "dunk_adjust must be -32 to 32, got 33"),
    ("conference", lambda d: d.update(conference=12), "conference must be text, got 12"),
    ("card_source", lambda d: d.update(card_source="guessed"), "card_source: must be one of published, calculated, estimated, got \"guessed\""),
    ("players", lambda d: d.update(players={}), "players: must be a list, got an object"),
    ("players", lambda d: d.pop("players"), "players is missing: a team file lists its players"),
    # the roster
    ("11 players", lambda d: d["players"].append(dict(d["players"][5], name="Walk On")), "players: a roster holds 5 to 10 players, this one has 11"),
    ("same name", lambda d: d["players"][6].update(name="Sherron Collins"), "players: the name 'Sherron Collins' is used 2 times (players 6 and 7)"),
    ("no starter", first_player(role="reserve"), "players: slot 1 (PG) has no starter"),
    ("two starters", lambda d: d["players"][5].update(role="starter"), "players: slot 1 (PG) has 2 starters (Russell Robinson, Sherron Collins)"),
    ("player not an object", lambda d: d["players"].__setitem__(5, "Sherron Collins"), "player 6: must be an object, got a text"),
    # one player's fields
    ("name", first_player(name=""), "player 1: name must be a non-empty text, got \"\""),
    # (slot and role are broken on a reserve: a broken starter also leaves his slot empty)
    ("slot", first_reserve(slot=6), f"{COLLINS}: slot must be 1 to 5, got 6"),
    ("slot true", first_reserve(slot=True), f"{COLLINS}: slot must be a whole number 1 to 5, got true"),
    ("role", first_reserve(role="sixth man"), f"{COLLINS}: role must be \"starter\" or \"reserve\", got \"sixth man\""),
    ("positions empty", first_player(positions=[]), f"{ROBINSON}: positions must be a non-empty list of distinct numbers 0-5, got []"),
    ("positions repeated", first_player(positions=[1, 1]), f"{ROBINSON}: positions must be a non-empty list of distinct numbers 0-5, got [1, 1]"),
    ("positions 6", first_player(positions=[1, 6]), f"{ROBINSON}: positions must be a non-empty list of distinct numbers 0-5, got [1, 6]"),
    ("extra_ball", first_player(extra_ball=3), f"{ROBINSON}: extra_ball must be 0 to 2, got 3"),
    ("can_play", first_player(can_play=67), f"{ROBINSON}: can_play must be 0 to 66, got 67"),
    ("steal_top low", first_player(steal_top=9), f"{ROBINSON}: steal_top must be 10 to 30, got 9"),
    ("steal_top high", first_player(steal_top=31), f"{ROBINSON}: steal_top must be 10 to 30, got 31"),
    ("block_top low", first_player(block_top=19), f"{ROBINSON}: block_top must be 20 to 40, got 19"),
    ("block_top high", first_player(block_top=41), f"{ROBINSON}: block_top must be 20 to 40, got 41"),
    ("foul_from low", first_player(foul_from=32), f"{ROBINSON}: foul_from must be 33 to 37, got 32"),
    ("foul_from high", first_player(foul_from=38), f"{ROBINSON}: foul_from must be 33 to 37, got 38"),
    ("turnover_top low", first_player(turnover_top=39), f"{ROBINSON}: turnover_top must be 40 to 46, got 39"),
    ("turnover_top high", first_player(turnover_top=47), f"{ROBINSON}: turnover_top must be 40 to 46, got 47"),
    ("free_throw_top", first_player(free_throw_top=21), f"{ROBINSON}: free_throw_top must be 0 to 20, got 21"),
    ("free_throw_top float", first_player(free_throw_top=14.0), f"{ROBINSON}: free_throw_top must be a whole number 0 to 20, got 14.0"),
    ("off_reb", first_player(off_reb=-1), f"{ROBINSON}: off_reb must be 0 to 20, got -1"),
    ("def_reb", first_player(def_reb=21), f"{ROBINSON}: def_reb must be 0 to 20, got 21"),
    ("def_reb missing", lambda d: d["players"][0].pop("def_reb"), f"{ROBINSON}: def_reb is missing"),
    ("player dunk_top", first_player(dunk_top=70), f"{ROBINSON}: dunk_top must be 34 to 66, got 70"),
    ("player dunk_adjust", first_player(dunk_adjust=-40), f"{ROBINSON}: dunk_adjust must be -32 to 32, got -40"),
    ("ppg", first_player(ppg="7.3"), f"{ROBINSON}: ppg must be a number of points per game, got \"7.3\""),
    ("height", first_player(height=73), f"{ROBINSON}: height must be text, got 73"),
    # the d20 column
    ("d20 missing", lambda d: d["players"][0].pop("d20"), f"{ROBINSON}: d20 must be an object with 3PM, 2PM, FOUL, 3PX, 2PX, got null"),
    ("d20 outcome missing", lambda d: d["players"][0]["d20"].pop("FOUL"), f"{ROBINSON}: d20 has no FOUL (use null for an outcome the card does not have)"),
    ("d20 past 20", first_d20(**{"2PX": "16-21"}), f'{ROBINSON}: d20 2PX must be "a-b" or "a" within 1-20, got "16-21"'),
    ("d20 backwards", first_d20(**{"3PM": "2-1"}), f'{ROBINSON}: d20 3PM must be "a-b" or "a" within 1-20, got "2-1"'),
    ("d20 three parts", first_d20(**{"3PM": "1-2-3"}), f'{ROBINSON}: d20 3PM must be "a-b" or "a" within 1-20, got "1-2-3"'),
    ("d20 number", first_d20(**{"3PM": 2}), f'{ROBINSON}: d20 3PM must be "a-b" or "a" within 1-20, got 2'),
    ("d20 gap", first_d20(**{"3PM": None}), f"{ROBINSON}: the d20 ranges leave 1-2 uncovered"),
    ("d20 overlap", first_d20(**{"3PM": "1-3"}), f"{ROBINSON}: the d20 ranges cover 3 more than once (3PM and 2PM)"),
]
# fmt: on


@pytest.mark.parametrize(
    ("change", "message"), [c[1:] for c in ONE_PROBLEM], ids=[c[0] for c in ONE_PROBLEM]
)
def test_each_broken_rule_is_refused_with_one_message_naming_player_and_field(change, message):
    assert problems(kansas(change)) == [message]


def test_a_roster_of_four_is_too_small_and_leaves_a_slot_without_a_starter():
    def four(doc: dict[str, Any]) -> None:
        doc["players"] = [p for p in doc["players"] if p["role"] == "starter"][:4]

    assert problems(kansas(four)) == [
        "players: a roster holds 5 to 10 players, this one has 4",
        "players: slot 5 (C) has no starter",
    ]


def test_a_file_that_is_not_an_object_is_refused():
    assert problems(["vabg-team/1"]) == ["a team file must be a JSON object"]


def test_every_problem_of_a_file_is_listed_at_once():
    def break_many(doc: dict[str, Any]) -> None:
        doc["season"] = 1700
        doc["dunk_adjust"] = 40
        doc["players"][0].update(steal_top=31, foul_from=32)
        doc["players"][2]["d20"]["2PX"] = "16-21"
        doc["players"][9].update(role="coach", positions=[])

    assert problems(kansas(break_many)) == [
        "season must be 1800 to 2200, got 1700",
        "dunk_adjust must be -32 to 32, got 40",
        f"{ROBINSON}: steal_top must be 10 to 30, got 31",
        f"{ROBINSON}: foul_from must be 33 to 37, got 32",
        f'{RUSH}: d20 2PX must be "a-b" or "a" within 1-20, got "16-21"',
        'player 10 (Cole Aldrich): role must be "starter" or "reserve", got "coach"',
        "player 10 (Cole Aldrich): positions must be a non-empty list of distinct numbers 0-5, got []",
    ]


def test_roster_problems_are_listed_alongside_team_field_problems():
    def break_both(doc: dict[str, Any]) -> None:
        doc["season"] = 1700
        doc["players"][6]["name"] = "Sherron Collins"

    assert problems(kansas(break_both)) == [
        "season must be 1800 to 2200, got 1700",
        "players: the name 'Sherron Collins' is used 2 times (players 6 and 7)",
    ]


def test_roster_problems_are_listed_alongside_a_players_field_problems():
    def break_both(doc: dict[str, Any]) -> None:
        doc["players"][0]["steal_top"] = 31
        doc["players"][6]["name"] = "Sherron Collins"
        doc["players"][7]["role"] = "starter"

    assert problems(kansas(break_both)) == [
        f"{ROBINSON}: steal_top must be 10 to 30, got 31",
        "players: the name 'Sherron Collins' is used 2 times (players 6 and 7)",
        "players: slot 3 (SF) has 2 starters (Brandon Rush, Rodrick Stewart)",
    ]


def test_a_d20_range_with_a_superscript_digit_is_refused_not_a_crash():
    assert problems(kansas(first_d20(**{"3PM": "1-²"}))) == [
        f'{ROBINSON}: d20 3PM must be "a-b" or "a" within 1-20, got "1-²"'
    ]


# -- what the format allows ----------------------------------------------------------------


def test_every_bound_is_inclusive():
    def at_the_bounds(doc: dict[str, Any]) -> None:
        doc.update(season=1800, dunk_top=66, dunk_adjust=-32)
        doc["players"][0].update(
            slot=1, extra_ball=2, can_play=66, steal_top=30, block_top=40, foul_from=37,
            turnover_top=46, free_throw_top=20, off_reb=20, def_reb=20, positions=[0, 5],
            dunk_top=34, dunk_adjust=32,
        )  # fmt: skip
        doc["players"][1].update(
            extra_ball=0, can_play=0, steal_top=10, block_top=20, foul_from=33, turnover_top=40,
            free_throw_top=0, off_reb=0, def_reb=0,
        )  # fmt: skip
        doc["players"][2]["d20"] = {
            "3PM": "1",
            "2PM": "2-19",
            "FOUL": None,
            "3PX": None,
            "2PX": "20",
        }

    team = team_from_json(kansas(at_the_bounds))
    robinson, chalmers, rush = team.players[:3]
    assert (team.season, team.dunk_top, team.dunk_adjust) == (1800, 66, -32)
    assert (robinson.steal_top, robinson.block_top, robinson.foul_from) == (30, 40, 37)
    assert (robinson.dunk_top, robinson.dunk_adjust, robinson.positions) == (34, 32, (0, 5))
    assert (chalmers.steal_top, chalmers.turnover_top, chalmers.free_throw_top) == (10, 40, 0)
    assert rush.d20.ranges() == ((1, 1), (2, 19), None, None, (20, 20))


def test_a_five_man_roster_with_no_optional_fields_is_a_team():
    doc = kansas()
    for key in ("conference", "card_source"):
        doc.pop(key)
    doc["players"] = [p for p in doc["players"] if p["role"] == "starter"]
    for p in doc["players"]:
        for key in ("ppg", "height", "printed"):
            p.pop(key, None)
    team = team_from_json(doc)
    assert len(team.players) == 5
    assert (team.conference, team.card_source, team.players[0].ppg) == (None, None, None)


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.json")), ids=lambda p: p.stem)
def test_unknown_keys_are_ignored_and_kept_when_the_file_is_written_back(path):
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["scouting_note"] = {"by": "the commissioner"}
    doc["players"][0]["nickname"] = "The Closer"
    assert team_from_json(doc).to_json() == doc


def test_a_key_one_slip_from_a_field_is_named_with_the_field_it_may_mean():
    """A review: "conferance" and a player's "pgg" were kept as unknown keys without a word,
    the team left with no conference and the player with no ppg; "stael_top" was refused as
    "steal_top is missing" without naming the key that was there."""
    doc = kansas()
    doc["conferance"] = doc.pop("conference")
    doc["players"][2]["pgg"] = doc["players"][2].pop("ppg")
    doc["players"][2]["Height"] = doc["players"][2].pop("height")
    doc["players"][0]["nickname"] = "Russ"  # a key of its own: nothing to say
    team = team_from_json(doc)
    assert (team.conference, team.players[2].ppg, team.players[2].height) == (None, None, None)
    assert team_key_slips(team) == [
        '"conferance" is not a team-file field and is not read: did you mean "conference"?',
        f'{RUSH}: "pgg" is not a team-file field and is not read: did you mean "ppg"?',
        f'{RUSH}: "Height" is not a team-file field and is not read: did you mean "height"?',
    ]
    assert team_key_slips(team_from_json(kansas())) == []  # the fixture's own extra keys

    def stael(d: dict[str, Any]) -> None:
        d["players"][0]["stael_top"] = d["players"][0].pop("steal_top")

    assert problems(kansas(stael)) == [
        f"{ROBINSON}: steal_top is missing",
        f'{ROBINSON}: "stael_top" is not a team-file field and is not read: did you mean '
        '"steal_top"?',
    ]


def test_reading_a_file_names_the_file_in_every_message(tmp_path):
    path = tmp_path / "kansas.json"
    path.write_text(json.dumps(kansas(first_player(steal_top=31, block_top=41))), encoding="utf-8")
    with pytest.raises(InvalidCardError) as caught:
        read_team_file(path)
    assert caught.value.problems == (
        f"{path}: {ROBINSON}: steal_top must be 10 to 30, got 31",
        f"{path}: {ROBINSON}: block_top must be 20 to 40, got 41",
    )
