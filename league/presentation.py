"""How a stored game reads: the box score context shared by the admin and the fans' pages."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from league.models import BoxLine, Game
from simulator.results import LINE_FIELDS


@dataclass
class Side:
    key: str
    label: str
    where: str
    score: int
    periods: list[int]
    team_turnovers: int
    lines: list[dict[str, Any]] = field(default_factory=list)

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
    for key, team, score, periods, tov in (
        ("away", game.away, result.away_score, result.away_periods, result.away_team_turnovers),
        ("home", game.home, result.home_score, result.home_periods, result.home_team_turnovers),
    ):
        where = "" if game.neutral else ("home" if key == "home" else "away")
        side = Side(key, str(team), where, score, list(periods), tov)
        for line in lines:
            if line.side == key:
                row = {name: getattr(line, name) for name in LINE_FIELDS}
                row["name"] = line.name
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
    from simulator.vabg.events import event_from_json
    from simulator.vabg.render import describe

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
