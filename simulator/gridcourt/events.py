"""The event stream of a grid-court game and the box score rebuilt from it alone (§7).

Each event is a small named tuple with ``to_json()``. ``team`` is ``"away"`` (team 1, the
visitor, who starts) or ``"home"`` (team 2). Cells are ``(row, column)``; pieces are
numbered 1..N for the whole game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from typing import Any, NamedTuple

HOME, AWAY = "home", "away"
OFFENSE, DEFENSE = "offense", "defense"
PAINT, SHOT_CLOCK = "paint", "shot_clock"
Cell = tuple[int, int]


def other(team: str) -> str:
    """Return the other team."""
    return AWAY if team == HOME else HOME


class Start(NamedTuple):
    """Open the stream: who plays whom."""

    home_school: str
    home_season: int
    away_school: str
    away_season: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "start", **self._asdict()}


class Reset(NamedTuple):
    """Record a reset (§2.2): the offense, then every piece's cell, 1..N, for each team."""

    offense: str
    home: tuple[Cell, ...]
    away: tuple[Cell, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "reset",
            "offense": self.offense,
            "home": [list(c) for c in self.home],
            "away": [list(c) for c in self.away],
        }


class Roll(NamedTuple):
    """Record a turn's dice (§5): two for the offense, one for the defense.

    ``clock`` is the shot clock when the turn starts; ``open`` the offense's open pieces
    then (offensive turns only), which counts the open shots declined.
    """

    team: str
    role: str
    dice: tuple[int, ...]
    clock: int
    open: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "roll",
            "team": self.team,
            "role": self.role,
            "dice": list(self.dice),
            "clock": self.clock,
            "open": list(self.open),
        }


class Step(NamedTuple):
    """Record one step of one piece (§2.6)."""

    team: str
    piece: int
    frm: Cell
    to: Cell

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "step",
            "team": self.team,
            "piece": self.piece,
            "from": list(self.frm),
            "to": list(self.to),
        }


class Announce(NamedTuple):
    """Record a shot announced before the dice are read (§2.5a)."""

    team: str
    piece: int
    cell: Cell

    def to_json(self) -> dict[str, Any]:
        return {"type": "announce", "team": self.team, "piece": self.piece, "cell": list(self.cell)}


class Shot(NamedTuple):
    """Record a shot taken: value v, dice total t, k in the paint, its points and result."""

    team: str
    piece: int
    cell: Cell
    v: int
    t: int
    k: int
    points: int
    made: bool

    def to_json(self) -> dict[str, Any]:
        return {"type": "shot", **self._asdict(), "cell": list(self.cell)}


class Rebound(NamedTuple):
    """Record a rebound; ``offensive`` says whose (§2.9), ``piece`` who is credited (§7)."""

    team: str
    piece: int
    offensive: bool

    def to_json(self) -> dict[str, Any]:
        return {"type": "rebound", **self._asdict()}


class Steal(NamedTuple):
    """Record a steal (§2.10) by ``team``.

    On a shot roll ``piece`` is the stealing defender and ``shooter`` the piece charged the
    turnover; on a movement roll both are ``None`` (a team steal and a team turnover).
    """

    team: str
    piece: int | None
    shooter: int | None

    def to_json(self) -> dict[str, Any]:
        return {"type": "steal", **self._asdict()}


class Violation(NamedTuple):
    """Record a paint or shot-clock violation by the offense ``team`` (§2.11, §2.12)."""

    team: str
    kind: str
    piece: int | None

    def to_json(self) -> dict[str, Any]:
        return {"type": "violation", **self._asdict()}


class Score(NamedTuple):
    """Record the score after a made basket."""

    home: int
    away: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "score", **self._asdict()}


class End(NamedTuple):
    """Close the stream: the final score, the winner and how many turns were played."""

    home: int
    away: int
    winner: str
    turns: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "end", **self._asdict()}


Event = Start | Reset | Roll | Step | Announce | Shot | Rebound | Steal | Violation | Score | End

_BY_TYPE: dict[str, Any] = {
    "start": Start, "reset": Reset, "roll": Roll, "step": Step, "announce": Announce,
    "shot": Shot, "rebound": Rebound, "steal": Steal, "violation": Violation,
    "score": Score, "end": End,
}  # fmt: skip
_CELLS = ("cell", "from", "to")


def event_from_json(data: Mapping[str, Any]) -> Event:
    """Rebuild an event from its ``to_json()`` form (a stored play-by-play).

    >>> event_from_json(Step("away", 5, (7, 11), (6, 11)).to_json())
    Step(team='away', piece=5, frm=(7, 11), to=(6, 11))
    """
    values = dict(data)
    kind = values.pop("type", None)
    if kind not in _BY_TYPE:
        raise ValueError(f"unknown event type {kind!r}")
    for key in _CELLS:
        if key in values:
            values[key] = tuple(values[key])
    if "from" in values:
        values["frm"] = values.pop("from")
    for key in ("home", "away") if kind == "reset" else ():
        values[key] = tuple(tuple(c) for c in values[key])
    if kind == "roll":
        values["dice"] = tuple(values["dice"])
        values["open"] = tuple(values.get("open", ()))
    event: Event = _BY_TYPE[kind](**values)
    return event


@dataclass(frozen=True, slots=True)
class PieceLine:
    """Hold one piece's box-score line (§7)."""

    piece: int
    pts: int = 0
    fgm: int = 0
    fga: int = 0
    tpm: int = 0
    tpa: int = 0
    oreb: int = 0
    dreb: int = 0
    stl: int = 0
    to: int = 0
    three_sec: int = 0
    """Paint violations (three seconds); each is also the piece's turnover."""

    def to_json(self) -> dict[str, Any]:
        """Return the line by column key."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


PIECE_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(PieceLine) if f.name != "piece")
"""The counting stats of a piece's line, in box-score order."""


@dataclass(frozen=True, slots=True)
class GridTeamBox:
    """Hold one team's side of a grid-court box score (§7)."""

    school: str
    season: int
    score: int
    pieces: tuple[PieceLine, ...]
    team_stl: int = 0
    """Steals on movement rolls, credited to no piece."""
    team_to: int = 0
    """Turnovers charged to no piece: steals on movement rolls and shot-clock violations."""
    shot_clock_violations: int = 0
    possessions: int = 0
    off_rolls: int = 0
    def_rolls: int = 0
    steps: int = 0
    open_declined: int = 0
    """Offensive turns with an open piece and no shot announced."""
    oreb_chances: int = 0
    """Misses with at least one offense piece in the paint (k >= 1)."""

    @property
    def label(self) -> str:
        """Return ``"School Season"``."""
        return f"{self.school} {self.season}"

    @property
    def totals(self) -> PieceLine:
        """Return the sums of the piece lines, team steals and turnovers included."""
        sums = {name: sum(getattr(p, name) for p in self.pieces) for name in PIECE_FIELDS}
        sums["stl"] += self.team_stl
        sums["to"] += self.team_to
        return PieceLine(piece=0, **sums)

    @property
    def ppp(self) -> float:
        """Return points per possession (0.0 before any possession)."""
        return self.score / self.possessions if self.possessions else 0.0

    def line(self, piece: int) -> PieceLine:
        """Return piece ``piece``'s line (1..N)."""
        return self.pieces[piece - 1]

    def to_json(self) -> dict[str, Any]:
        """Return the team object of the ``--json`` output."""
        return {
            "school": self.school,
            "season": self.season,
            "score": self.score,
            "pieces": [p.to_json() for p in self.pieces],
            "totals": {k: v for k, v in self.totals.to_json().items() if k != "piece"},
            "team_stl": self.team_stl,
            "team_to": self.team_to,
            "shot_clock_violations": self.shot_clock_violations,
            "possessions": self.possessions,
            "ppp": round(self.ppp, 3),
            "off_rolls": self.off_rolls,
            "def_rolls": self.def_rolls,
            "steps": self.steps,
            "open_declined": self.open_declined,
            "oreb_chances": self.oreb_chances,
        }


_TEAM_FIELDS = (
    "team_stl", "team_to", "shot_clock_violations", "possessions", "off_rolls", "def_rolls",
    "steps", "open_declined", "oreb_chances",
)  # fmt: skip


def box_score(events: Iterable[Event]) -> tuple[GridTeamBox, GridTeamBox]:
    """Rebuild ``(home, away)`` box scores from a game's events alone (§7).

    Credits: a shot to the shooter; a rebound to the piece the event names; a steal on a
    shot roll to the named defender (the shooter's turnover), on a movement roll to the
    team; a paint violation to the violating piece (3SEC and TO); a shot-clock violation
    is a team turnover. A possession starts at every reset, steal and defensive rebound.
    """
    names = {HOME: ("", 0), AWAY: ("", 0)}
    lines: dict[str, list[dict[str, int]]] = {HOME: [], AWAY: []}
    team: dict[str, dict[str, int]] = {t: dict.fromkeys(_TEAM_FIELDS, 0) for t in (HOME, AWAY)}
    score = {HOME: 0, AWAY: 0}
    announced = False

    def line(side: str, piece: int) -> dict[str, int]:
        rows = lines[side]
        while len(rows) < piece:
            rows.append(dict.fromkeys(PIECE_FIELDS, 0))
        return rows[piece - 1]

    # Dispatch on the exact type; ``Any`` because each branch reads its own type's fields.
    stream: Iterable[Any] = events
    for e in stream:
        kind = type(e)
        if kind is Step:
            team[e.team]["steps"] += 1
        elif kind is Roll:
            if e.role == OFFENSE:
                team[e.team]["off_rolls"] += 1
                team[e.team]["open_declined"] += bool(e.open) and not announced
                announced = False
            else:
                team[e.team]["def_rolls"] += 1
        elif kind is Shot:
            row = line(e.team, e.piece)
            row["fga"] += 1
            three = e.points == 3
            row["tpa"] += three
            if e.made:
                row["fgm"] += 1
                row["tpm"] += three
                row["pts"] += e.points
                score[e.team] += e.points
            elif e.k >= 1:
                team[e.team]["oreb_chances"] += 1
        elif kind is Announce:
            announced = True  # the shot is announced before its turn's Roll (§2.5a)
        elif kind is Rebound:
            line(e.team, e.piece)["oreb" if e.offensive else "dreb"] += 1
            if not e.offensive:
                team[e.team]["possessions"] += 1
        elif kind is Steal:
            team[e.team]["possessions"] += 1
            if e.piece is None:
                team[e.team]["team_stl"] += 1
                team[other(e.team)]["team_to"] += 1
            else:
                line(e.team, e.piece)["stl"] += 1
                assert e.shooter is not None
                line(other(e.team), e.shooter)["to"] += 1
        elif kind is Violation:
            if e.kind == PAINT and e.piece is not None:
                row = line(e.team, e.piece)
                row["three_sec"] += 1
                row["to"] += 1
            else:
                team[e.team]["shot_clock_violations"] += 1
                team[e.team]["team_to"] += 1
        elif kind is Reset:
            team[e.offense]["possessions"] += 1
            for side in (HOME, AWAY):
                line(side, len(getattr(e, side)))
        elif kind is Start:
            names = {
                HOME: (e.home_school, e.home_season),
                AWAY: (e.away_school, e.away_season),
            }
    boxes = []
    for side in (HOME, AWAY):
        school, season = names[side]
        pieces = tuple(PieceLine(piece=i, **row) for i, row in enumerate(lines[side], 1))
        boxes.append(GridTeamBox(school, season, score[side], pieces, **team[side]))
    return boxes[0], boxes[1]
