"""Result types shared by every game: player lines, team box scores and the game result."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from typing import Any

from simulator.dice import DiceRecord


@dataclass(frozen=True, slots=True)
class PlayerLine:
    """Hold one player's box-score line (``interchange.md``), opening credits included."""

    name: str
    pts: int = 0
    fgm: int = 0
    fga: int = 0
    tpm: int = 0
    tpa: int = 0
    ftm: int = 0
    fta: int = 0
    oreb: int = 0
    dreb: int = 0
    reb: int = 0
    stl: int = 0
    blk: int = 0
    to: int = 0
    pf: int = 0
    poss: int = 0

    def to_json(self) -> dict[str, Any]:
        """Return the line as the ``--json`` output spells it."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


LINE_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(PlayerLine) if f.name != "name")
"""The counting stats of a box-score line, in box-score order: the one list of them.

The league's stored lines, stat pages and API read their columns from here.
"""


def _line_maker() -> Callable[[str, Sequence[int]], PlayerLine]:
    """Build :func:`player_line`: straight-line code that sets each slot through its own
    descriptor, about three times as fast as the frozen dataclass's ``__init__`` (which
    goes through ``object.__setattr__`` by name, field by field). An engine makes some
    twenty lines a game, a tenth of its time before this."""
    names = ("name", *LINE_FIELDS)
    values = ", ".join(f"v{i}" for i in range(1, len(names)))
    body = [f"    {values}, = counts", "    line = new(PlayerLine)", "    s0(line, name)"]
    body += [f"    s{i}(line, v{i})" for i in range(1, len(names))]
    source = "def player_line(name, counts):\n" + "\n".join(body) + "\n    return line\n"
    scope: dict[str, Any] = {"new": object.__new__, "PlayerLine": PlayerLine}
    scope |= {f"s{i}": getattr(PlayerLine, n).__set__ for i, n in enumerate(names)}
    exec(source, scope)  # code built above from the dataclass's own field names
    maker: Callable[[str, Sequence[int]], PlayerLine] = scope["player_line"]
    return maker


player_line = _line_maker()
"""``player_line(name, counts)``: the line ``PlayerLine(name, *counts)``, made fast;
``counts`` holds every field of :data:`LINE_FIELDS`, in order.

>>> player_line("A. Guard", range(15)) == PlayerLine("A. Guard", *range(15))
True
"""


@dataclass(frozen=True, slots=True)
class TeamBox:
    """Hold one team's side of a box score."""

    school: str
    season: int
    score: int
    players: tuple[PlayerLine, ...]
    team_turnovers: int = 0
    """Turnovers credited to no player (shot-clock violations)."""
    periods: tuple[int, ...] = ()
    """Points by period: regulation (opening 20 included), then each overtime."""

    @property
    def label(self) -> str:
        """Return ``"School Season"``."""
        return f"{self.school} {self.season}"

    @property
    def totals(self) -> PlayerLine:
        """Return the team totals line; its turnovers include the team turnovers."""
        sums = {name: sum(getattr(p, name) for p in self.players) for name in LINE_FIELDS}
        sums["to"] += self.team_turnovers
        return PlayerLine(name="Totals", **sums)

    def line(self, name: str) -> PlayerLine:
        """Return a player's line by name, or raise ``KeyError``."""
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)

    def to_json(self) -> dict[str, Any]:
        """Return the TEAM object of the ``--json`` output (optional fields after the core)."""
        return {
            "school": self.school,
            "season": self.season,
            "score": self.score,
            "players": [p.to_json() for p in self.players],
            "team_turnovers": self.team_turnovers,
            "periods": list(self.periods),
            "totals": self.totals.to_json(),
        }


@dataclass(frozen=True, slots=True)
class GameResult:
    """Hold a played game: both box scores, the event stream and the dice that made it."""

    game: str
    home: TeamBox
    away: TeamBox
    overtimes: int
    events: Sequence[Any]
    dice: DiceRecord
    rules: Any
    neutral: bool

    @property
    def winner(self) -> TeamBox:
        """Return the winning side (games never end tied)."""
        return self.home if self.home.score > self.away.score else self.away

    @property
    def loser(self) -> TeamBox:
        """Return the losing side."""
        return self.away if self.winner is self.home else self.home

    def to_json(self) -> dict[str, Any]:
        """Return the ``--json`` object of ``interchange.md`` plus the dice and rules used."""
        return {
            "home": self.home.to_json(),
            "away": self.away.to_json(),
            "overtimes": self.overtimes,
            "events": [e.to_json() for e in self.events],
            "game": self.game,
            "neutral": self.neutral,
            "dice": self.dice.to_json(),
            "rules": self.rules.to_json(),
        }
