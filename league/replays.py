"""How a stored game of grid court or six dice reads: its box score and its replay.

VABG's box score is ``league.presentation``'s (player lines in ``BoxLine`` rows); the other
games keep their own box score whole in ``GameResult.box``, as their engine rebuilt it
from the events, and their box-score columns come from the game interface
(``simulator.games``: ``columns`` for a player's or a piece's line, ``team_columns`` for
the team's figures). A six-dice game replays turn by turn: :func:`sixdice_frames` walks
its stored events and says, after each roll, where the pawn stands, who has the ball and
the Power Chip, the score, and each team's dice as rolled.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from league.models import Game, GameResult
from simulator.games import Column, find_game

AWAY, HOME = "away", "home"
SECTIONS = 14
HALF = 7
ARC = 4


def _other(side: str) -> str:
    return HOME if side == AWAY else AWAY


# -- the box score ---------------------------------------------------------------------------


@dataclass
class TeamBox:
    """One team's half of another game's box score, read from ``GameResult.box``."""

    key: str
    label: str
    score: int
    lines: list[dict[str, Any]]
    """A piece's or a player's line (grid court's pieces); empty for six dice."""
    totals: dict[str, Any]
    figures: dict[str, Any]
    """The team columns' values, by key."""
    team_id: int = 0
    won: bool = False


@dataclass
class GameBox:
    """Another game's box score: the columns its engine names and both teams, away first."""

    game: str
    title: str
    columns: tuple[Column, ...]
    team_columns: tuple[Column, ...]
    name_label: str
    sides: list[TeamBox]
    rules: dict[str, Any]
    dice: str
    legend: str = ""
    options: list[dict[str, str]] = field(default_factory=list)
    """The rule options played, each as ``{"label", "value", "help"}`` a fan can read."""

    @property
    def figure_rows(self) -> list[tuple[Column, list[Any]]]:
        """Return each team column with its value for the away then the home team."""
        return [
            (c, [side.figures.get(c.key, "") for side in self.sides]) for c in self.team_columns
        ]


def game_box(game: Game, result: GameResult) -> GameBox:
    """Return the box score of a final game other than VABG, in its game's own columns."""
    engine = find_game(game.game)
    sides = []
    for key, team, score in (
        (AWAY, game.away, result.away_score),
        (HOME, game.home, result.home_score),
    ):
        doc: dict[str, Any] = dict(result.box.get(key, {}))
        lines = [dict(line) for line in doc.get(engine.lines_key, [])] if engine.columns else []
        for line in lines:
            line["name"] = line.get(engine.name_key, "")
            line["cells"] = [line.get(c.key, "") for c in engine.columns]
        figures = {c.key: doc[c.key] for c in engine.team_columns if c.key in doc}
        totals = dict(doc.get("totals", {}))
        totals["cells"] = [totals.get(c.key, "") for c in engine.columns]
        other = result.home_score if key == AWAY else result.away_score
        sides.append(TeamBox(key, str(team), score, lines, totals, figures, team.pk, score > other))
    dice = result.dice
    return GameBox(
        game=engine.name,
        title=engine.title,
        columns=engine.columns,
        team_columns=engine.team_columns,
        name_label=engine.name_key.capitalize(),
        sides=sides,
        rules={k: v for k, v in result.rules.items() if k != "version"},
        dice=f"seed {dice['seed']}" if dice.get("seed") is not None else "scripted rolls",
        legend=LEGENDS.get(engine.name, ""),
        options=[
            {
                "label": option.name.replace("_", " "),
                "value": _option_text(result.rules.get(option.name, option.default)),
                "help": option.help,
            }
            for option in engine.options
        ],
    )


def _option_text(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


LEGENDS = {
    "sixdice": (
        "Dice faces: B Ball, P Pass, S Shot or Steal, F Free throw. A roll is read by its "
        "most frequent face: \u201cB x3\u201d is a play of Ball with three dice showing it "
        "(the higher count wins the roll; a tie goes to the Power Chip's holder if it plays "
        "the chip). The court has 14 sections; a team attacks its opponent's basket from its "
        "own half, and reaching past the last section is a dunk."
    ),
    "gridcourt": (
        "Cells are read (row, column). A shot is made when the two dice total at least the "
        "value printed in the shooter's cell: 2 points inside the arc, 3 outside. \u201cWith "
        "1 in the paint\u201d counts the offense's pieces in the paint, which turn a near "
        "miss into an offensive rebound. The shot clock counts a possession's offensive rolls."
    ),
}
"""What a fan needs to read another game's play-by-play, by game."""


# -- the six-dice replay ---------------------------------------------------------------------


@dataclass
class Die:
    """One die as rolled: its value (1-6) and the symbol the rules' faces give it."""

    value: int
    face: str


@dataclass
class Frame:
    """The table after one roll of a six-dice game, and what the roll did.

    ``section`` is the pawn's section (1-14, ``None`` before the jump ball is won),
    ``offense`` the team with the ball, ``chip`` the Power Chip's holder; ``dice`` holds
    each team's dice of the roll (a free throw: the shooter's only).
    """

    number: int
    kind: str
    section: int | None
    offense: str | None
    chip: str | None
    away_score: int
    home_score: int
    dice: dict[str, list[Die]]
    notes: list[str] = field(default_factory=list)

    @property
    def pawn_x(self) -> float:
        """Return the pawn's centre on the drawn court strip (see ``court_x``)."""
        return court_x(self.section or HALF) + SECTION_WIDTH / 2

    @property
    def chip_x(self) -> float:
        """Return where the chip is drawn: in the holder's half, by its own basket."""
        return court_x(2) if self.chip == AWAY else court_x(SECTIONS - 1)


SECTION_WIDTH = 46
COURT_LEFT = 40


def court_x(section: int) -> float:
    """Return the left edge of a section on the drawn court strip."""
    return COURT_LEFT + (section - 1) * SECTION_WIDTH


KINDS = {
    "jump_ball": "jump ball",
    "main_roll": "main roll",
    "shot": "shot",
    "free_throw": "free throw",
    "inbound_round": "inbound race",
}
"""The events that roll dice: each starts a turn of the replay."""


def sixdice_frames(
    events: list[dict[str, Any]], rules: dict[str, Any], names: dict[str, str]
) -> list[Frame]:
    """Return the replay of a stored six-dice game: one frame per roll, in order.

    ``names`` gives each side's name (``{"away": ..., "home": ...}``). The state is
    followed from the events alone: the jump ball puts the ball with its winner and the
    chip with the defense; a tie won by playing the chip, or a chip reroll, hands the
    chip to the other team; the events that move the pawn say its section.
    """
    faces = str(rules.get("faces", "BBBPSF"))

    def dice(values: Any) -> list[Die]:
        return [Die(int(v), faces[int(v) - 1]) for v in values or ()]

    def show(values: Any) -> str:
        return "".join(faces[int(v) - 1] for v in values or ())

    frames: list[Frame] = []
    section: int | None = None
    offense: str | None = None
    chip: str | None = None
    score = {AWAY: 0, HOME: 0}
    pending: list[str] = []
    for e in events:
        kind = e.get("type")
        team = e.get("team")
        who = names.get(team or "", "")
        if kind in KINDS:
            rolled = {side: dice(e[side]) for side in (AWAY, HOME) if side in e}
            if kind == "free_throw":
                rolled = {str(team): dice(e["dice"])}
            frame = Frame(
                len(frames) + 1, KINDS[kind], section, offense, chip, 0, 0, rolled, pending
            )
            pending = []
            frames.append(frame)
        elif not frames:
            continue  # the start: nothing is rolled before the jump ball
        current = frames[-1] if frames and kind != "chip_reroll" else None
        text = ""
        if kind == "jump_ball":
            if e["winner"] is None:
                text = f"Jump ball: {e['away_balls']} Balls each, rolled again."
            else:
                offense, section, chip = e["winner"], e["section"], _other(e["winner"])
                text = (
                    f"Jump ball: {names[AWAY]} {e['away_balls']} Balls, {names[HOME]} "
                    f"{e['home_balls']}; {names[e['winner']]} takes the ball, "
                    f"{names[chip]} the chip."
                )
        elif kind == "main_roll":
            offense = e["offense"]
            text = (
                f"Roll {e['number']}: {names[AWAY]} {show(e['away'])} ({e['away_play']} x"
                f"{e['away_n']}), {names[HOME]} {show(e['home'])} ({e['home_play']} x"
                f"{e['home_n']}): {names[e['winner']]} wins"
                + (" by playing the chip." if e["chip"] else ".")
            )
            if e["chip"]:
                chip = _other(e["winner"])
        elif kind == "chip_reroll":
            chip = _other(str(team))
            pending.append(_reroll_text(e, who, show))
        elif kind == "advance":
            section = e["section"]
            text = f"{who} advances {e['sections']} to section {section}."
        elif kind == "push":
            section = e["section"]
            text = f"{who} pushes back {e['sections']} to section {section}."
        elif kind == "pass":
            penalized = e.get("penalized")  # G10: no one after a Deflected Pass (version 2)
            text = f"{who}: {e['kind']} pass" + (
                f"; {names[penalized]} rolls one die fewer next." if penalized else "."
            )
        elif kind == "steal":
            offense, section = team, e["section"]
            how = {"s": "on an S", "push": "pushing past half court", "inbound": "in the inbound"}
            text = f"Steal by {who} {how.get(e['kind'], e['kind'])}, section {section}."
        elif kind == "shot":
            section = e["section"]
            won = team if e["made"] else _other(str(team))
            if e["chip"]:
                chip = _other(str(won))
            text = (
                f"{who} shoots a {e['points']} from depth {e['depth']}: {e['total']} v "
                f"{e['defense_total']}, {'made' if e['made'] else 'missed'}"
                + (" (the chip decided it)." if e["chip"] else ".")
            )
        elif kind == "free_throw":
            text = (
                f"Free throw {e['number']} by {who}: {show(e['dice'])}, {e['balls']} Balls, "
                f"{'made' if e['made'] else 'missed'}."
            )
        elif kind == "dunk":
            text = f"{who}: {'slam dunk' if e['kind'] == 'slam' else 'dunk'}!"
        elif kind == "inbound_round":
            offense, section = team, e["section"]
            end = {"crossed": ", across half court", "steal": ", stolen"}.get(e["result"], "")
            text = (
                f"{who} inbounds, round {e['round']}: {e['balls']} Balls, {e['moved']} in all, "
                f"{e['set_aside']} S set aside{end}."
            )
        elif kind == "score":
            score = {AWAY: e["away"], HOME: e["home"]}
            text = (
                f"{who} scores {e['points']}: {names[AWAY]} {e['away']}, {names[HOME]} {e['home']}."
            )
        elif kind == "end":
            text = f"{names[e['winner']]} reaches 21 and wins {e['away']}-{e['home']}."
        if current is not None:
            current.section, current.offense, current.chip = section, offense, chip
            current.away_score, current.home_score = score[AWAY], score[HOME]
            if text:
                current.notes.append(text)
    return frames


def _reroll_text(e: dict[str, Any], who: str, show: Any) -> str:
    dice = ", ".join(str(d) for d in e["dice"])
    return (
        f"{who} hands the chip over to reroll dice {dice}: {show(e['before'])} becomes "
        f"{show(e['after'])}."
    )


@dataclass
class Replay:
    """A six-dice game's replay at one turn: the frame shown and where the others are."""

    game: Game
    frames: list[Frame]
    turn: int
    names: dict[str, str]

    @property
    def frame(self) -> Frame:
        return self.frames[self.turn - 1]

    @property
    def previous(self) -> int | None:
        return self.turn - 1 if self.turn > 1 else None

    @property
    def next(self) -> int | None:
        return self.turn + 1 if self.turn < len(self.frames) else None

    @property
    def sections(self) -> list[dict[str, Any]]:
        """Return the court's sections to draw: number, left edge, and which half."""
        return [
            {"number": n, "x": court_x(n), "half": AWAY if n <= HALF else HOME}
            for n in range(1, SECTIONS + 1)
        ]

    @property
    def geometry(self) -> dict[str, float]:
        """Return the court strip's lines: half court and both arcs (§1.2)."""
        return {
            "width": court_x(SECTIONS + 1) + COURT_LEFT,
            "right": court_x(SECTIONS + 1),
            "half": court_x(HALF + 1),
            # Orange attacks toward 14: its arc begins at depth 4, section 11; White's at 4.
            "arc_away": court_x(HALF + ARC),
            "arc_home": court_x(HALF + 1 - ARC + 1),
            "section": SECTION_WIDTH,
        }


def sixdice_replay(game: Game, result: GameResult, turn: int) -> Replay:
    """Return the replay of a stored six-dice game at ``turn`` (clamped to the turns)."""
    names = {AWAY: str(game.away), HOME: str(game.home)}
    frames = sixdice_frames(list(result.events), dict(result.rules), names)
    turn = max(1, min(turn, len(frames))) if frames else 0
    return Replay(game, frames, turn, names)


def play_by_play(game: Game, result: GameResult) -> list[tuple[int, str]]:
    """Return another game's play-by-play as ``(turn, text)`` lines (turn 0: no replay)."""
    names = {AWAY: str(game.away), HOME: str(game.home)}
    if game.game == "sixdice":
        frames = sixdice_frames(list(result.events), dict(result.rules), names)
        return [(f.number, note) for f in frames for note in f.notes]
    # Grid court: the replay's own sentences, each under the roll it belongs to.
    grid = gridcourt_frames(list(result.events), names)
    return [(f.number, note) for f in grid for note in f.notes]


# -- the grid-court replay -------------------------------------------------------------------

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


def _centre(cell: Any) -> str:
    row, column = int(cell[0]), int(cell[1])
    return f"{(column - 1) * CELL + CELL // 2},{BOARD_TOP + (row - 1) * CELL + CELL // 2}"


def gridcourt_frames(events: list[dict[str, Any]], names: dict[str, str]) -> list[GridFrame]:
    """Return the replay of a stored grid-court game: one frame per roll of the dice.

    The pieces are followed from the events alone: a reset places every piece, a step
    moves one; an announced shot, a reset or anything else before a roll is told in the
    turn of that roll.
    """
    cells: dict[str, list[list[int]]] = {AWAY: [], HOME: []}
    offense = AWAY
    score = {AWAY: 0, HOME: 0}
    frames: list[GridFrame] = []
    pending: list[str] = []

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
            text = f"{names[e['winner']]} wins {e['away']}-{e['home']} after {e['turns']} turns."
        if text:
            frame.notes.append(text)
        frame.pieces = pieces()
        frame.offense = offense
        frame.away_score, frame.home_score = score[AWAY], score[HOME]
    return frames


@dataclass
class GridReplay:
    """A grid-court game's replay at one turn, with the board it is drawn on."""

    game: Game
    frames: list[GridFrame]
    turn: int
    names: dict[str, str]
    board: list[dict[str, Any]]
    width: int
    rows: int

    @property
    def frame(self) -> GridFrame:
        return self.frames[self.turn - 1]

    @property
    def previous(self) -> int | None:
        return self.turn - 1 if self.turn > 1 else None

    @property
    def next(self) -> int | None:
        return self.turn + 1 if self.turn < len(self.frames) else None

    @property
    def svg_width(self) -> int:
        return self.width * CELL

    @property
    def svg_height(self) -> int:
        return BOARD_TOP + self.rows * CELL

    @property
    def basket_x(self) -> int:
        return self.svg_width // 2


def gridcourt_replay(game: Game, result: GameResult, turn: int) -> GridReplay:
    """Return the replay of a stored grid-court game at ``turn`` (clamped to the turns).

    The board is the grid the game was played on (its stored width and level): each
    cell's value, the paint and the inside of the arc, as the game interface's ``board``
    gives it (``simulator.games``).
    """
    names = {AWAY: str(game.away), HOME: str(game.home)}
    frames = gridcourt_frames(list(result.events), names)
    engine = find_game(game.game)
    grid = engine.board(engine.rules_from_json(result.rules))
    if grid is None:
        raise ValueError(f"{engine.title} has no board to replay on")
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
    turn = max(1, min(turn, len(frames))) if frames else 0
    return GridReplay(game, frames, turn, names, board, grid.width, grid.rows)
