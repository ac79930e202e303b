"""The race's game interface: every d6 the visitor and the home team roll in turn adds to
their score; the first to 10 wins. Just enough of ``simulator.games.Game`` for a table."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from simulator.dice import DiceSource
from simulator.games import Game, Option, Result, Side, TeamName, team_name_from_json

TARGET = 10


class Rolled(NamedTuple):
    team: str
    value: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "rolled", "team": self.team, "value": self.value}


@dataclass(frozen=True)
class RaceRules:
    target: int = TARGET

    def to_json(self) -> dict[str, Any]:
        return {"target": self.target, "version": 1}


def play_values(values: Iterable[int], rules: RaceRules) -> tuple[list[Rolled], dict[str, int]]:
    """Return the events and the score after ``values``, stopping at the end of the race."""
    score = {"home": 0, "away": 0}
    events: list[Rolled] = []
    for value in values:
        if max(score.values()) >= rules.target:
            break
        team = "away" if len(events) % 2 == 0 else "home"
        score[team] += value
        events.append(Rolled(team, value))
    return events, score


class RaceGame(Game):
    name = "race"
    title = "Race to ten"
    rules_version = 1
    options = (Option("target", (10,), 10),)
    rules_type = RaceRules
    presets = {"standard": RaceRules()}
    columns = ()
    team_columns = ()
    event_types = (Rolled,)
    dice_streams = ("d6",)

    def make_rules(self, **options: Any) -> RaceRules:
        return RaceRules(**self.check_options(options))

    def rules_from_json(self, doc: Mapping[str, Any]) -> RaceRules:
        return RaceRules(doc.get("target", TARGET))

    def read_team(self, data: object) -> TeamName:
        return team_name_from_json(data)

    def play_rules(
        self, home: Any, away: Any, dice: DiceSource, rules: Any, *, neutral: bool
    ) -> Result:
        values: list[int] = []
        while max(play_values(values, rules)[1].values()) < rules.target:
            values.append(dice.d6())
        events, score = play_values(values, rules)
        return Result(
            game=self.name,
            home=Side(home.school, home.season, score["home"]),
            away=Side(away.school, away.season, score["away"]),
            events=tuple(events),
            dice=dice.record(),
            rules=rules,
            rules_version=self.rules_version,
        )

    def box_score(self, events: Iterable[Any], rules: Any = None) -> tuple[Any, Any]:
        return None, None

    def event_from_json(self, data: Mapping[str, Any]) -> Rolled:
        return Rolled(data["team"], data["value"])
