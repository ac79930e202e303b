"""The six-dice game on the game interface: found by name, the very same game as direct."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from simulator import SeededDice
from simulator.games import InvalidOptionError, StyledTeam, TeamName, find_game
from simulator.sixdice import CHIP_REROLL, STANDARD, SixDiceRules, play_game
from simulator.sixdice.style import DEFAULT_STYLE

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "teams"


def test_the_registry_finds_the_six_dice_game_and_its_presets():
    game = find_game("sixdice")
    assert (game.name, game.title) == ("sixdice", "Six dice to 21")
    assert dict(game.presets) == {"standard": STANDARD, "chip-reroll": CHIP_REROLL}
    assert game.default_rules() == STANDARD
    assert [o.name for o in game.options] == ["faces", "chip_reroll"]


def test_through_the_interface_it_is_the_same_game_roll_for_roll():
    game = find_game("sixdice")
    home = game.read_team_file(FIXTURES / "kentucky-2012.json")
    away = game.read_team_file(FIXTURES / "kansas-2008.json")
    # A team file with no "styles" plays the default style, which is §4's policy.
    assert (home, away) == (
        StyledTeam("Kentucky", 2012, DEFAULT_STYLE),
        StyledTeam("Kansas", 2008, DEFAULT_STYLE),
    )
    rules = game.make_rules(chip_reroll=True)
    assert rules == CHIP_REROLL
    result = game.play(home, away, SeededDice(9), rules)
    direct = play_game(home, away, SeededDice(9), rules=CHIP_REROLL)
    assert json.dumps(result.to_json()) == json.dumps(direct.to_json())
    assert (result.home.score, result.away.score) == (direct.home.score, direct.away.score)
    assert result.home.periods == ()
    assert result.rules_version == 2
    assert game.box_score(result.events, rules) == (result.home.box, result.away.box)
    assert [game.event_from_json(e.to_json()) for e in result.events] == list(result.events)
    assert {type(e) for e in result.events} <= set(game.event_types)


def test_its_json_has_the_core_keys_and_every_team_column():
    game = find_game("sixdice")
    home, away = TeamName("Kentucky", 2012), TeamName("Kansas", 2008)
    doc = game.play(home, away, SeededDice(3)).to_json()
    assert list(doc) == ["game", "home", "away", "events", "dice", "rules"]
    assert doc["game"] == "sixdice"
    team = doc["home"]
    assert list(team)[:3] == ["school", "season", "score"]
    assert {c.key for c in game.team_columns} <= set(team)
    assert game.columns == ()  # no players: every column is a team column


def test_any_printing_of_the_dice_is_an_option_and_a_bad_one_is_refused_by_name():
    game = find_game("sixdice")
    assert game.make_rules(faces="BBPPSF") == SixDiceRules(faces="BBPPSF")
    with pytest.raises(InvalidOptionError, match="sixdice option faces must be six letters"):
        game.make_rules(faces="BBBPSZ")
    with pytest.raises(InvalidOptionError, match="sixdice has no option 'width'"):
        game.make_rules(width=14)
    with pytest.raises(InvalidOptionError, match="option chip_reroll must be one of false, true"):
        game.make_rules(chip_reroll="yes")
