"""The race at the table: a :class:`simulator.sheets.Sheet` that names none of the other
games' parts (the table must read it as it reads theirs)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from simulator.dice import DieRefused, GameOverError, ScriptedDice
from simulator.games import Game, Result, TeamName
from simulator.sheets import rules_by_version
from tests.table.racegame.game import RaceRules, play_values


@dataclass(frozen=True)
class RaceNeed:
    team: str
    step: str
    why: str = "the die adds to the roller's score"
    die: str = "d6"
    faces: int = 6

    def to_json(self) -> dict[str, Any]:
        return {"die": self.die, "faces": self.faces, "team": self.team, "step": self.step}


@dataclass(frozen=True)
class RaceSheet:
    game: Game
    home: TeamName
    away: TeamName
    rules: RaceRules
    values: tuple[int, ...]

    @property
    def score(self) -> dict[str, int]:
        return play_values(self.values, self.rules)[1]

    @property
    def need(self) -> RaceNeed | None:
        if max(self.score.values()) >= self.rules.target:
            return None
        team = "away" if len(self.values) % 2 == 0 else "home"
        label = (self.away if team == "away" else self.home).label
        return RaceNeed(team, f"{label}'s roll")

    @property
    def undo_trip_to(self) -> int:
        return max(0, len(self.values) - 2)  # a "trip": both teams' last rolls

    @property
    def waiting_for(self) -> str:
        need = self.need
        return "" if need is None else need.step

    def result(self) -> Result | None:
        if self.need is not None:
            return None
        return self.game.play(self.home, self.away, ScriptedDice(d6=list(self.values)), self.rules)

    def dice_file(self) -> dict[str, Any]:
        return {"format": "vabg-dice/1", "d6": list(self.values)}

    def state(self) -> dict[str, Any]:
        return {
            "labels": {"home": self.home.label, "away": self.away.label},
            "strategy": False,
            "neutral": False,
            "count": len(self.values),
            "dice": list(self.values),
            "need": None if self.need is None else self.need.to_json(),
            "over": self.need is None,
            "score": self.score,
            "plays": [],
            "sheet": None,
            "box": None,
            "odds": {"available": False, "note": "No odds for a race."},
        }


def sheet_rules(game: Game, options: Mapping[str, Any], rules_version: int | None) -> RaceRules:
    rules: RaceRules = rules_by_version(game, options, rules_version)
    return rules


def open_sheet(
    game: Game,
    home: TeamName,
    away: TeamName,
    values: Sequence[int],
    *,
    rules: RaceRules,
    neutral: bool = False,
) -> RaceSheet:
    for i, value in enumerate(values):
        sheet = RaceSheet(game, home, away, rules, tuple(values[:i]))
        need = sheet.need
        if need is None:
            raise GameOverError(i, len(values) - i)
        if not 1 <= value <= 6:
            raise DieRefused(i, value, need)
    return RaceSheet(game, home, away, rules, tuple(values))
