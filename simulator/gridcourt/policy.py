"""The choices a grid-court team makes, and the default policy (gridcourt-rulings.md §4).

The engine asks a policy object four questions (§4.5): ``place(role, state)`` (the
cells of pieces 1..N after a reset), ``announce(state)`` (a piece to shoot, or ``None``),
``offense_steps(state, t)`` and ``defense_steps(state, d)`` (each a list of
``(piece, cell)`` steps, in order). It refuses with :class:`PolicyError` any answer the
rules forbid. :data:`DEFAULT_POLICY` plays the deterministic choices of §4.1-4.4; table
mode and smarter policies answer the same questions.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Protocol

from simulator.gridcourt.court import Cell, Court
from simulator.gridcourt.state import NO_EMPTY_BORDER, GridState

OFFENSE, DEFENSE = "offense", "defense"
SHOOT_AT = 36
"""§4.2: announce a shot worth 1 expected point or more (E >= 36)."""
LAST_ROLL = 2
"""§4.2: at this shot clock the roll is the offense's last legal one."""
SPOTS = {
    14: ((1, 1), (1, 14), (9, 6), (7, 4), (7, 11)),
    13: ((1, 1), (1, 13), (9, 6), (7, 4), (7, 10)),
}
"""§4.1: the offense's spots after a reset: the corners, the top and the wings (all base 8)."""

Steps = Sequence[tuple[int, Cell]]


class PolicyError(ValueError):
    """Raise when a policy answers what the rules forbid; the message names the question."""


class Policy(Protocol):
    """Answer the four questions of §4.5."""

    def place(self, role: str, state: GridState) -> Sequence[Cell]: ...

    def announce(self, state: GridState) -> int | None: ...

    def offense_steps(self, state: GridState, t: int) -> Steps: ...

    def defense_steps(self, state: GridState, d: int) -> Steps: ...


def _need(court: Court, cell: int, defense: Sequence[int], occupied: set[int]) -> int:
    borders = court.borders[cell]
    for b in borders:
        if b in defense:
            return 0
    best = -1
    for b in borders:
        if b not in occupied:
            row = court.chebyshev[b]
            for d in defense:
                if best < 0 or row[d] < best:
                    best = row[d]
    return NO_EMPTY_BORDER if best < 0 else best


def _path(court: Court, start: int, occupied: set[int], targets: Sequence[bool]) -> list[int]:
    """Return the cells of a shortest orthogonal path over empty cells from ``start`` to the
    first target found at the least distance (§4.3), or ``[]`` when none can be reached."""
    parent = {start: start}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for there in court.orthogonal[here]:
            if there in parent or there in occupied:
                continue
            parent[there] = here
            if targets[there]:
                path = [there]
                while parent[path[-1]] != start:
                    path.append(parent[path[-1]])
                return path[::-1]
            queue.append(there)
    return []


class DefaultPolicy:
    """Play the deterministic default policies of §4.1-4.4 (the rulings' own policy).

    :class:`simulator.gridcourt.style.StylePolicy` plays a coach's style through the same
    code: it weighs 3-point shots (:meth:`shot_values`), sends more crashers
    (:attr:`crashers`), asks for a shot by the shot clock (:meth:`announce`) and may trap
    a piece in the paint (:attr:`trap`). With the rulings' values it plays §4 exactly.
    """

    crashers = 1
    """§4.3(b): how many pieces, from piece N down, crash the paint."""
    trap = False
    """Whether the defense closes the exits of a piece that has spent a roll in the paint."""

    def shot_values(self, court: Court) -> tuple[int, ...]:
        """Return the E of §4 of every cell as this policy weighs it (the rulings: E itself)."""
        return court.shot_value

    def place(self, role: str, state: GridState) -> list[Cell]:
        """Return the offense's spots, or each defender on its man's first border (§4.1)."""
        court = state.court
        if role == OFFENSE:
            return list(SPOTS[court.width][: state.pieces])
        taken = set(state.pos[state.offense])
        cells: list[Cell] = []
        for man in state.pos[state.offense]:
            spot = next((b for b in court.borders[man] if court.inside[b] and b not in taken), None)
            if spot is None:
                row = court.chebyshev[man]
                # Ties: lower row, then lower column, which is cell-number order.
                spot = min(
                    (i for i in range(court.size) if court.inside[i] and i not in taken),
                    key=lambda i: row[i],
                )
            taken.add(spot)
            cells.append(court.cells[spot])
        return cells

    def announce(self, state: GridState) -> int | None:
        """Return the best open piece when it is worth a shot (§4.2), else ``None``."""
        court = state.court
        best: tuple[int, int, int] | None = None
        values = self.shot_values(court)
        for piece in state.open_pieces():
            cell = state.pos[state.offense][piece - 1]
            key = (-values[cell], court.value[cell], piece)
            if best is None or key < best:
                best = key
        if best is None:
            return None
        e = -best[0]
        if e >= SHOOT_AT or (state.clock == LAST_ROLL and e > 0):
            return best[2]
        return None

    def offense_steps(self, state: GridState, t: int) -> list[tuple[int, Cell]]:
        """Return the forced exits, the crasher's run and the greedy steps of §4.3."""
        court = state.court
        pos = list(state.pos[state.offense])
        defense = state.pos[state.defense]
        occupied = set(state.occupied)
        counts = state.paint_counts
        n = len(pos)
        steps: list[tuple[int, Cell]] = []
        left = t
        fixed: set[int] = set()

        def walk(piece: int, path: list[int]) -> None:
            nonlocal left
            for cell in path:
                occupied.discard(pos[piece - 1])
                occupied.add(cell)
                pos[piece - 1] = cell
                steps.append((piece, court.cells[cell]))
            left -= len(path)
            fixed.add(piece)

        # (a) Forced exit: a piece that has spent one roll in the paint leaves it.
        outside = [not p for p in court.paint]
        for piece in range(1, n + 1):
            if court.paint[pos[piece - 1]] and counts[piece - 1] == 1:
                path = _path(court, pos[piece - 1], occupied, outside)
                if path and len(path) <= left:
                    walk(piece, path)
        # (b) Crasher: piece N runs to the nearest empty paint cell, or holds there (a style
        # may send more crashers: pieces N, N-1, ...).
        for crasher in range(n, max(n - self.crashers, 0), -1):
            if crasher in fixed or counts[crasher - 1] != 0:
                continue
            if court.paint[pos[crasher - 1]]:
                fixed.add(crasher)
            else:
                path = _path(court, pos[crasher - 1], occupied, court.paint)
                if path and len(path) <= left:
                    walk(crasher, path)
        # (c) Greedy: one step at a time while a step raises (max E', sum E', -sum v).
        free = [p for p in range(1, n + 1) if p not in fixed]
        # Each cell's king distance to the nearest defender (the distances are symmetric:
        # the defenders' own rows, taken cell by cell).
        rows = [court.chebyshev[d] for d in defense]
        dmin = list(map(min, *rows)) if len(rows) > 1 else list(rows[0])
        shot_value, borders, value = self.shot_values(court), court.borders, court.value

        def score() -> tuple[int, int, int]:
            top = total = values = 0
            for cell in pos:
                values += value[cell]
                e = shot_value[cell]
                if not e:
                    continue
                need = -1
                for b in borders[cell]:
                    db = dmin[b]
                    if db == 0:
                        need = 0
                        break
                    if b not in occupied and (need < 0 or db < need):
                        need = db
                if need < 0:
                    need = NO_EMPTY_BORDER
                e2 = e * min(max(need - 1, 0), 6)
                total += e2
                if e2 > top:
                    top = e2
            return top, total, -values

        current = score()
        while left > 0 and free:
            best: tuple[tuple[int, int, int], int, int] | None = None
            for piece in free:
                here = pos[piece - 1]
                for there in court.orthogonal[here]:
                    if there in occupied:
                        continue
                    pos[piece - 1] = there
                    occupied.discard(here)
                    occupied.add(there)
                    trial = score()
                    occupied.discard(there)
                    occupied.add(here)
                    pos[piece - 1] = here
                    if best is None or trial > best[0]:
                        best = (trial, piece, there)
            if best is None or best[0] <= current:
                break
            current, piece, there = best
            occupied.discard(pos[piece - 1])
            occupied.add(there)
            pos[piece - 1] = there
            steps.append((piece, court.cells[there]))
            left -= 1
        return steps

    def defense_steps(self, state: GridState, d: int) -> list[tuple[int, Cell]]:
        """Return the greedy king steps of §4.4: cover the best open shots, then the rest."""
        court = state.court
        pos = list(state.pos[state.defense])
        offense = state.pos[state.offense]
        occupied = set(state.occupied)
        shot_value = self.shot_values(court)
        # A trap closes the exits of the pieces that must leave the paint on the next roll.
        trapped = (
            [
                cell
                for cell, count in zip(offense, state.paint_counts, strict=True)
                if count >= 1 and court.paint[cell]
            ]
            if self.trap
            else []
        )

        def score() -> tuple[int, ...]:
            top = total = needs = 0
            for cell in offense:
                need = _need(court, cell, pos, occupied)
                if need == 0:
                    continue
                e = shot_value[cell]
                total += e
                needs += need
                if e > top:
                    top = e
            if not trapped:
                return -top, -total, -needs
            # The trap: each way out (an empty edge neighbour) counts the king steps the
            # nearest defender still needs to fill it; 0 once every way out is filled.
            gap = 0
            for cell in trapped:
                for j in court.orthogonal[cell]:
                    if j not in occupied:
                        row = court.chebyshev[j]
                        gap += min(row[d] for d in pos)
            return -gap, -top, -total, -needs

        steps: list[tuple[int, Cell]] = []
        current = score()
        for _ in range(d):
            if not any(current):
                break  # nothing open and nothing to trap: no step can do better
            best: tuple[tuple[int, ...], int, int] | None = None
            for piece in range(1, len(pos) + 1):
                here = pos[piece - 1]
                for there in court.king[here]:
                    if there in occupied:
                        continue
                    pos[piece - 1] = there
                    occupied.discard(here)
                    occupied.add(there)
                    trial = score()
                    occupied.discard(there)
                    occupied.add(here)
                    pos[piece - 1] = here
                    if best is None or trial > best[0]:
                        best = (trial, piece, there)
            if best is None or best[0] <= current:
                break
            current, piece, there = best
            occupied.discard(pos[piece - 1])
            occupied.add(there)
            pos[piece - 1] = there
            steps.append((piece, court.cells[there]))
        return steps


DEFAULT_POLICY = DefaultPolicy()
