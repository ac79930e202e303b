"""A stored grid-court game turn by turn: the frames its replay page draws.

:func:`frames_of` follows the pieces from a stored game's events (their ``to_json()``
form), one frame per roll of the dice; :func:`replay_frames` (the game interface's
``Game.replay_frames``) wraps them with the board the game was played on (its width and
level: each cell's value, the paint, the inside of the arc). Pure Python: the league's
replay page only lays them out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from simulator.games import Game

AWAY, HOME = "away", "home"

LEGEND = (
    "Cells are read (row, column). A shot is made when the two dice total at least the "
    "value printed in the shooter's cell: 2 points inside the arc, 3 outside. \u201cWith "
    "1 in the paint\u201d counts the offense's pieces in the paint, which turn a near "
    "miss into an offensive rebound. The shot clock counts a possession's offensive rolls."
)
"""What a fan needs to read the game's play-by-play (its page's legend)."""

CELL = 34
"""The side of a drawn grid-court cell, in SVG units."""
BOARD_TOP = 30


@dataclass
class Piece:
    """A piece on the drawn board: its team, number and cell, and its centre."""

    team: str
    number: int
    row: int
    column: int

    @property
    def x(self) -> int:
        return (self.column - 1) * CELL + CELL // 2

    @property
    def y(self) -> int:
        return BOARD_TOP + (self.row - 1) * CELL + CELL // 2


@dataclass
class GridFrame:
    """The board after one roll of a grid-court game, and what the roll did.

    ``pieces`` are every piece where it stands after the turn's steps; ``paths`` the steps
    each moved piece took this turn (as SVG points); ``shooter`` the piece that shot.
    """

    number: int
    team: str
    role: str
    dice: list[int]
    clock: int
    offense: str
    pieces: list[Piece]
    paths: list[dict[str, Any]]
    away_score: int
    home_score: int
    shooter: tuple[str, int] | None = None
    notes: list[str] = field(default_factory=list)


def _cell(cell: Any) -> str:
    """A cell as the table page writes it: ``(row, column)``."""
    return f"({int(cell[0])}, {int(cell[1])})"


def _centre(cell: Any) -> str:
    row, column = int(cell[0]), int(cell[1])
    return f"{(column - 1) * CELL + CELL // 2},{BOARD_TOP + (row - 1) * CELL + CELL // 2}"


def frames_of(events: list[dict[str, Any]], names: dict[str, str]) -> list[GridFrame]:
    """Return the replay of a stored grid-court game: one frame per roll of the dice.

    The pieces are followed from the events alone: a reset places every piece, a step
    moves one; an announced shot, a reset or anything else before a roll is told in the
    turn of that roll. The notes say where each piece was placed ("Duke 1992 (offense)
    placed piece 1 (1, 8), piece 2 (1, 3), ...") and every step, as the table page does
    ("Duke 1992: piece 1 (1, 8) to (2, 7)."; a piece stepping on: "... to (2, 7) to (3, 7).").
    """
    cells: dict[str, list[list[int]]] = {AWAY: [], HOME: []}
    offense = AWAY
    score = {AWAY: 0, HOME: 0}
    frames: list[GridFrame] = []
    pending: list[str] = []
    stepping: tuple[Any, ...] = ()  # the last step's turn, piece, line and cell

    def pieces() -> list[Piece]:
        return [
            Piece(side, n, int(cell[0]), int(cell[1]))
            for side in (AWAY, HOME)
            for n, cell in enumerate(cells[side], start=1)
        ]

    for e in events:
        kind = e.get("type")
        team = str(e.get("team", ""))
        who = names.get(team, "")
        text = ""
        if kind == "reset":
            offense = e["offense"]
            cells = {AWAY: [list(c) for c in e["away"]], HOME: [list(c) for c in e["home"]]}
            pending.append(f"The pieces are set: {names[offense]} has the ball.")
            defense = HOME if offense == AWAY else AWAY
            for side, role in ((offense, "offense"), (defense, "defense")):
                placed = ", ".join(
                    f"piece {n} {_cell(cell)}" for n, cell in enumerate(cells[side], start=1)
                )
                if placed:
                    pending.append(f"{names[side]} ({role}) placed {placed}.")
            continue
        if kind == "announce":
            pending.append(f"{who} announces a shot by piece {e['piece']} from {tuple(e['cell'])}.")
            continue
        if kind == "roll":
            dice = " ".join(str(d) for d in e["dice"])
            rolled = f"{who} rolls {dice} on {e['role']} (shot clock {e['clock']})."
            frame = GridFrame(
                number=len(frames) + 1,
                team=team,
                role=e["role"],
                dice=list(e["dice"]),
                clock=e["clock"],
                offense=offense,
                pieces=pieces(),
                paths=[],
                away_score=score[AWAY],
                home_score=score[HOME],
                notes=[*pending, rolled],
            )
            frames.append(frame)
            pending = []
            continue
        elif not frames:
            continue
        frame = frames[-1]
        if kind == "step":
            cells[team][e["piece"] - 1] = list(e["to"])
            here = (frame.number, team, e["piece"], len(frame.notes), list(e["from"]))
            if stepping == here:
                # The same piece stepping on: one line, every cell it stepped through.
                frame.notes[-1] = f"{frame.notes[-1][:-1]} to {_cell(e['to'])}."
            else:
                frame.notes.append(
                    f"{who}: piece {e['piece']} {_cell(e['from'])} to {_cell(e['to'])}."
                )
            stepping = (frame.number, team, e["piece"], len(frame.notes), list(e["to"]))
            path = next(
                (p for p in frame.paths if (p["team"], p["piece"]) == (team, e["piece"])), None
            )
            if path is None:
                path = {"team": team, "piece": e["piece"], "points": [_centre(e["from"])]}
                frame.paths.append(path)
            path["points"].append(_centre(e["to"]))
        elif kind == "shot":
            frame.shooter = (team, e["piece"])
            paint = f" with {e['k']} in the paint" if e["k"] else ""
            text = (
                f"{who} piece {e['piece']} shoots a {e['points']} from {tuple(e['cell'])}: needs "
                f"{e['v']}, rolled {e['t']}{paint}: {'made' if e['made'] else 'missed'}."
            )
        elif kind == "rebound":
            text = (
                f"{'Offensive' if e['offensive'] else 'Defensive'} rebound: {who} piece "
                f"{e['piece']}."
            )
        elif kind == "steal":
            text = f"Steal by {who}" + (f" piece {e['piece']}." if e["piece"] else " (team).")
        elif kind == "violation":
            what = "paint" if e["kind"] == "paint" else "shot-clock"
            text = f"{who}: {what} violation."
        elif kind == "score":
            score = {AWAY: e["away"], HOME: e["home"]}
            text = f"Score: {names[AWAY]} {e['away']}, {names[HOME]} {e['home']}."
        elif kind == "end":
            won, lost = sorted((e["away"], e["home"]), reverse=True)  # the winner's first
            text = f"{names[e['winner']]} wins {won}-{lost} after {e['turns']} turns."
        if text:
            frame.notes.append(text)
        frame.pieces = pieces()
        frame.offense = offense
        frame.away_score, frame.home_score = score[AWAY], score[HOME]
    return frames


@dataclass
class Frames:
    """A grid-court game's frames, one per roll, with the board they are drawn on."""

    frames: list[GridFrame]
    board: list[dict[str, Any]]
    width: int
    rows: int

    @property
    def svg_width(self) -> int:
        return self.width * CELL

    @property
    def svg_height(self) -> int:
        return BOARD_TOP + self.rows * CELL

    @property
    def basket_x(self) -> int:
        return self.svg_width // 2


def replay_frames(
    game: Game,
    events: Sequence[Mapping[str, Any]],
    rules: Mapping[str, Any],
    names: Mapping[str, str],
) -> Frames:
    """Return the replay of a stored grid-court game (``names``: each side's name) on the
    grid it was played on, as the game interface's ``board`` gives it."""
    grid = game.board(game.rules_from_json(rules))
    if grid is None:
        raise ValueError(f"{game.title} has no board to replay on")
    board = [
        {
            "x": (cell.column - 1) * CELL,
            "y": BOARD_TOP + (cell.row - 1) * CELL,
            "value": cell.value,
            "paint": cell.paint,
            "inside": cell.inside,
        }
        for cell in grid.cells
    ]
    return Frames(frames_of([dict(e) for e in events], dict(names)), board, grid.width, grid.rows)
