"""The state of a grid-court game (gridcourt-rulings.md §1.3) and the rule-7 tests on it.

The engine owns one :class:`GridState` and changes it; a policy reads it (and must not
change it). Pieces stand on cell numbers of the :class:`~simulator.gridcourt.court.Court`
(``court.index((row, column))``); :meth:`GridState.cell` turns them back into cells.
"""

from __future__ import annotations

from simulator.gridcourt.court import Cell, Court
from simulator.gridcourt.events import AWAY, HOME, other
from simulator.gridcourt.rules import GridRules

NO_EMPTY_BORDER = 7
"""§4: need(p) of an open piece whose defensible border cells are all taken."""


class InvalidStateError(ValueError):
    """Raise for a position the rules cannot hold; the message names what is wrong."""


class GridState:
    """Hold both scores, the offense, who rolls next, every piece, the shot clock and counts."""

    __slots__ = (
        "clock",
        "court",
        "occupied",
        "offense",
        "over",
        "paint_counts",
        "pieces",
        "pos",
        "roller",
        "rules",
        "score",
        "turns",
    )

    def __init__(self, rules: GridRules) -> None:
        self.rules = rules
        self.court: Court = rules.court
        self.pieces = rules.pieces
        self.offense = AWAY
        self.roller = AWAY
        self.pos: dict[str, list[int]] = {HOME: [], AWAY: []}
        """Cell numbers of pieces 1..N (index 0 is piece 1), per team; empty off the board."""
        self.occupied: set[int] = set()
        self.clock = 0
        """The offense's movement rolls this possession (0-3)."""
        self.paint_counts = [0] * rules.pieces
        """Each offense piece's paint count (index 0 is piece 1)."""
        self.score = {HOME: 0, AWAY: 0}
        self.turns = 0
        self.over = False

    @property
    def defense(self) -> str:
        """Return the team on defense."""
        return other(self.offense)

    def cell(self, team: str, piece: int) -> Cell:
        """Return the ``(row, column)`` of a team's piece (1..N)."""
        return self.court.cells[self.pos[team][piece - 1]]

    def cells(self, team: str) -> tuple[Cell, ...]:
        """Return the cells of a team's pieces 1..N."""
        return tuple(self.court.cells[i] for i in self.pos[team])

    def place(self, home: list[Cell], away: list[Cell]) -> None:
        """Put every piece on the board; raise :class:`InvalidStateError` on an overlap."""
        pos = {HOME: [self.court.index(c) for c in home], AWAY: [self.court.index(c) for c in away]}
        for team, cells in pos.items():
            if len(cells) != self.pieces:
                raise InvalidStateError(
                    f"{team} has {len(cells)} pieces, the rules say {self.pieces}"
                )
        every = pos[HOME] + pos[AWAY]
        if len(set(every)) != len(every):
            raise InvalidStateError("two pieces stand on one cell")
        self.pos = pos
        self.occupied = set(every)

    def is_defended(self, piece: int) -> bool:
        """Return whether an offense piece has a defender on a defensible border cell (§2.7)."""
        defense = self.pos[self.defense]
        return any(b in defense for b in self.court.borders[self.pos[self.offense][piece - 1]])

    def open_pieces(self) -> tuple[int, ...]:
        """Return the offense pieces that may announce a shot, in number order."""
        return tuple(p for p in range(1, self.pieces + 1) if not self.is_defended(p))

    def in_paint(self, team: str) -> tuple[int, ...]:
        """Return a team's pieces standing in the paint."""
        paint = self.court.paint
        return tuple(p for p, i in enumerate(self.pos[team], 1) if paint[i])

    def need(self, piece: int) -> int:
        """Return need(p) of §4: 0 if defended, else the nearest defender's king distance to an
        empty defensible border cell of p, or 7 if p has none empty."""
        court = self.court
        defense = self.pos[self.defense]
        borders = court.borders[self.pos[self.offense][piece - 1]]
        if any(b in defense for b in borders):
            return 0
        empty = [b for b in borders if b not in self.occupied]
        if not empty:
            return NO_EMPTY_BORDER
        return min(court.chebyshev[b][d] for b in empty for d in defense)

    def shot_value(self, piece: int) -> int:
        """Return E of §4 for an offense piece: m(v) x points, in 36ths of a point."""
        return self.court.shot_value[self.pos[self.offense][piece - 1]]

    def value(self, team: str, piece: int) -> int:
        """Return the value of the cell a piece stands on, at the game's level."""
        return self.court.value[self.pos[team][piece - 1]]
