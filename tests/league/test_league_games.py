"""The league calls the game, not its name: a game registered in ``simulator.games`` that
the league has never heard of is played, stored, replayed and typed in through the same
paths as the three it hosts, and the pages and API ask the hooks of ``league.games``."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any, NamedTuple

import pytest

from league import services
from league.games import LeagueGame, Vabg, league_game
from league.models import BoxLine, Game, GameResult
from simulator import SeededDice
from simulator.dice import DiceSource
from simulator.games import Column, Option, Result, Side, register, team_name_from_json
from simulator.games import Game as Engine
from tests.factories import TeamFactory, full_team
from tests.league.api import client_for, throttle_reset

pytestmark = pytest.mark.django_db


@dataclass(frozen=True)
class HighRollRules:
    rolls: int = 5

    def to_json(self) -> dict[str, Any]:
        return {"rolls": self.rolls, "version": 1}


class Roll(NamedTuple):
    team: str
    die: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "roll", "team": self.team, "die": self.die}


@dataclass(frozen=True)
class HighRollBox:
    pips: int
    sixes: int

    def to_json(self) -> dict[str, Any]:
        return {"pips": self.pips, "sixes": self.sixes}


class HighRollGame(Engine):
    """A fourth game for the tests: each side rolls its dice, the higher total wins (the
    visitor rolls again on a tie)."""

    name = "highroll"
    title = "High roll"
    rules_version = 1
    options = (Option("rolls", (3, 5), 5),)
    rules_type = HighRollRules
    presets = {"standard": HighRollRules()}
    columns = ()
    team_columns = (Column("pips", "PIPS"), Column("sixes", "6s"))
    event_types = (Roll,)

    def make_rules(self, **options: Any) -> HighRollRules:
        return HighRollRules(**self.check_options(options))

    def rules_from_json(self, doc: Mapping[str, Any]) -> HighRollRules:
        return HighRollRules(rolls=doc["rolls"])

    def read_team(self, data: object) -> Any:
        return team_name_from_json(data)

    def play_rules(
        self, home: Any, away: Any, dice: DiceSource, rules: Any, *, neutral: bool
    ) -> Result:
        events = [Roll(side, dice.d6()) for side in ("home", "away") for _ in range(rules.rolls)]
        while sum(e.die for e in events if e.team == "home") == sum(
            e.die for e in events if e.team == "away"
        ):
            events.append(Roll("away", dice.d6()))
        boxes = self.box_score(events)
        return Result(
            game=self.name,
            home=Side(home.school, home.season, boxes[0].pips, box=boxes[0]),
            away=Side(away.school, away.season, boxes[1].pips, box=boxes[1]),
            events=tuple(events),
            dice=dice.record(),
            rules=rules,
            rules_version=self.rules_version,
        )

    def box_score(self, events: Iterable[Any], rules: Any = None) -> tuple[Any, Any]:
        events = list(events)
        return tuple(  # type: ignore[return-value]
            HighRollBox(
                sum(e.die for e in events if e.team == side),
                sum(1 for e in events if e.team == side and e.die == 6),
            )
            for side in ("home", "away")
        )

    def event_from_json(self, data: Mapping[str, Any]) -> Roll:
        return Roll(data["team"], data["die"])


ENGINE = register(HighRollGame())


def high_roll_game(**kwargs: Any) -> Game:
    # Game.game's choices are the simulator's GAME_MODULES (game_choices); a game registered
    # at run time, as this one, is not among them, but the row itself takes any name: the
    # league needs nothing else of a fourth game.
    return Game.objects.create(
        home=TeamFactory(), away=TeamFactory(), game="highroll", seed=7, **kwargs
    )


def test_a_fourth_game_is_played_and_stored_through_the_one_store_path() -> None:
    game = high_roll_game(options={"rolls": 3})
    assert type(league_game("highroll")) is LeagueGame  # no adapter: the neutral answers

    services.game_simulate(game_id=game.pk)

    game.refresh_from_db()
    result = GameResult.objects.get(game=game)
    expected = ENGINE.play(
        ENGINE.read_team({"school": game.home.school, "season": game.home.season}),
        ENGINE.read_team({"school": game.away.school, "season": game.away.season}),
        SeededDice(7),
        HighRollRules(rolls=3),
    )
    assert game.status == Game.Status.FINAL
    assert (result.home_score, result.away_score) == (expected.home.score, expected.away.score)
    assert result.events == [e.to_json() for e in expected.events]
    assert result.box == {"home": expected.home.box.to_json(), "away": expected.away.box.to_json()}
    assert result.rules == {"rolls": 3, "version": 1}
    assert result.home_team_file["school"] == game.home.school
    assert not BoxLine.objects.filter(result=result).exists()  # no players, no box lines
    replayed = services.game_replay(game_id=game.pk)
    assert [e.to_json() for e in replayed.events] == result.events


def test_a_worker_chunk_plays_a_fourth_game_beside_a_vabg_game_and_stores_both() -> None:
    other = high_roll_game()
    vabg = services.game_create(home=full_team(), away=full_team(), seed=11)

    assert sorted(services.games_play(game_ids=[other.pk, vabg.pk])) == sorted([other.pk, vabg.pk])

    assert GameResult.objects.get(game=other).box["home"]["pips"] > 0
    vabg_result = GameResult.objects.get(game=vabg)
    assert vabg_result.box == {}
    assert BoxLine.objects.filter(result=vabg_result).count() > 0  # VABG's rows hook


def test_a_score_typed_in_for_a_fourth_game_takes_its_rules_and_refuses_player_lines() -> None:
    game = high_roll_game(kind=Game.Kind.REAL_DICE)
    with pytest.raises(services.ResultRefused, match="no player lines and no overtime"):
        services.game_result_enter(game_id=game.pk, home_score=20, away_score=18, overtimes=1)

    services.game_result_enter(game_id=game.pk, home_score=20, away_score=18)

    result = GameResult.objects.get(game=game)
    assert result.rules == {"rolls": 5, "version": 1}
    assert result.home_team_file["school"] == game.home.school


def test_pages_and_api_ask_the_hooks_not_the_name(client, monkeypatch) -> None:
    """A season of VABG whose adapter is told it tells no stories and has no preset: the
    story API refuses with a 400 naming the game (the page: 404) and the season page names
    the game, as they would for any game
    whose hooks say so."""
    league = services.league_get_or_create(name="Hooks")
    season = services.season_create(
        league=league,
        name="2026",
        teams=[full_team() for _ in range(2)],
        start_date=date(2026, 1, 1),
        seed=3,
    )
    game = season.games.get()
    services.game_simulate(game_id=game.pk)
    throttle_reset()
    assert client_for().get(f"/api/games/{game.pk}/story/").status_code == 200
    assert "rules ·" in client.get(f"/seasons/{season.pk}/").content.decode()

    monkeypatch.setattr(Vabg, "tells_stories", False)
    monkeypatch.setattr(Vabg, "rules_in_fields", False)
    throttle_reset()
    refused = client_for().get(f"/api/games/{game.pk}/story/")
    assert refused.status_code == 400
    assert refused.json() == {
        "detail": f"Game {game.pk} is a game of Value Add Basketball Game: stories are told "
        "of VABG games only."
    }  # the hooks say VABG tells none here (six dice: "a game of Six dice to 21")
    assert client.get(f"/games/{game.pk}/story.md").status_code == 404
    page = client.get(f"/seasons/{season.pk}/").content.decode()
    assert "rules ·" not in page and "VABG ·" in page
