"""The event stream of a six-dice game and the team box score rebuilt from it alone (§7).

Each event is a small named tuple with ``to_json()``. ``team`` is ``"away"`` (Orange) or
``"home"`` (White): the side credited with the event. Dice are die values in die order
(1-6; the rules' ``faces`` say what each shows), five when a penalty was served.
``section`` is where the pawn stands afterwards (1-14).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, fields
from typing import Any, NamedTuple

from simulator.sixdice.state import AWAY, HOME, other

Dice = tuple[int, ...]


class Start(NamedTuple):
    """Open the stream: who plays whom (White is home, Orange the visitor)."""

    home_school: str
    home_season: int
    away_school: str
    away_season: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "start", **self._asdict()}


class JumpBall(NamedTuple):
    """Record one jump-ball roll; ``winner`` is ``None`` when the Balls tie (G5)."""

    away: Dice
    home: Dice
    away_balls: int
    home_balls: int
    winner: str | None
    section: int | None

    def to_json(self) -> dict[str, Any]:
        return {"type": "jump_ball", **self._asdict()}


class MainRoll(NamedTuple):
    """Record a main roll: both teams' dice, plays and counts, the winner, the chip (§2.2).

    ``chip`` is true when the winner won a tie by playing the chip (it then passed to
    the loser). ``depth`` is the offense's depth before the roll.
    """

    number: int
    offense: str
    depth: int
    away: Dice
    home: Dice
    away_play: str
    away_n: int
    home_play: str
    home_n: int
    winner: str
    chip: bool

    def to_json(self) -> dict[str, Any]:
        return {"type": "main_roll", **self._asdict()}


class ChipReroll(NamedTuple):
    """Record a chip reroll (§2.11): ``team`` handed the chip over and rerolled ``dice``."""

    team: str
    contest: str
    dice: Dice
    """The die numbers rerolled (1-6)."""
    before: Dice
    after: Dice

    def to_json(self) -> dict[str, Any]:
        return {"type": "chip_reroll", **self._asdict()}


class Advance(NamedTuple):
    """Move the pawn toward the net on the court (``play`` ``"B"`` or ``"P"``)."""

    team: str
    play: str
    sections: int
    section: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "advance", **self._asdict()}


class Push(NamedTuple):
    """Push the pawn back; a push past the half-court line is followed by a steal (G7)."""

    team: str
    play: str
    sections: int
    section: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "push", **self._asdict()}


class Pass(NamedTuple):
    """Record a winning Pass: ``"no-look"`` (offense) or ``"deflected"`` (defense).

    ``penalized`` is the team that rolls one die fewer next (G10): the defense after a
    No-Look Pass; ``None`` after a Deflected Pass, which carries no die penalty (the
    offense in games of rules version 1, stored before the note of 2026-11-26).
    """

    team: str
    kind: str
    penalized: str | None

    def to_json(self) -> dict[str, Any]:
        return {"type": "pass", **self._asdict()}


class Steal(NamedTuple):
    """Record a steal: ``kind`` ``"s"`` (the S face), ``"push"`` or ``"inbound"``."""

    team: str
    kind: str
    section: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "steal", **self._asdict()}


class Shot(NamedTuple):
    """Record a shot (§2.6): both rolls, both totals, and whether it went in.

    ``team`` shoots; ``total`` includes the arc's +1 or -1. ``chip`` is true when a tie
    was decided by the chip. ``pushed_out`` is true when the offense moved out to d 3.
    """

    team: str
    points: int
    depth: int
    section: int
    pushed_out: bool
    away: Dice
    home: Dice
    total: int
    defense_total: int
    made: bool
    chip: bool

    def to_json(self) -> dict[str, Any]:
        return {"type": "shot", **self._asdict()}


class FreeThrow(NamedTuple):
    """Record one free throw (§2.7): made on 3 Balls or more."""

    team: str
    number: int
    dice: Dice
    balls: int
    made: bool

    def to_json(self) -> dict[str, Any]:
        return {"type": "free_throw", **self._asdict()}


class Dunk(NamedTuple):
    """Record a dunk: ``kind`` ``"ball"`` or ``"pass"`` past depth 7, or ``"slam"`` (6 Balls)."""

    team: str
    kind: str

    def to_json(self) -> dict[str, Any]:
        return {"type": "dunk", **self._asdict()}


class InboundRound(NamedTuple):
    """Record one round of an inbound race (§2.8).

    ``team`` inbounds; ``balls`` is this round's, ``moved`` the race's total so far,
    ``set_aside`` the defense's S's so far. ``result`` is ``""`` (race goes on),
    ``"crossed"`` (the pawn stops at the inbounder's d 1) or ``"steal"``.
    """

    team: str
    round: int
    away: Dice
    home: Dice
    balls: int
    moved: int
    set_aside: int
    section: int
    result: str

    def to_json(self) -> dict[str, Any]:
        return {"type": "inbound_round", **self._asdict()}


class Score(NamedTuple):
    """Move a scoring token: ``team`` scored ``points``; the score is now away-home."""

    team: str
    points: int
    away: int
    home: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "score", **self._asdict()}


class End(NamedTuple):
    """Close the stream: ``winner`` reached 21 (§3)."""

    winner: str
    away: int
    home: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "end", **self._asdict()}


Event = (
    Start | JumpBall | MainRoll | ChipReroll | Advance | Push | Pass | Steal | Shot
    | FreeThrow | Dunk | InboundRound | Score | End
)  # fmt: skip

_BY_TYPE: dict[str, Any] = {
    "start": Start, "jump_ball": JumpBall, "main_roll": MainRoll, "chip_reroll": ChipReroll,
    "advance": Advance, "push": Push, "pass": Pass, "steal": Steal, "shot": Shot,
    "free_throw": FreeThrow, "dunk": Dunk, "inbound_round": InboundRound, "score": Score,
    "end": End,
}  # fmt: skip
_DICE_FIELDS = ("away", "home", "dice", "before", "after")


def event_from_json(data: dict[str, Any]) -> Event:
    """Rebuild an event from its ``to_json()`` form (dice lists become tuples again).

    >>> event_from_json(Dunk("away", "slam").to_json())
    Dunk(team='away', kind='slam')
    """
    values = dict(data)
    kind = values.pop("type", None)
    if kind not in _BY_TYPE:
        raise ValueError(f"unknown six-dice event type {kind!r}")
    for name in _DICE_FIELDS:
        if isinstance(values.get(name), list):
            values[name] = tuple(values[name])
    event: Event = _BY_TYPE[kind](**values)
    return event


@dataclass(frozen=True, slots=True)
class SixDiceBox:
    """Hold one team's side of a six-dice box score (§7; the game has no players)."""

    school: str
    season: int
    score: int = 0
    dunks: int = 0
    """Dunks by advancing or passing past depth 7."""
    slams: int = 0
    fg2m: int = 0
    fg2a: int = 0
    fg3m: int = 0
    fg3a: int = 0
    ftm: int = 0
    fta: int = 0
    stl: int = 0
    stl_s: int = 0
    stl_push: int = 0
    stl_inbound: int = 0
    to: int = 0
    """The opponent's steals."""
    rolls_won: int = 0
    rolls_lost: int = 0
    rolls_won_chip: int = 0
    chip_plays: int = 0
    """Ties won by playing the chip, main rolls and shots."""
    chip_rerolls: int = 0
    no_look: int = 0
    deflected: int = 0
    advanced: int = 0
    """Sections advanced on the court (a move past depth 7 is a dunk instead)."""
    pushed: int = 0
    inbounds: int = 0
    inbound_rounds: int = 0
    penalties: int = 0
    """Penalties suffered: No-Look Passes lost (G10), each costing a die on the next roll."""
    poss: int = 0
    """Possessions: the jump ball, every inbound, every steal."""

    @property
    def label(self) -> str:
        """Return ``"School Season"``."""
        return f"{self.school} {self.season}"

    @property
    def points(self) -> dict[str, int]:
        """Return the points by kind: dunk, slam, 2-point and 3-point shots, free throws."""
        return {
            "dunk": 2 * self.dunks,
            "slam": 2 * self.slams,
            "two": 2 * self.fg2m,
            "three": 3 * self.fg3m,
            "ft": self.ftm,
        }

    def to_json(self) -> dict[str, Any]:
        """Return the TEAM object of ``--json``: school, season, score, then every column."""
        doc = {f.name: getattr(self, f.name) for f in fields(self)}
        doc["points"] = self.points
        return doc


COLUMNS: tuple[tuple[str, str], ...] = (
    ("score", "PTS"), ("dunks", "DUNK"), ("slams", "SLAM"),
    ("fg2m", "2PM"), ("fg2a", "2PA"), ("fg3m", "3PM"), ("fg3a", "3PA"),
    ("ftm", "FTM"), ("fta", "FTA"), ("stl", "STL"), ("stl_s", "STL-S"),
    ("stl_push", "STL-PUSH"), ("stl_inbound", "STL-IN"), ("to", "TO"),
    ("rolls_won", "WON"), ("rolls_lost", "LOST"), ("rolls_won_chip", "WON-CHIP"),
    ("chip_plays", "CHIP"), ("chip_rerolls", "REROLL"), ("no_look", "NO-LOOK"),
    ("deflected", "DEFL"), ("advanced", "ADV"), ("pushed", "PUSHED"),
    ("inbounds", "INB"), ("inbound_rounds", "INB-RND"), ("penalties", "PEN"), ("poss", "POSS"),
)  # fmt: skip
"""The box-score columns: (``SixDiceBox`` field, heading)."""


_STEAL_COLUMN = {"s": "stl_s", "push": "stl_push", "inbound": "stl_inbound"}


def box_score(events: Iterable[Event]) -> tuple[SixDiceBox, SixDiceBox]:
    """Rebuild ``(home, away)`` box scores from a game's events alone.

    Points are counted from the dunks, shots and free throws, never from the score
    events, so a test can hold the two against each other.
    """
    counts: dict[str, Counter[str]] = {HOME: Counter(), AWAY: Counter()}
    start: Start | None = None
    # Dispatch on the exact type, most frequent first; ``Any`` because each branch reads
    # its own type's fields.
    stream: Iterable[Any] = events
    for e in stream:
        kind = type(e)
        if kind is MainRoll:
            won, lost = counts[e.winner], counts[other(e.winner)]
            won["rolls_won"] += 1
            lost["rolls_lost"] += 1
            if e.chip:
                won["rolls_won_chip"] += 1
                won["chip_plays"] += 1
        elif kind is Push:
            counts[e.team]["pushed"] += e.sections
        elif kind is Steal:
            row = counts[e.team]
            row["stl"] += 1
            row[_STEAL_COLUMN[e.kind]] += 1
            row["poss"] += 1
            counts[other(e.team)]["to"] += 1
        elif kind is Advance:
            counts[e.team]["advanced"] += e.sections
        elif kind is InboundRound:
            row = counts[e.team]
            row["inbound_rounds"] += 1
            if e.round == 1:
                row["inbounds"] += 1
                row["poss"] += 1
        elif kind is Dunk:
            row = counts[e.team]
            row["slams" if e.kind == "slam" else "dunks"] += 1
            row["score"] += 2
        elif kind is Shot:
            row = counts[e.team]
            made = int(e.made)
            if e.points == 3:
                row["fg3a"] += 1
                row["fg3m"] += made
            else:
                row["fg2a"] += 1
                row["fg2m"] += made
            row["score"] += e.points * made
            if e.chip:
                counts[e.team if e.made else other(e.team)]["chip_plays"] += 1
        elif kind is FreeThrow:
            row = counts[e.team]
            row["fta"] += 1
            row["ftm"] += int(e.made)
            row["score"] += int(e.made)
        elif kind is Pass:
            counts[e.team]["no_look" if e.kind == "no-look" else "deflected"] += 1
            if e.penalized is not None:
                counts[e.penalized]["penalties"] += 1
        elif kind is ChipReroll:
            counts[e.team]["chip_rerolls"] += 1
        elif kind is JumpBall:
            if e.winner is not None:
                counts[e.winner]["poss"] += 1
        elif kind is Start:
            start = e
    if start is None:
        raise ValueError("the events have no start: not a six-dice game stream")
    return (
        SixDiceBox(start.home_school, start.home_season, **counts[HOME]),
        SixDiceBox(start.away_school, start.away_season, **counts[AWAY]),
    )
