"""The rule options of a grid-court game (gridcourt-rulings.md §1.1).

Three options: ``width`` (14 or 13 columns), ``level`` (0, 1 or 2: each adds to the
values of the first printed grid) and ``pieces`` (3, 4 or 5 a team). :data:`STANDARD` is
the default: the first printed grid, the easiest, with five pieces.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from simulator.gridcourt.court import LEVELS, WIDTHS, Court, court
from simulator.jsonfile import shown

RULES_VERSION = 1
"""The revision of gridcourt-rulings.md this engine plays (1: the rulings as first written)."""

PIECES = (3, 4, 5)
TARGET = 21
"""§3: the first team to 21 points wins at once."""
MAX_TURNS = 2000
"""§3, a safety net only: at this turn the leader wins (a tie goes to the next basket)."""


class InvalidRulesError(ValueError):
    """Raise for rule options the engine cannot play; the message names the option."""


@dataclass(frozen=True, slots=True)
class GridRules:
    """Hold the options of one grid-court game.

    >>> GridRules(width=13, level=2).court.value[0]
    10
    """

    width: int = 14
    level: int = 0
    pieces: int = 5

    def __post_init__(self) -> None:
        for name, allowed in (("width", WIDTHS), ("level", LEVELS), ("pieces", PIECES)):
            value = getattr(self, name)
            if isinstance(value, bool) or value not in allowed:
                choices = ", ".join(str(a) for a in allowed)
                raise InvalidRulesError(f"{name} must be one of {choices}, got {shown(value)}")

    @property
    def court(self) -> Court:
        """Return the grid these options play on."""
        return court(self.width, self.level)

    @property
    def name(self) -> str:
        """Return the preset's name, or ``"custom"``."""
        for name, rules in PRESETS.items():
            if rules == self:
                return name
        return "custom"

    def to_json(self) -> dict[str, Any]:
        """Return every option by name and the rules ``version``."""
        return {"version": RULES_VERSION, **{f.name: getattr(self, f.name) for f in fields(self)}}

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> GridRules:
        """Return the rules a stored game was played with (the inverse of :meth:`to_json`).

        >>> GridRules.from_json(GridRules(level=1).to_json())
        GridRules(width=14, level=1, pieces=5)
        """
        values = dict(doc)
        version = values.pop("version", 1)
        if not isinstance(version, int) or version > RULES_VERSION:
            raise InvalidRulesError(
                f"rules version {version!r} is newer than this engine's ({RULES_VERSION})"
            )
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise InvalidRulesError(f"unknown rule option {unknown[0]!r}")
        return cls(**values)


STANDARD = GridRules()
PRESETS: dict[str, GridRules] = {
    "standard": STANDARD,
    "level1": GridRules(level=1),
    "level2": GridRules(level=2),
}
"""The three printed levels of the 14-column grid, five pieces a team."""
