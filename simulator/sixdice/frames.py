"""A stored six-dice game turn by turn: the frames its replay page draws.

:func:`frames_of` walks a stored game's events (their ``to_json()`` form) and says,
after each roll, where the pawn stands, who has the ball and the Power Chip, the score,
and each team's dice as rolled; :func:`replay_frames` (the game interface's
``Game.replay_frames``) wraps them with the court strip they are drawn on. Pure Python:
the league's replay page only lays them out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from simulator.games import Game

AWAY, HOME = "away", "home"

LEGEND = (
    "Dice faces: B Ball, P Pass, S Shot or Steal, F Free throw. A roll is read by its "
    "most frequent face: \u201cB x3\u201d is a play of Ball with three dice showing it "
    "(the higher count wins the roll; a tie goes to the Power Chip's holder if it plays "
    "the chip). The court has 14 sections; a team attacks its opponent's basket from its "
    "own half, and reaching past the last section is a dunk."
)
"""What a fan needs to read the game's play-by-play (its page's legend)."""

SECTIONS = 14
HALF = 7
ARC = 4


def _balls(n: int) -> str:
    """Return "1 Ball", "3 Balls"."""
    return f"{n} Ball" if n == 1 else f"{n} Balls"


def _other(side: str) -> str:
    return HOME if side == AWAY else AWAY


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


def frames_of(
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
                text = f"Jump ball: {_balls(e['away_balls'])} each, rolled again."
            else:
                offense, section, chip = e["winner"], e["section"], _other(e["winner"])
                text = (
                    f"Jump ball: {names[AWAY]} {_balls(e['away_balls'])}, {names[HOME]} "
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
                f"Free throw {e['number']} by {who}: {show(e['dice'])}, {_balls(e['balls'])}, "
                f"{'made' if e['made'] else 'missed'}."
            )
        elif kind == "dunk":
            text = f"{who}: {'slam dunk' if e['kind'] == 'slam' else 'dunk'}!"
        elif kind == "inbound_round":
            offense, section = team, e["section"]
            end = {"crossed": ", across half court", "steal": ", stolen"}.get(e["result"], "")
            text = (
                f"{who} inbounds, round {e['round']}: {_balls(e['balls'])}, {e['moved']} in all, "
                f"{e['set_aside']} S set aside{end}."
            )
        elif kind == "score":
            score = {AWAY: e["away"], HOME: e["home"]}
            text = (
                f"{who} scores {e['points']}: {names[AWAY]} {e['away']}, {names[HOME]} {e['home']}."
            )
        elif kind == "end":
            won, lost = sorted((e["away"], e["home"]), reverse=True)  # the winner's first
            text = f"{names[e['winner']]} reaches 21 and wins {won}-{lost}."
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
class Frames:
    """A six-dice game's frames, one per roll, with the court strip they are drawn on."""

    frames: list[Frame]

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


def replay_frames(
    game: Game,
    events: Sequence[Mapping[str, Any]],
    rules: Mapping[str, Any],
    names: Mapping[str, str],
) -> Frames:
    """Return the replay of a stored six-dice game (``names``: each side's name)."""
    return Frames(frames_of([dict(e) for e in events], dict(rules), dict(names)))
