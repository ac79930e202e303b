"""The grid court: its value grids, levels and inferred lines (gridcourt-rulings.md §1).

Cells are ``(row, column)``, 1-based; row 1 is the baseline, with the basket at its middle.
A :class:`Court` precomputes everything the engine and the policies read about a cell
(its value, arc, zone, paint, defensible borders, neighbours) as tables indexed by a cell
number ``i = (row - 1) * width + (column - 1)``, which keeps the policies' searches cheap.
"""

from __future__ import annotations

from functools import cache

Cell = tuple[int, int]

ROWS = 10
WIDTHS = (14, 13)
LEVELS = (0, 1, 2)

# §1.1: the first printed grid of each width (level 0); rows 1-10.
_BASE = {
    14: """
         8  8  7  6  5  4  3  3  4  5  6  7  8  8
         8  8  7  6  5  4  4  4  4  5  6  7  8  8
         8  8  7  6  5  5  5  5  5  5  6  7  8  8
         9  8  8  7  6  6  5  5  6  6  7  8  8  9
         9  8  8  7  6  6  6  6  6  6  7  8  8  9
        10  9  8  8  7  7  6  6  7  7  8  8  9 10
        11 10  9  8  7  7  7  7  7  7  8  9 10 11
        12 11 10  9  8  7  7  7  7  8  9 10 11 12
        12 12 11 10  9  8  7  7  8  9 10 11 12 12
        12 12 12 11 10  9  9  9  9 10 11 12 12 12
    """,
    13: """
         8  8  7  6  5  4  3  4  5  6  7  8  8
         8  8  7  6  5  4  4  4  5  6  7  8  8
         8  8  7  6  5  5  5  5  5  6  7  8  8
         9  8  8  7  6  6  5  6  6  7  8  8  9
         9  8  8  7  6  6  6  6  6  7  8  8  9
        10  9  8  8  7  7  6  7  7  8  8  9 10
        11 10  9  8  8  7  7  7  8  8  9 10 11
        12 11 10  9  8  7  7  7  8  9 10 11 12
        12 12 11 10  9  8  7  8  9 10 11 12 12
        12 12 12 11 10  9  9  9 10 11 12 12 12
    """,
}

ARC_MAX = 7
"""§1.2: a cell is inside the 3-point arc when its base value is at most 7."""

# §4: m(v), how many of the 36 two-dice rolls make a shot from v (a roll of 2 never does).
MAKES = {v: sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= v and a + b > 2)
         for v in range(0, 14)}  # fmt: skip

LEFT, MIDDLE, RIGHT = "left", "middle", "right"

UP, LEFT_STEP, RIGHT_STEP, DOWN = (-1, 0), (0, -1), (0, 1), (1, 0)
ORTHOGONAL = (UP, LEFT_STEP, RIGHT_STEP, DOWN)
"""§4.3: the offense's step directions, in tie-break order."""
KING = ((-1, 0), (-1, -1), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
"""§4.4: the defense's step directions, in tie-break order."""


def base_grid(width: int) -> tuple[tuple[int, ...], ...]:
    """Return the level-0 grid of a width, rows 1-10.

    >>> base_grid(14)[0][6], base_grid(13)[9][0]
    (3, 12)
    """
    return tuple(
        tuple(int(v) for v in line.split()) for line in _BASE[width].split("\n") if line.strip()
    )


def level_value(base: int, level: int) -> int:
    """Return a cell's value at a level: base + level up to base 11, and 12 stays 12 (§1.1).

    >>> level_value(7, 2), level_value(11, 2), level_value(12, 2)
    (9, 13, 12)
    """
    return base + level if base <= 11 else 12


class Court:
    """Hold every fact about the cells of one grid (a width at a level)."""

    def __init__(self, width: int, level: int) -> None:
        if width not in WIDTHS:
            raise ValueError(f"width must be 14 or 13, got {width!r}")
        if level not in LEVELS:
            raise ValueError(f"level must be 0, 1 or 2, got {level!r}")
        self.width = width
        self.level = level
        self.size = ROWS * width
        grid = base_grid(width)
        middle = range(6, 10) if width == 14 else range(6, 9)
        cells = [(r, c) for r in range(1, ROWS + 1) for c in range(1, width + 1)]
        self.cells: tuple[Cell, ...] = tuple(cells)
        self.base = tuple(grid[r - 1][c - 1] for r, c in cells)
        self.value = tuple(level_value(b, level) for b in self.base)
        self.inside = tuple(b <= ARC_MAX for b in self.base)
        self.points = tuple(2 if i else 3 for i in self.inside)
        self.zone = tuple(
            MIDDLE if c in middle else LEFT if c < middle.start else RIGHT for _, c in cells
        )
        # §1.2: restricted area = middle cells of rows 1-2; paint = middle cells of rows 1-5.
        self.restricted = tuple(
            z == MIDDLE and r <= 2 for (r, _), z in zip(cells, self.zone, strict=True)
        )
        self.paint = tuple(
            z == MIDDLE and r <= 5 for (r, _), z in zip(cells, self.zone, strict=True)
        )
        self.shot_value = tuple(MAKES[v] * p for v, p in zip(self.value, self.points, strict=True))
        """E = m(v) x points, in 36ths of a point (§4)."""
        self.borders = tuple(self._borders(i) for i in range(self.size))
        self.orthogonal = tuple(self._steps(i, ORTHOGONAL) for i in range(self.size))
        self.king = tuple(self._steps(i, KING) for i in range(self.size))
        self.chebyshev = tuple(
            tuple(max(abs(r1 - r2), abs(c1 - c2)) for r2, c2 in cells) for r1, c1 in cells
        )

    def index(self, cell: Cell) -> int:
        """Return the cell number of ``(row, column)``; raise ``ValueError`` off the board."""
        r, c = cell
        if not (1 <= r <= ROWS and 1 <= c <= self.width):
            raise ValueError(f"cell {cell!r} is off the {ROWS}x{self.width} board")
        return (r - 1) * self.width + (c - 1)

    def on_board(self, cell: Cell) -> bool:
        """Return whether ``(row, column)`` is on the board."""
        return 1 <= cell[0] <= ROWS and 1 <= cell[1] <= self.width

    def _at(self, r: int, c: int) -> int | None:
        return (r - 1) * self.width + (c - 1) if 1 <= r <= ROWS and 1 <= c <= self.width else None

    def _borders(self, i: int) -> tuple[int, ...]:
        # §2.7: the defensible border cells, edge neighbours only, in the placement order of
        # §4.1 (baseline, then inside; restricted area: baseline, left, right, top).
        r, c = self.cells[i]
        if self.restricted[i]:
            wanted = [(r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c)]
        elif self.zone[i] == MIDDLE:
            wanted = [(r - 1, c)]
        elif self.zone[i] == LEFT:
            wanted = [(r - 1, c), (r, c + 1)]
        else:
            wanted = [(r - 1, c), (r, c - 1)]
        return tuple(j for j in (self._at(*rc) for rc in wanted) if j is not None)

    def _steps(self, i: int, directions: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
        r, c = self.cells[i]
        return tuple(
            j for j in (self._at(r + dr, c + dc) for dr, dc in directions) if j is not None
        )


@cache
def court(width: int, level: int) -> Court:
    """Return the (shared, read-only) court of a width and level."""
    return Court(width, level)
