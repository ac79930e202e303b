"""The rule switches of one VABG game (vabg-rulings.md §0).

Every advanced rule is a field of :class:`GameRules`; :data:`BASIC` and
:data:`ADVANCED` are the two presets. Strategy choices (§10 and the fast-break
extra possession) are on only when ``strategy`` is set.

The rulings change only by a dated note. :data:`RULES_VERSION` counts those notes, a
stored game keeps its version with its switches (:meth:`GameRules.to_json`), and
:meth:`GameRules.from_json` plays an older game by the rules it was played with, or
refuses it with :class:`RulesVersionError` when this engine cannot.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import MISSING, dataclass, fields, replace
from enum import StrEnum
from typing import NamedTuple

RULES_VERSION = 3
"""The revision of vabg-rulings.md this engine plays.

1: the rulings as first written (overtime of 5 possessions); 2: the note of 2026-11-23
(overtime of 10 possessions, §1); 3: the strategy choices of §8 and §10 are made by the
exact coach (issue 23: each choice the one with the higher chance of winning, docs/engine.md
"The coach"), where they were made by fixed thresholds.
"""


class CoachKind(StrEnum):
    """Who makes the strategy choices of §8 and §10 when ``GameRules.strategy`` is on."""

    EXACT = "exact"
    """The exact coach: each choice by the exact odds (``coachodds.solve_coach``)."""
    THRESHOLDS = "thresholds"
    """The fixed thresholds of ``CoachPolicy`` (games stored before rules version 3)."""


_DEFAULTS_BEFORE: dict[int, dict[str, object]] = {
    2: {"overtime_possessions": 5},
    3: {"coach": CoachKind.THRESHOLDS},
}
"""For each version, the switches whose default it changed and their value before it."""


class RulesVersionError(ValueError):
    """Raise for stored rules this engine cannot play; the message says which and why."""


@dataclass(frozen=True, slots=True)
class GameRules:
    """Switch each advanced rule of vabg-rulings.md on or off."""

    advanced_rotation: bool = True
    """§2: stints follow the cards' "can play N of 44"; off = reserves 44-38, starters 37-1."""
    tired_players: bool = True
    """§2: a player past his N has every roll moved one step against him."""
    dunk_steal_turnover_changes: bool = True
    """§3: dunk ranges of 57+ or 43- change opponents' steals and own turnovers."""
    halved_any_defender: bool = True
    """§4: on a d8 of 6-8 steal/block ranges are halved and any defender may use them."""
    twenty_shot: bool = True
    """§4: a player left short of his extra ball numbers makes a 2 on a d20 of 20."""
    home_court: bool = True
    """§6: home fouled ranges gain a number, visitors lose one to a missed call (not neutral)."""
    rebound_chart: bool = True
    """§7: the rebounding chart; off = the shooter's defender gets every miss."""
    fast_breaks: bool = True
    """§8: guards (and forwards on odd steals) shoot a bonus d20 after a steal."""
    pre_1987_centers: bool = True
    """§9: before 1987 a center's 3s are 2s and his 3-made numbers move to the guards."""
    strategy: bool = False
    """§8/§10: the coach may foul, try for 3 and take fast-break extra possessions."""
    coach: CoachKind = CoachKind.EXACT
    """Who makes those choices when ``strategy`` is on (fixed thresholds before version 3)."""
    overtime_possessions: int = 10
    """§1: possessions per team in each overtime period (5 before the 2026-11-23 note)."""

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.type == "bool" and not isinstance(value, bool):
                raise RulesVersionError(f"the rules switch {f.name} must be true or false")
        if self.coach not in tuple(CoachKind):
            raise RulesVersionError(
                f"the coach must be one of {', '.join(CoachKind)}, got {self.coach!r}"
            )
        object.__setattr__(self, "coach", CoachKind(self.coach))  # a stored "exact" reads back
        n = self.overtime_possessions
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 44:
            raise RulesVersionError(f"overtime_possessions must be a whole number 1-44, got {n!r}")

    @property
    def name(self) -> str:
        """Return ``"basic"``, ``"advanced"`` (either may add ``"+strategy"``, and
        ``"(thresholds)"`` for the coach of games stored before version 3) or ``"custom"``."""
        for preset_name, preset in PRESETS.items():
            if replace(self, strategy=False, coach=CoachKind.EXACT) == preset:
                if not self.strategy:
                    return preset_name
                old = " (thresholds)" if self.coach == CoachKind.THRESHOLDS else ""
                return f"{preset_name}+strategy{old}"
        return "custom"

    def to_json(self) -> dict[str, object]:
        """Return every switch by name, and the rules ``version`` they belong to."""
        return {"version": RULES_VERSION, **{f.name: getattr(self, f.name) for f in fields(self)}}

    @classmethod
    def from_json(cls, doc: Mapping[str, object]) -> GameRules:
        """Return the rules a stored game was played with (the inverse of :meth:`to_json`).

        A document with no ``version`` was stored before versions were kept: version 1.
        A switch it does not name takes the default of its version. Raise
        :class:`RulesVersionError` for a version newer than this engine's or a switch
        it does not know: such a game cannot be played again here.

        >>> GameRules.from_json({"version": 1}).overtime_possessions
        5
        >>> GameRules.from_json(ADVANCED.to_json()) == ADVANCED
        True
        >>> GameRules.from_json({"version": 2, "strategy": True}).coach
        <CoachKind.THRESHOLDS: 'thresholds'>
        """
        version = doc.get("version", 1)
        if isinstance(version, bool) or not isinstance(version, int) or version < 1:
            raise RulesVersionError(f"the rules version must be a whole number, got {version!r}")
        if version > RULES_VERSION:
            raise RulesVersionError(
                f"played under rules version {version}, newer than this engine's "
                f"({RULES_VERSION}): it cannot be played again with these rules"
            )
        known = {f.name: f for f in fields(cls)}
        unknown = sorted(set(doc) - set(known) - {"version"})
        if unknown:
            raise RulesVersionError(
                f"rules version {version} names switches this engine does not have: "
                + ", ".join(unknown)
            )
        values: dict[str, object] = {
            name: f.default for name, f in known.items() if f.default is not MISSING
        }
        for changed_in, before in _DEFAULTS_BEFORE.items():
            if version < changed_in:
                values.update(before)
        values.update({k: v for k, v in doc.items() if k != "version"})
        return cls(**values)  # type: ignore[arg-type]


ADVANCED = GameRules()
BASIC = GameRules(
    advanced_rotation=False,
    tired_players=False,
    dunk_steal_turnover_changes=False,
    halved_any_defender=False,
    twenty_shot=False,
    home_court=False,
    rebound_chart=False,
    fast_breaks=False,
    pre_1987_centers=False,
)
PRESETS = {"basic": BASIC, "advanced": ADVANCED}


def preset(name: str, *, strategy: bool = False) -> GameRules:
    """Return the ``basic`` or ``advanced`` preset, with the exact coach on if asked."""
    try:
        rules = PRESETS[name]
    except KeyError:
        raise ValueError(f"unknown rules preset {name!r}: use basic or advanced") from None
    return replace(rules, strategy=strategy)


DUNK_TOP_MIN, DUNK_TOP_MAX = 34, 66
"""§3: the effective dunk top X is clamped to this range."""


class DunkRow(NamedTuple):
    """What one effective dunk top X does (§3): the one table the engine and the cards read.

    ``dunks`` and ``stops`` are the 51-66 rolls that dunk or stop; ``steals`` and
    ``turnovers`` change the opponent's steal ranges and the offense's own turnover ranges,
    in numbers (negative = shorter), when the advanced rule is on.
    """

    dunks: tuple[int, ...]
    stops: tuple[int, ...]
    steals: int
    turnovers: int


# (opponent steals, own turnovers) for X = 57-59 and 41-43; from 60 up it is -2/-2,
# from 40 down +2/+2 (§3).
_DUNK_CHANGES = {57: (-1, 0), 58: (-1, -1), 59: (-2, -1), 43: (1, 0), 42: (1, 1), 41: (2, 1)}


def dunk_row(x: int) -> DunkRow:
    """Return the row of the dunk table (§3) for an effective top X, clamped to 34..66.

    >>> dunk_row(62)
    DunkRow(dunks=(51, 52, 53, 54, 55, 56, 61, 62), stops=(), steals=-2, turnovers=-2)
    >>> dunk_row(47)
    DunkRow(dunks=(), stops=(51, 52, 53), steals=0, turnovers=0)
    >>> dunk_row(38).stops
    (51, 52, 53, 54, 55, 56, 61, 62)
    """
    x = max(DUNK_TOP_MIN, min(DUNK_TOP_MAX, x))
    if x >= 61:
        dunks = (*range(51, 57), *range(61, x + 1))
    elif x >= 57:
        dunks = tuple(range(51, 57))
    else:
        dunks = tuple(range(51, x + 1))  # empty for X <= 50
    if 44 <= x <= 49:
        stops = tuple(range(51, 51 + 50 - x))  # the first 50-X numbers of 51-56
    elif x <= 43:
        stops = (*range(51, 57), *range(61, 61 + 39 - x + 1))  # 61..(61+39-X) for X <= 39
    else:
        stops = ()
    far = (-2, -2) if x >= 60 else (2, 2) if x <= 40 else (0, 0)
    steals, turnovers = _DUNK_CHANGES.get(x, far)
    return DunkRow(dunks, stops, steals, turnovers)


EXTRA_POSSESSION_WITHIN = 5
"""§8: a trailing team that fast-breaks in the last this many numbers of a period may give
both teams one extra possession (the seed's limit)."""


def may_take_extra_possession(n: int) -> bool:
    """Return whether a fast break at number ``n`` may earn the extra possessions (§8)."""
    return n <= EXTRA_POSSESSION_WITHIN


def may_call_foul_round(n: int) -> bool:
    """Return whether an intentional foul may be called before number ``n`` (§10: the
    extra possessions 2a and 1a are played before 2 and 1 of any period)."""
    return n <= 2
