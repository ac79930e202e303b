"""Grid court played by hand: each side's choices (§4.5) made by the players at the table.

The engine asks each team's policy four questions (``simulator.gridcourt.policy``): where
to place its pieces after a reset, whether an open piece shoots, and how to spend an
offensive or defensive roll's steps. A side played by hand answers them from the choices
typed so far, one token each, in the order the engine asks; a side handed to the computer
answers with its coach style. When the typed choices run out the game stops with
:class:`ChoiceNeeded` naming the question; an answer the rules forbid is refused with
:class:`simulator.sheets.ChoiceRefused` naming the rule, before the engine sees it.

The tokens, as the table's page and API send them and a stored game keeps them:

- placing after a reset (§2.2): ``place:`` and the cells of pieces 1..N, ``place:1,1 1,14
  9,6 7,4 7,11`` (the offense outside the arc, the defense inside it);
- before an offensive roll (§2.5a, §2.7): ``shoot:P`` (open piece P shoots) or ``move``;
- a roll's steps (§2.6): ``steps:`` and each step as piece>cell, in order, ``steps:5>2,7
  5>3,7 1>1,2`` (at most the roll's total; none at all is ``steps:``).

    >>> from simulator.dice import ScriptedDice
    >>> from simulator.gridcourt.engine import Table
    >>> from simulator.gridcourt.policy import DEFAULT_POLICY
    >>> hands = Hands([], {"away"}, {"home": DEFAULT_POLICY, "away": DEFAULT_POLICY})
    >>> table = Table(ScriptedDice(d6=[3, 4]), home_policy=hands.policy("home"),
    ...               away_policy=hands.policy("away"))
    >>> table.start()
    Traceback (most recent call last):
    ...
    simulator.hands.ChoiceNeeded: away must choose (place)
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from simulator.gridcourt.court import Court
from simulator.gridcourt.events import AWAY, DEFENSE, HOME, OFFENSE, Cell
from simulator.gridcourt.policy import Policy
from simulator.gridcourt.state import GridState
from simulator.hands import ChoiceNeeded, Question, TokenStream

__all__ = ["ChoiceNeeded", "Hands", "Question"]
SIDES = (HOME, AWAY)
MOVE, SHOOT, PLACE, STEPS = "move", "shoot:", "place:", "steps:"
RULES = {
    "place": "§2.2: after a reset the offense places all its pieces outside the arc, then "
    "the defense all its pieces inside it, each on an empty cell",
    "announce": "§2.5(a) and §2.7: before any die is read the offense may announce a shot "
    "by one open piece (no defender on a defensible border cell)",
    "steps": "§2.6: up to the roll's total of steps, each to an adjacent, empty, on-board "
    "cell (offense orthogonally, defense in any of 8 directions)",
}


def _cell_text(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


def _read_cell(text: str) -> Cell | None:
    row, _, col = text.partition(",")
    if not (row.isdigit() and col.isdigit()):
        return None
    return int(row), int(col)


class Hands(TokenStream):
    """The choices typed at the table, answered for the sides played by hand (``hands``);
    the other sides' questions go to their ``computer`` policies (their coach styles)."""

    def __init__(
        self, choices: Sequence[object], hands: Collection[str], computer: Mapping[str, Policy]
    ) -> None:
        super().__init__(choices, hands)
        self.computer = dict(computer)
        self.announced: int | None = None
        """The last shot announced by a side played by hand (``None``: it moves)."""

    def policy(self, side: str) -> Policy:
        """Return the policy the engine asks for ``side``."""
        return _Hand(self, side) if side in self.hands else self.computer[side]


class _Hand:
    """The policy of a side played by hand: every question is a :class:`Question`."""

    def __init__(self, hands: Hands, side: str) -> None:
        self.hands = hands
        self.side = side

    def _who(self) -> str:
        """Grid court's own names for the sides (rulings §1.3: team 1 is the visitor)."""
        return "Team 2 (home)" if self.side == HOME else "Team 1 (visitors)"

    def place(self, role: str, state: GridState) -> list[Cell]:
        court = state.court
        inside = role == DEFENSE
        allowed = [
            court.cells[i]
            for i in range(court.size)
            if court.inside[i] == inside and i not in state.occupied
        ]
        where = "inside" if inside else "outside"
        question = Question(
            self.side,
            "place",
            f"{self._who()} on {role}: place pieces 1-{state.pieces} {where} the arc.",
            RULES["place"],
            board={
                "role": role,
                "pieces": state.pieces,
                "cells": [list(c) for c in allowed],
            },
        )
        token = self.hands.token(question)
        if not token.startswith(PLACE):
            raise self.hands.refuse(token, question, f"answer place: and {state.pieces} cells")
        cells = [_read_cell(part) for part in token[len(PLACE) :].split()]
        if len(cells) != state.pieces or any(c is None for c in cells):
            raise self.hands.refuse(
                token, question, f"name {state.pieces} cells as row,column, one a piece"
            )
        free = set(map(tuple, allowed))
        seen: set[Cell] = set()
        for piece, cell in enumerate(cells, 1):
            assert cell is not None
            if not court.on_board(cell):
                raise self.hands.refuse(token, question, f"piece {piece}: {cell} is off the board")
            if cell in seen or cell not in free:
                taken = cell in seen or court.index(cell) in state.occupied
                why = "is taken" if taken else f"is not {where} the arc"
                raise self.hands.refuse(token, question, f"piece {piece}: {cell} {why}")
            seen.add(cell)
        self.hands.take()
        return [c for c in cells if c is not None]

    def announce(self, state: GridState) -> int | None:
        court = state.court
        if not state.open_pieces():  # no piece may shoot: the roll is to move, not asked
            self.hands.announced = None
            return None
        options = [(MOVE, "No shot: roll to move")]
        for piece in state.open_pieces():
            i = state.pos[state.offense][piece - 1]
            options.append(
                (
                    f"{SHOOT}{piece}",
                    f"Piece {piece} at {court.cells[i]} shoots a {court.points[i]}: "
                    f"made on {court.value[i]} or more",
                )
            )
        question = Question(
            self.side,
            "announce",
            f"{self._who()} on offense (shot clock: movement roll {state.clock + 1} of 3): "
            "announce a shot by an open piece, or roll to move?",
            RULES["announce"],
            tuple(options),
            {"role": OFFENSE},
        )
        token = self.hands.token(question)
        if token not in {t for t, _ in options}:
            if token.startswith(SHOOT):
                why = (
                    f"piece {token[len(SHOOT) :]} is not an open piece (open: "
                    + (", ".join(str(p) for p in state.open_pieces()) or "none")
                    + ")"
                )
            else:
                why = "answer move or shoot:P"
            raise self.hands.refuse(token, question, why)
        self.hands.take()
        shooter = None if token == MOVE else int(token[len(SHOOT) :])
        self.hands.announced = shooter
        return shooter

    def offense_steps(self, state: GridState, t: int) -> list[tuple[int, Cell]]:
        return self._steps(state, OFFENSE, t)

    def defense_steps(self, state: GridState, d: int) -> list[tuple[int, Cell]]:
        return self._steps(state, DEFENSE, d)

    def _steps(self, state: GridState, role: str, allowed: int) -> list[tuple[int, Cell]]:
        team = state.offense if role == OFFENSE else state.defense
        how = "orthogonally" if role == OFFENSE else "in any of 8 directions"
        warning = ""
        if role == OFFENSE:  # §2.11: a second movement in a row ending in the paint
            counted = [p for p, c in enumerate(state.paint_counts, 1) if c >= 1]
            if counted:
                names = " and ".join(f"piece {p}" for p in counted)
                warning = (
                    f" Three seconds: {names} ended the last movement in the paint; ending "
                    "this one there too is a paint violation (the ball goes over)."
                )
        question = Question(
            self.side,
            "steps",
            f"{self._who()} on {role}: move up to {allowed} step{'s' if allowed != 1 else ''} "
            f"({how}), shared among your pieces as you like.{warning}",
            RULES["steps"],
            board={
                "role": role,
                "allowed": allowed,
                "team": team,
                "king": role == DEFENSE,
                "pieces": {side: [list(c) for c in state.cells(side)] for side in SIDES},
                "moves": _first_steps(state, team, role),
            },
        )
        token = self.hands.token(question)
        if not token.startswith(STEPS):
            raise self.hands.refuse(token, question, "answer steps: and piece>row,column steps")
        parts = token[len(STEPS) :].split()
        if len(parts) > allowed:
            raise self.hands.refuse(
                token, question, f"{len(parts)} steps, the roll allows {allowed}"
            )
        return self._checked(token, question, state, team, role, parts)

    def _checked(
        self,
        token: str,
        question: Question,
        state: GridState,
        team: str,
        role: str,
        parts: list[str],
    ) -> list[tuple[int, Cell]]:
        court: Court = state.court
        pos = list(state.pos[team])
        occupied = set(state.occupied)
        steps: list[tuple[int, Cell]] = []
        for n, part in enumerate(parts, 1):
            piece_text, _, cell_text = part.partition(">")
            cell = _read_cell(cell_text)
            if not piece_text.isdigit() or cell is None:
                raise self.hands.refuse(token, question, f"step {n}: write piece>row,column")
            piece = int(piece_text)
            if not 1 <= piece <= state.pieces:
                raise self.hands.refuse(token, question, f"step {n}: there is no piece {piece}")
            if not court.on_board(cell):
                raise self.hands.refuse(token, question, f"step {n}: {cell} is off the board")
            here, there = pos[piece - 1], court.index(cell)
            neighbours = court.king[here] if role == DEFENSE else court.orthogonal[here]
            if there == here:
                raise self.hands.refuse(
                    token,
                    question,
                    f"step {n}: piece {piece} is already on {cell}: a step goes to a "
                    "neighbouring cell",
                )
            if there not in neighbours:
                diagonal = there in court.king[here]  # a neighbour, but only diagonally
                why = (
                    "offense pieces step orthogonally, not diagonally"
                    if diagonal
                    else f"{cell} is not next to {court.cells[here]}: a step goes to a "
                    "neighbouring cell"
                )
                raise self.hands.refuse(
                    token,
                    question,
                    f"step {n}: piece {piece} cannot step from {court.cells[here]} to {cell}: "
                    + why,
                )
            if there in occupied:
                raise self.hands.refuse(token, question, f"step {n}: {cell} is taken")
            occupied.discard(here)
            occupied.add(there)
            pos[piece - 1] = there
            steps.append((piece, cell))
        self.hands.take()
        return steps


def _first_steps(state: GridState, team: str, role: str) -> dict[str, list[list[int]]]:
    """Return the cells each of ``team``'s pieces can step to first (adjacent, empty, on the
    board: orthogonally for the offense, in any of 8 directions for the defense; §2.6)."""
    court = state.court
    moves = {}
    for piece, here in enumerate(state.pos[team], 1):
        near = court.king[here] if role == DEFENSE else court.orthogonal[here]
        moves[str(piece)] = [list(court.cells[i]) for i in near if i not in state.occupied]
    return moves


def step_token(steps: Sequence[tuple[int, Cell]]) -> str:
    """Return the token of a roll's steps (``steps:5>2,7 1>1,2``)."""
    return STEPS + " ".join(f"{piece}>{_cell_text(cell)}" for piece, cell in steps)


def place_token(cells: Sequence[Cell]) -> str:
    """Return the token of a placing (``place:1,1 1,14 ...``)."""
    return PLACE + " ".join(_cell_text(cell) for cell in cells)


def announce_token(piece: int | None) -> str:
    """Return the token of an announcement (``move`` or ``shoot:P``)."""
    return MOVE if piece is None else f"{SHOOT}{piece}"
