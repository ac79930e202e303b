"""How a stored game reads: the one box score the admin, the fans' pages and the API show."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cards.models import Team
from league.models import BoxLine, Game
from simulator.results import LINE_FIELDS
from simulator.vabg.events import event_from_json
from simulator.vabg.render import describe


@dataclass
class Side:
    """One team's half of a box score: its lines (a dict per player) and its totals."""

    key: str  # "home" or "away"
    team: Team
    where: str  # "home", "away", or "" on a neutral court
    score: int
    periods: list[int]
    team_turnovers: int
    possessions: int
    lines: list[dict[str, Any]] = field(default_factory=list)

    @property
    def label(self) -> str:
        return str(self.team)

    @property
    def totals(self) -> dict[str, int]:
        sums = {name: sum(line[name] for line in self.lines) for name in LINE_FIELDS}
        sums["to"] += self.team_turnovers
        return sums


@dataclass
class BoxScore:
    game: Game
    sides: list[Side]
    period_labels: list[str]
    rules: str
    neutral: bool
    dice: str


def box_score(game: Game, *, player_url: Any = None) -> BoxScore | None:
    """Return the box score of a final game (away first, as box scores read), else ``None``."""
    result = getattr(game, "result", None)
    if result is None:
        return None
    lines = list(BoxLine.objects.filter(result=result).order_by("side", "order"))
    sides = []
    for key, team, score, periods, tov, poss in (
        ("away", game.away, result.away_score, result.away_periods,
         result.away_team_turnovers, result.away_possessions),
        ("home", game.home, result.home_score, result.home_periods,
         result.home_team_turnovers, result.home_possessions),
    ):  # fmt: skip
        where = "" if game.neutral else key
        side = Side(key, team, where, score, list(periods), tov, poss)
        for line in lines:
            if line.side == key:
                row = {name: getattr(line, name) for name in LINE_FIELDS}
                row["name"] = line.name
                row["player"] = line.player_id
                row["order"] = line.order
                row["url"] = player_url(line) if player_url and line.player_id else ""
                side.lines.append(row)
        sides.append(side)
    labels = ["Reg"] + [f"OT{n}" if n > 1 else "OT" for n in range(1, result.overtimes + 1)]
    dice = result.dice
    dice_text = f"seed {dice['seed']}" if dice.get("seed") is not None else "scripted rolls"
    return BoxScore(game, sides, labels, game.get_rules_display(), game.neutral, dice_text)


@dataclass(frozen=True)
class Play:
    when: str
    team: str
    text: str
    kind: str


def play_by_play(game: Game) -> list[Play]:
    """Return a stored game's play-by-play as fans read it, numbered as on the score sheet."""
    result = getattr(game, "result", None)
    if result is None:
        return []
    labels = {"home": str(game.home), "away": str(game.away)}
    plays = []
    for data in result.events:
        event = event_from_json(data)
        text = describe(event, labels)
        if text is None:
            continue
        period = data.get("period", 0)
        name = "Reg" if period == 0 else ("OT" if period == 1 else f"OT{period}")
        number = data.get("number")
        when = f"{name} {number}" if number is not None else name
        plays.append(Play(when, labels.get(data.get("team", ""), ""), text, data["type"]))
    return plays
