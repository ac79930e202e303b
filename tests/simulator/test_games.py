"""The game interface: a registry finds each game, and VABG on it plays the very same game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from simulator import SeededDice
from simulator.games import (
    InvalidOptionError,
    InvalidTeamError,
    UnknownGameError,
    find_game,
    game_names,
    team_name_from_json,
)
from simulator.vabg import BASIC, play_game, read_team_file

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "teams"


def test_vabg_is_the_default_game_and_the_registry_finds_it_by_name():
    assert game_names()[0] == "vabg"
    game = find_game("vabg")
    assert game.name == "vabg"
    assert find_game("vabg") is game


def test_an_unknown_game_is_refused_with_the_names_that_exist():
    with pytest.raises(UnknownGameError, match="no game named 'chess': use vabg, gridcourt"):
        find_game("chess")


def test_vabg_through_the_interface_is_the_same_game_roll_for_roll():
    game = find_game("vabg")
    home = game.read_team_file(FIXTURES / "kentucky-2012.json")
    away = game.read_team_file(FIXTURES / "kansas-2008.json")
    rules = game.make_rules(preset="basic")
    assert rules == BASIC
    result = game.play(home, away, SeededDice(5), rules)
    direct = play_game(
        read_team_file(FIXTURES / "kentucky-2012.json"),
        read_team_file(FIXTURES / "kansas-2008.json"),
        SeededDice(5),
        rules=BASIC,
    )
    assert json.dumps(result.native.to_json()) == json.dumps(direct.to_json())
    assert (result.home.score, result.away.score) == (direct.home.score, direct.away.score)
    assert result.home.periods == direct.home.periods
    assert result.rules_version == BASIC.to_json()["version"]
    assert game.box_score(result.events, rules) == (direct.home, direct.away)
    assert result.to_json()["home"] == direct.home.to_json()


def test_the_vabg_columns_are_the_shared_line_fields_in_order():
    from simulator.results import LINE_FIELDS

    assert tuple(c.key for c in find_game("vabg").columns) == LINE_FIELDS


def test_events_come_back_from_their_json():
    game = find_game("vabg")
    home = game.read_team_file(FIXTURES / "kentucky-2012.json")
    result = game.play(home, home, SeededDice(1))
    events = [game.event_from_json(e.to_json()) for e in result.events]
    assert events == list(result.events)
    assert {type(e) for e in events} <= set(game.event_types)


def test_an_unknown_option_or_value_is_refused_by_name():
    game = find_game("vabg")
    with pytest.raises(InvalidOptionError, match="vabg has no option 'width'"):
        game.make_rules(width=14)
    with pytest.raises(
        InvalidOptionError, match='option preset must be one of "advanced", "basic"'
    ):
        game.make_rules(preset="pro")


def test_a_board_game_team_is_read_from_school_and_season_alone():
    doc = json.loads((FIXTURES / "kansas-2008.json").read_text(encoding="utf-8"))
    assert team_name_from_json(doc).label == "Kansas 2008"
    with pytest.raises(InvalidTeamError) as caught:
        team_name_from_json({"school": "", "season": "2008"})
    assert caught.value.problems == (
        'school: must be a non-empty text, got ""',
        'season: must be a whole number, got "2008"',
    )


@pytest.mark.parametrize("name", game_names())
def test_every_game_offers_the_same_surface(name):
    try:
        game = find_game(name)
    except UnknownGameError:
        pytest.skip(f"{name} is not installed yet")
    assert game.name == name
    rules = game.make_rules()
    assert rules == game.default_rules()
    assert game.rules_from_json(rules.to_json()) == rules
    home = game.read_team_file(FIXTURES / "kentucky-2012.json")
    away = game.read_team_file(FIXTURES / "kansas-2008.json")
    result = game.play(home, away, SeededDice(3), rules)
    assert result.game == name
    assert result.rules_version == rules.to_json()["version"]
    assert (result.home.label, result.away.label) == ("Kentucky 2012", "Kansas 2008")
    assert result.home.score != result.away.score
    assert game.box_score(result.events, rules) == (result.home.box, result.away.box)
    assert all(type(e) in game.event_types for e in result.events)
    doc = json.loads(json.dumps(result.to_json()))
    assert [game.event_from_json(e) for e in doc["events"]] == list(result.events)
    assert doc["home"]["score"] == result.home.score
    for column in game.columns:
        assert all(column.key in line for line in doc["home"][game.lines_key])
    for column in game.team_columns:
        assert column.key in doc["home"]
    assert result.home.label in game.render(result)


def test_a_board_game_gives_its_grid_and_the_others_none() -> None:
    grid = find_game("gridcourt")
    rules = grid.make_rules(width=13, level=2)
    board = grid.board(rules)
    assert board is not None and (board.rows, board.width, len(board.cells)) == (10, 13, 130)
    court = rules.court
    assert [(c.row, c.column) for c in board.cells] == list(court.cells)
    assert [c.value for c in board.cells] == list(court.value)
    assert sum(c.paint for c in board.cells) == 15  # 3 middle columns x 5 rows (§1.2)
    assert [c.inside for c in board.cells] == list(court.inside)
    # a stored game's rules give back its board
    assert grid.board(grid.rules_from_json(rules.to_json())) == board
    assert find_game("vabg").board(find_game("vabg").default_rules()) is None
    assert find_game("sixdice").board(find_game("sixdice").default_rules()) is None


@pytest.mark.parametrize("name", ["vabg", "gridcourt", "sixdice"])
def test_a_game_plays_its_default_rules_and_refuses_another_games(name: str) -> None:
    game = find_game(name)
    home = game.read_team_file(FIXTURES / "kentucky-2012.json")
    away = game.read_team_file(FIXTURES / "kansas-2008.json")
    by_default = game.play(home, away, SeededDice(4))
    assert (
        by_default.to_json() == game.play(home, away, SeededDice(4), game.default_rules()).to_json()
    )
    other = find_game("sixdice" if name != "sixdice" else "gridcourt").default_rules()
    with pytest.raises(
        InvalidOptionError, match=f"{name} plays {type(game.default_rules()).__name__}, got"
    ):
        game.play(home, away, SeededDice(4), other)
