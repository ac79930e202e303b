"""A stored VABG game's "Show the dice": every die of the game, in the order rolled, each
labelled as the table labels it, on the line of the play it made (a table player checks a
stored game against his paper sheet: his free throws and rebounds too, not only each
trip's first four dice)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from cards.services import team_import
from league import replays, services
from league.coaches import coach_for
from league.models import Game
from simulator import SeededDice
from simulator.recording import RecordingDice
from simulator.vabg import GameRules, play_game, team_from_json
from simulator.vabg.sheet import replay
from table import services as table
from tests.factories import fan

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "teams"
ROW = re.compile(
    r'<tr class="([a-z -]+)" data-side="\w*"><td class="text muted when">(.*?)</td>.*?'
    r'<td class="text play">(.*?)</td><td class="score">[\d-]+</td>'
    r'<td class="text dice">(.*?)</td></tr>',
    re.S,
)
DIE = re.compile(r'<span class="die" data-die="(d\d+)">(.*?)&nbsp;<b>(\d+)</b></span>')


@pytest.fixture
def teams(db: Any) -> tuple[Any, Any]:
    home, away = (
        team_import(name=f"{name}.json", content=(FIXTURES / f"{name}.json").read_bytes()).team
        for name in ("kentucky-2012", "kansas-2008")
    )
    return home, away


def shown(client: Client, game: Game) -> list[tuple[str, str, list[tuple[str, str, int]]]]:
    """Return the play-by-play rows of a game's page: (when, play, [(die, step, value)])."""
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert 'id="toggle-dice"' in page
    return [
        (when, play, [(die, step, int(value)) for die, step, value in DIE.findall(dice)])
        for _, when, play, dice in ROW.findall(page)
    ]


def typed_at_the_table(teams: tuple[Any, Any], seed: int) -> tuple[Game, list[int], Any]:
    """Type a game at the table die by die (a seed's dice, in the order rolled), store it,
    and return the league game, the dice typed and the table's own position."""
    player = fan("tabletop")
    home, away = teams
    game = table.table_start(owner=player, home=home, away=away)
    home_card, away_card = table.teams_of(game)
    rolled = RecordingDice(SeededDice(seed))
    play_game(home_card, away_card, rolled)
    values = rolled.values
    for start in range(0, len(values), 50):
        table.table_roll(game_id=game.pk, user=player, values=values[start : start + 50])
    stored = table.table_finish(game_id=game.pk, user=player)
    position = replay(home_card, away_card, values)
    return Game.objects.select_related("result").get(pk=stored.pk), values, position


def test_a_table_game_shows_every_die_typed_in_order_the_free_throws_on_the_foul(
    client: Client, teams: tuple[Any, Any]
) -> None:
    game, values, position = typed_at_the_table(teams, seed=21)
    dice_file = game.result.dice
    assert "seed" not in dice_file  # the scripted rolls
    rows = shown(client, game)
    on_page = [die for _, _, dice in rows for die in dice]
    # as many dice as the dice file holds, in the order they were typed
    assert len(on_page) == sum(len(dice_file[d]) for d in ("d8", "d6", "d20")) == len(values)
    assert [value for _, _, value in on_page] == values
    # labelled as the table labelled them
    assert [(r.die, r.step, r.value) for r in position.rolls] == on_page
    # each foul's free throws: one d20 a free throw tried, on the foul's own line
    fouls = [(play, dice) for _, play, dice in rows if "free throw" in play]
    assert fouls
    for play, dice in fouls:
        tried = int(re.search(r"makes \d+ of (\d+) free throw", play).group(1))
        throws = [(die, step) for die, step, _ in dice if step.startswith("free throw")]
        assert throws == [("d20", f"free throw {n}") for n in range(1, tried + 1)], play
    on_fouls = [v for _, dice in fouls for _, step, v in dice if step.startswith("free throw")]
    assert on_fouls == [r.value for r in position.rolls if r.step.startswith("free throw")]
    # a rebound's d20 then d6 on the rebound's line
    for _, play, dice in rows:
        steps = [step for _, step, _ in dice]
        if "rebound d20" in steps:
            assert "rebound" in play and steps[-2:] == ["rebound d20", "rebound d6"], play


def test_a_simulated_game_shows_the_dice_its_seed_rolled(
    client: Client, teams: tuple[Any, Any]
) -> None:
    home, away = teams
    league = services.league_get_or_create(name="Dice League")
    season = services.season_create(league=league, name="2026", teams=[home, away], seed=5)
    game = services.game_simulate(game_id=season.games.first().pk)
    result = Game.objects.select_related("result").get(pk=game.pk).result
    assert "seed" in result.dice
    home_card, away_card = (
        team_from_json(result.home_team_file),
        team_from_json(result.away_team_file),
    )
    rules = GameRules.from_json(result.rules)
    rolled = RecordingDice(SeededDice(result.dice["seed"]))
    coach = coach_for(home=home_card, away=away_card, rules=rules, neutral=game.neutral)
    play_game(home_card, away_card, rolled, rules=rules, neutral=game.neutral, coach=coach)
    rows = shown(client, game)
    on_page = [(die, value) for _, _, dice in rows for die, _, value in dice]
    assert on_page == [(d.die, d.value) for d in rolled.draws]
    steps = {step for _, _, dice in rows for _, step, _ in dice}
    assert {"d8", "d6 tens", "d6 ones", "d20", "free throw 1", "rebound d20"} <= steps


def test_the_dice_are_worked_out_once_per_result(
    teams: tuple[Any, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    home, away = teams
    league = services.league_get_or_create(name="Dice League")
    season = services.season_create(league=league, name="2026", teams=[home, away], seed=6)
    game = services.game_simulate(game_id=season.games.first().pk)
    result = Game.objects.select_related("result").get(pk=game.pk).result
    cache.clear()
    dice = replays.vabg_dice(game, result)
    assert dice

    def replayed(*args: object, **kwargs: object) -> None:
        raise AssertionError("the dice of a stored result are kept in the cache")

    monkeypatch.setattr(replays, "game_dice", replayed)
    assert replays.vabg_dice(game, result) == dice


def test_a_game_the_engine_plays_otherwise_keeps_each_trip_s_dice_from_its_events(
    client: Client, teams: tuple[Any, Any]
) -> None:
    home, away = teams
    league = services.league_get_or_create(name="Dice League")
    season = services.season_create(league=league, name="2026", teams=[home, away], seed=7)
    game = services.game_simulate(game_id=season.games.first().pk)
    result = Game.objects.select_related("result").get(pk=game.pk).result
    result.dice = {"seed": result.dice["seed"] + 1}  # not the dice of these events
    result.save(update_fields=["dice"])
    cache.clear()
    rows = shown(client, game)
    assert not any(dice for _, _, dice in rows)  # no die put beside the wrong play
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert re.search(r'<td class="text dice">[^<]* ball: d8 \d -&gt; ', page)  # trips' dice
