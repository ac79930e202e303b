"""The event stream of a VABG game and the box score rebuilt from it alone.

Each event is a small named tuple. ``team`` is ``"home"`` or ``"away"``: the
side credited with the event (the shooter's side for a shot, the defender's side
for a steal, block or foul). ``period`` is 0 for regulation, then 1, 2, ... for
overtimes; ``number`` is the possession number printed on the score sheet
(44 down to 1, 10 down to 1 in overtime).
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import Any, NamedTuple

from simulator.results import LINE_FIELDS, TeamBox, player_line
from simulator.vabg.rules import ADVANCED

HOME, AWAY = "home", "away"


class Tipoff(NamedTuple):
    """Open the stream: who plays whom, where."""

    home_school: str
    home_season: int
    away_school: str
    away_season: int
    neutral: bool

    def to_json(self) -> dict[str, Any]:
        return {"type": "tipoff", **self._asdict()}


class Opening(NamedTuple):
    """Credit a player with his share of the 20-20 start (vabg-rulings.md §1, §13)."""

    team: str
    player: str
    pts: int
    reb: int
    stl: int
    blk: int
    pf: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "opening", **self._asdict()}


class Enter(NamedTuple):
    """Put a player on the floor in a slot from this possession number on."""

    period: int
    number: int
    team: str
    slot: int
    player: str

    def to_json(self) -> dict[str, Any]:
        return {"type": "enter", **self._asdict()}


class TripKind(StrEnum):
    """Why a trip is played: the ``kind`` of a :class:`Trip` (stored as its value)."""

    PLAIN = ""
    """A number's own trip."""
    REROLL = "reroll"
    """The shot-clock re-roll after a d8 of 6-8 nobody claims (§4)."""
    EXTRA = "extra"
    """An extra possession: after a fast break (§8), or 2a/1a (§10)."""
    FOUL = "foul"
    """The extra possession on which the trailing team fouls on purpose (§10)."""


class Trip(NamedTuple):
    """Start a trip down the floor: the dice read and who got the ball."""

    period: int
    number: int
    team: str
    player: str | None
    d8: int
    roll: int
    d20: int
    kind: TripKind = TripKind.PLAIN
    """Why the trip is played (:class:`TripKind`)."""

    def to_json(self) -> dict[str, Any]:
        return {"type": "trip", **self._asdict()}


class Shot(NamedTuple):
    """Record a field-goal attempt; ``how`` says what kind (jumper, dunk, putback, ...)."""

    period: int
    number: int
    team: str
    player: str
    value: int
    made: bool
    how: str

    def to_json(self) -> dict[str, Any]:
        return {"type": "shot", **self._asdict()}


class FreeThrow(NamedTuple):
    """Record one free throw."""

    period: int
    number: int
    team: str
    player: str
    made: bool

    def to_json(self) -> dict[str, Any]:
        return {"type": "free_throw", **self._asdict()}


class Rebound(NamedTuple):
    """Record a rebound, offensive or defensive."""

    period: int
    number: int
    team: str
    player: str
    offensive: bool

    def to_json(self) -> dict[str, Any]:
        return {"type": "rebound", **self._asdict()}


class Steal(NamedTuple):
    """Record a steal by a defender."""

    period: int
    number: int
    team: str
    player: str
    fast_break: bool

    def to_json(self) -> dict[str, Any]:
        return {"type": "steal", **self._asdict()}


class Block(NamedTuple):
    """Record a blocked shot by a defender."""

    period: int
    number: int
    team: str
    player: str

    def to_json(self) -> dict[str, Any]:
        return {"type": "block", **self._asdict()}


class Turnover(NamedTuple):
    """Record a turnover; ``player`` is ``None`` for a team turnover (shot clock)."""

    period: int
    number: int
    team: str
    player: str | None
    cause: str

    def to_json(self) -> dict[str, Any]:
        return {"type": "turnover", **self._asdict()}


class Foul(NamedTuple):
    """Record a personal foul by ``player`` of ``team`` on ``fouled``; ``shots`` free throws."""

    period: int
    number: int
    team: str
    player: str
    fouled: str
    shots: int
    kind: str
    """``"shooting"``, ``"and-one"``, ``"one-and-one"``, ``"intentional"``."""

    def to_json(self) -> dict[str, Any]:
        return {"type": "foul", **self._asdict()}


class Call(NamedTuple):
    """Record a coach's strategy call (vabg-rulings.md §8, §10), ``team`` the team whose
    coach made it, or a home court's missed call (§7, "no call on the road"), ``team`` the
    home team: the call goes against the visitor."""

    period: int
    number: int
    team: str
    call: str

    def to_json(self) -> dict[str, Any]:
        return {"type": "call", **self._asdict()}


class PeriodEnd(NamedTuple):
    """Close a period with the score."""

    period: int
    home: int
    away: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "period_end", **self._asdict()}


Event = (
    Tipoff | Opening | Enter | Trip | Shot | FreeThrow | Rebound | Steal | Block
    | Turnover | Foul | Call | PeriodEnd
)  # fmt: skip

_BY_TYPE: dict[str, Any] = {
    "tipoff": Tipoff, "opening": Opening, "enter": Enter, "trip": Trip, "shot": Shot,
    "free_throw": FreeThrow, "rebound": Rebound, "steal": Steal, "block": Block,
    "turnover": Turnover, "foul": Foul, "call": Call, "period_end": PeriodEnd,
}  # fmt: skip


def event_from_json(data: dict[str, Any]) -> Event:
    """Rebuild an event from its ``to_json()`` form (a stored play-by-play).

    >>> event_from_json(PeriodEnd(0, 80, 77).to_json())
    PeriodEnd(period=0, home=80, away=77)
    """
    fields = dict(data)
    kind = fields.pop("type", None)
    if kind not in _BY_TYPE:
        raise ValueError(f"unknown event type {kind!r}")
    if kind == "trip":
        fields["kind"] = TripKind(fields.get("kind", TripKind.PLAIN))
    event: Event = _BY_TYPE[kind](**fields)
    return event


_COLUMN = {name: i for i, name in enumerate(LINE_FIELDS)}
_PTS, _FGM, _FGA, _TPM, _TPA, _FTM, _FTA = (_COLUMN[k] for k in LINE_FIELDS[:7])
_OREB, _DREB, _REB, _STL, _BLK, _TO, _PF, _POSS = (_COLUMN[k] for k in LINE_FIELDS[7:])


def _number_index(period: int, number: int, ot_length: int) -> int:
    """Return how many possession numbers were complete before this one began."""
    if period == 0:
        return 44 - number
    return 44 + ot_length * (period - 1) + (ot_length - number)


def box_score(
    events: Iterable[Event], *, ot_length: int = ADVANCED.overtime_possessions
) -> tuple[TeamBox, TeamBox, int]:
    """Rebuild ``(home, away, overtimes)`` from a game's events alone."""
    lines: dict[str, dict[str, list[int]]] = {HOME: {}, AWAY: {}}
    team_to = {HOME: 0, AWAY: 0}
    on_floor: dict[tuple[str, int], tuple[str, int]] = {}
    ends: list[PeriodEnd] = []
    tip: Tipoff | None = None
    # Dispatch on the exact type (most frequent first: trips credit nothing), which keeps
    # the loop cheap; fields are read by position (e[2] the team, e[3] the player of every
    # crediting event), a tuple index being cheaper than a NamedTuple's named field.
    # Globals read into locals once: the loop below runs some 300 times a game.
    trip, shot, rebound, free_throw, turnover, foul, steal, block = (
        Trip, Shot, Rebound, FreeThrow, Turnover, Foul, Steal, Block
    )  # fmt: skip
    pts, fgm, fga, tpm, tpa, ftm, fta = _PTS, _FGM, _FGA, _TPM, _TPA, _FTM, _FTA
    oreb, dreb, reb, stl, blk, to, pf = _OREB, _DREB, _REB, _STL, _BLK, _TO, _PF
    stream: Iterable[Any] = events
    for e in stream:
        kind = type(e)
        if kind is trip:
            continue
        if kind is shot:  # (period, number, team, player, value, made, how)
            row = lines[e[2]][e[3]]
            row[fga] += 1
            if e[4] == 3:
                row[tpa] += 1
                if e[5]:
                    row[fgm] += 1
                    row[tpm] += 1
                    row[pts] += 3
            elif e[5]:
                row[fgm] += 1
                row[pts] += 2
        elif kind is rebound:  # (period, number, team, player, offensive)
            row = lines[e[2]][e[3]]
            row[reb] += 1
            row[oreb if e[4] else dreb] += 1
        elif kind is free_throw:  # (period, number, team, player, made)
            row = lines[e[2]][e[3]]
            row[fta] += 1
            if e[4]:
                row[ftm] += 1
                row[pts] += 1
        elif kind is turnover:  # (period, number, team, player or None, cause)
            if e[3] is None:
                team_to[e[2]] += 1
            else:
                lines[e[2]][e[3]][to] += 1
        elif kind is foul:  # (period, number, team, fouler, ...)
            lines[e[2]][e[3]][pf] += 1
        elif kind is steal:
            lines[e[2]][e[3]][stl] += 1
        elif kind is block:
            lines[e[2]][e[3]][blk] += 1
        elif kind is Enter:
            key = (e.team, e.slot)
            now = _number_index(e.period, e.number, ot_length)
            if key in on_floor:
                name, since = on_floor[key]
                lines[e.team][name][_POSS] += now - since
            on_floor[key] = (e.player, now)
        elif kind is PeriodEnd:
            ends.append(e)
            now = 44 + ot_length * e.period
            for (team, _slot), (name, since) in on_floor.items():
                lines[team][name][_POSS] += now - since
            on_floor = {key: (name, now) for key, (name, _since) in on_floor.items()}
        elif kind is Opening:
            row = [0] * len(LINE_FIELDS)
            row[_PTS], row[_REB] = e.pts, e.reb
            row[_STL], row[_BLK], row[_PF] = e.stl, e.blk, e.pf
            lines[e.team][e.player] = row
        elif kind is Tipoff:
            tip = e
    if tip is None:
        raise ValueError("the events have no tipoff: not a VABG game stream")
    overtimes = max(len(ends) - 1, 0)
    # Points by period from the score at each period's end (the first includes the 20).
    period_pts: dict[str, list[int]] = {HOME: [], AWAY: []}
    before = {HOME: 0, AWAY: 0}
    for end in ends:
        for side, score in ((HOME, end.home), (AWAY, end.away)):
            period_pts[side].append(score - before[side])
            before[side] = score

    def team_box(side: str, school: str, season: int) -> TeamBox:
        rows = lines[side]
        return TeamBox(
            school=school,
            season=season,
            score=sum(row[_PTS] for row in rows.values()),
            players=tuple([player_line(name, row) for name, row in rows.items()]),
            team_turnovers=team_to[side],
            periods=tuple(period_pts[side]),
        )

    return (
        team_box(HOME, tip.home_school, tip.home_season),
        team_box(AWAY, tip.away_school, tip.away_season),
        overtimes,
    )
