"""The table reads every game through one protocol (``Game.sheet``, ``simulator.sheets``):
it plays, undoes and finishes any game without naming it, a fourth game included."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from league.models import Game
from simulator import games
from simulator.games import find_game, game_names
from table import services
from table.models import TableGame
from table.presentation import table_state
from tests.table.dice import Written
from tests.table.racegame.game import RaceGame

TABLE = Path(__file__).resolve().parents[2] / "table"
GAME_PACKAGES = ("simulator.vabg", "simulator.gridcourt", "simulator.sixdice")


def test_the_table_imports_no_game_s_modules_and_asks_no_sheet_its_type() -> None:
    for path in sorted(TABLE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert not node.module.startswith(GAME_PACKAGES), (path.name, node.module)
            if isinstance(node, ast.Import):
                for alias in node.names:
                    assert not alias.name.startswith(GAME_PACKAGES), (path.name, alias.name)
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "isinstance"
            ):
                what = ast.unparse(node.args[0])
                assert "position" not in what and "sheet" not in what, (path.name, what)


@pytest.mark.django_db
@pytest.mark.parametrize("name", game_names())
def test_every_game_is_typed_undone_and_finished_through_the_sheet_alone(
    name: str, player, teams
) -> None:
    home, away = teams
    table = services.table_start(owner=player, home=home, away=away, game=name)
    # The seeded game the same teams and rules play, its dice written down as rolled.
    engine = find_game(name)
    written = Written(11)
    played = engine.play(
        *services.teams_of(table), written, services.rules_of(table), neutral=table.neutral
    )
    values = written.values
    sheet = services.position_of(table)
    typed = 0
    while typed < len(values):
        need = sheet.need
        assert need is not None and need.team in ("home", "away") and need.step and need.why
        assert {"die": need.die, "faces": need.faces, "step": need.step}.items() <= (
            need.to_json().items()
        )
        assert 1 <= values[typed] <= need.faces
        assert 0 <= sheet.undo_trip_to <= typed
        assert sheet.result() is None and sheet.waiting_for
        step = min(len(values) - typed, 37)
        sheet = services.table_roll(
            game_id=table.pk, user=player, values=values[typed : typed + step], expected=typed
        )
        typed += step
        assert list(sheet.values) == values[:typed]
    result = sheet.result()
    assert sheet.need is None and result is not None
    assert (result.home.score, result.away.score) == (played.home.score, played.away.score)
    table.refresh_from_db()
    state = table_state(table, sheet)
    assert state["over"] and state["game"] == name and state["dice"] == values
    assert state["score"] == {"home": played.home.score, "away": played.away.score}

    game = services.table_finish(game_id=table.pk, user=player)
    game = Game.objects.select_related("result").get(pk=game.pk)
    assert (game.result.home_score, game.result.away_score) == (
        played.home.score,
        played.away.score,
    )
    assert game.result.events == json.loads(json.dumps([e.to_json() for e in played.events]))


@pytest.mark.django_db
def test_a_fourth_game_plays_at_the_table_with_no_change_to_the_table(
    player, teams, monkeypatch
) -> None:
    race = RaceGame()
    monkeypatch.setitem(games._REGISTRY, race.name, race)  # registered as a game module does
    home, away = teams
    table = TableGame.objects.create(
        owner=player,
        game="race",
        options={"target": 10},
        rules_version=1,
        home=home,
        away=away,
        home_team_file={"school": "Kentucky", "season": 2012},
        away_team_file={"school": "Kansas", "season": 2008},
    )
    sheet = services.table_roll(game_id=table.pk, user=player, values=[6, 2, 3])
    assert sheet.need is not None and sheet.need.step == "Kentucky 2012's roll"
    with pytest.raises(services.TableRefused) as refused:
        services.table_roll(game_id=table.pk, user=player, values=[5, 7])
    assert refused.value.index == 1 and refused.value.need == {
        "die": "d6",
        "faces": 6,
        "team": "away",
        "step": "Kansas 2008's roll",
    }
    sheet = services.table_undo(game_id=table.pk, user=player, what="trip")
    assert list(sheet.values) == [6]
    sheet = services.table_roll(game_id=table.pk, user=player, values=[1, 5])
    table.refresh_from_db()
    state = table_state(table, sheet)
    assert state["over"] and state["score"] == {"home": 1, "away": 11}
    assert state["game_title"] == "Race to ten" and state["home"]["label"] == "Kentucky 2012"
    result = sheet.result()
    assert result is not None and result.winner.label == "Kansas 2008"
    with pytest.raises(
        services.TableRefused, match=r"^The game is already over: this die was not stored\.$"
    ):
        services.table_roll(game_id=table.pk, user=player, values=[4])
