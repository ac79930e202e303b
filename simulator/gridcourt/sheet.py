"""Grid court at the table: replay the dice rolled so far and say which die comes next.

The engine is not changed: :func:`replay` plays the engine's own :class:`Table` turn by
turn over the values typed in (one ``d6`` stream, §5: two dice for an offensive turn,
one for a defensive turn) and stops where it needs a die it does not have. Both teams
play the default policies (§4): the moves are the engine's, only the dice are typed. A
finished game is played once more by :func:`play_game` over the same dice through
``ScriptedDice``, so its result is exactly the one ``python -m simulator play --game
gridcourt --dice FILE`` gives.

    >>> from simulator.games import TeamName
    >>> p = replay(TeamName("Kansas", 2008), TeamName("Memphis", 2008), [4])
    >>> p.need.step, p.need.index, p.need.size
    ('Memphis 2008: offensive roll', 2, 2)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from simulator.dice import DiceError, DiceScriptExhausted, DieRefused, GameOverError, ScriptedDice
from simulator.games import Game, Result, StyledTeam, TeamName
from simulator.gridcourt.engine import SHOT_CLOCK_ROLLS, Table, play_game
from simulator.gridcourt.events import (
    AWAY,
    HOME,
    OFFENSE,
    PAINT,
    Announce,
    Cell,
    End,
    Event,
    Rebound,
    Reset,
    Roll,
    Score,
    Shot,
    Start,
    Steal,
    Step,
    Violation,
    box_score,
)
from simulator.gridcourt.hand import Hands
from simulator.gridcourt.policy import DEFAULT_POLICY, Policy
from simulator.gridcourt.rules import STANDARD, GridRules
from simulator.gridcourt.style import policy_for
from simulator.hands import NO_CHOICES, ChoiceNeeded, Choices, Question
from simulator.sheets import (
    BoardSheet,
    ChoiceFirst,
    NoChoiceWanted,
    board_state,
    in_teams_names,
    roll_dice,
    rules_by_version,
)

FACES = 6


@dataclass(frozen=True, slots=True)
class Need:
    """The die the game wants next: whose roll, which die of it, and why."""

    team: str
    role: str
    index: int
    """Which die of the roll (1-based)."""
    size: int
    """How many dice the roll has: 2 for the offense, 1 for the defense."""
    step: str
    why: str
    start: int
    """Where the roll's first die is in the game's dice."""
    die: str = "d6"
    faces: int = FACES
    brief: str = ""
    """The roll in a few words, for a phone's prompt of at most two lines (``why`` says
    it whole: how the dice are typed, a 2's steal, the shot clock)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "die": self.die,
            "faces": self.faces,
            "team": self.team,
            "role": self.role,
            "index": self.index,
            "size": self.size,
            "step": self.step,
            "why": self.why,
            "start": self.start,
            "brief": self.brief,
        }


@dataclass(frozen=True, slots=True)
class Turn:
    """One roll of the game: its team and role, its dice and the events it made."""

    team: str
    role: str
    start: int
    dice: tuple[int, ...]
    events: tuple[Event, ...]


def _hands(choices: Choices, home: TeamName, away: TeamName) -> Hands:
    """Return the game's answers: by hand for ``choices.hands``, each other side its style."""
    return Hands(choices.tokens, choices.hands, {HOME: _policy(home), AWAY: _policy(away)})


@dataclass(frozen=True, slots=True)
class Position:
    """Where a game at the table stands after its dice."""

    home: TeamName
    away: TeamName
    rules: GridRules
    values: tuple[int, ...]
    events: tuple[Event, ...]
    turns: tuple[Turn, ...]
    score: dict[str, int]
    need: Need | None
    result: Result | None
    cells: dict[str, tuple[Cell, ...]]
    """Where each team's pieces 1..N stand now."""
    offense: str
    choices: Choices = NO_CHOICES
    question: Question | None = None
    """The choice a side played by hand must make next (then ``need`` is ``None``)."""

    def labels(self) -> dict[str, str]:
        return {HOME: self.home.label, AWAY: self.away.label}

    def last_roll_start(self) -> int:
        """Return where "undo roll" goes back to: this roll's first die, or the last roll's."""
        return self.turns[-1].start if self.turns else 0

    def dice_file(self) -> dict[str, Any]:
        """Return the ``vabg-dice/1`` file of the dice so far (a ``d6`` stream only)."""
        return {"format": "vabg-dice/1", "d6": list(self.values)}


class _Source:
    """Hand out the typed values as d6 rolls; refuse a value that is not a face."""

    def __init__(self, values: Sequence[int]) -> None:
        self.values = values
        self.used = 0

    def d6(self) -> int:
        if self.used >= len(self.values):
            raise DiceScriptExhausted("d6", self.used)
        value = self.values[self.used]
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= FACES:
            raise _Bad(self.used, value)
        self.used += 1
        return value

    def d8(self) -> int:
        raise DiceError("grid court reads only d6 rolls")

    def d20(self) -> int:
        raise DiceError("grid court reads only d6 rolls")

    def record(self) -> Any:
        raise DiceError("a table replay has no record")


class _Bad(Exception):
    def __init__(self, index: int, value: object) -> None:
        self.index, self.value = index, value


def _need(table: Table, labels: dict[str, str], start: int, have: int, hands: Hands) -> Need:
    s = table.state
    team = s.roller
    who = labels[team]
    by_hand = team in hands.hands
    if team == s.offense:
        if by_hand:  # its announcement was just made, before this roll's first die
            shooter_piece = hands.announced
        else:
            shooter = next(
                (e for e in reversed(table.events[-1:]) if isinstance(e, Announce)),
                None,
            )
            shooter_piece = table.policies[team].announce(s) if shooter is None else shooter.piece
        clock = f"shot clock: movement roll {s.clock + 1} of {SHOT_CLOCK_ROLLS}"
        if shooter_piece is not None:
            cell = s.cell(team, shooter_piece)
            v = s.court.value[s.pos[team][shooter_piece - 1]]
            pts = s.court.points[s.pos[team][shooter_piece - 1]]
            why = (
                f"piece {shooter_piece} at {cell} shoots a {pts}: made on a total of {v} or "
                f"more, 2 is a steal ({clock})"
            )
            brief = f"piece {shooter_piece} shoots a {pts}, made on {v}+"
        else:
            mover = "you choose them" if by_hand else "the team's coach style"
            why = (
                f"no shot: the total is how many steps the offense moves ({mover}), "
                f"2 is a steal; {clock}"
            )
            brief = "no shot: the total is the steps"
        # The game reads only the total, which a player would type: the entry takes dice.
        why = f"two dice, each typed (3 5, or 35), not their total: {why}"
        return Need(team, OFFENSE, have + 1, 2, f"{who}: offensive roll", why, start, brief=brief)
    mover = "you choose them" if by_hand else "the team's coach style"
    return Need(
        team,
        "defense",
        1,
        1,
        f"{who}: defensive roll",
        f"one die: the defense moves that many steps at most ({mover})",
        start,
        brief="up to that many steps",
    )


def replay(
    home: TeamName,
    away: TeamName,
    values: Sequence[int],
    *,
    rules: GridRules = STANDARD,
    choices: Choices = NO_CHOICES,
) -> Position:
    """Play the engine's game over ``values`` and stop where it needs the next die, or the
    next choice of a side played by hand (``choices``, :mod:`simulator.gridcourt.hand`).

    Raise :class:`DieRefused` for a value that is not a face of a d6,
    :class:`GameOverError` for dice after the end of the game, and for choices:
    :class:`ChoiceRefused` (one the rules forbid), :class:`ChoiceFirst` (dice typed while
    a choice is wanted) and :class:`NoChoiceWanted` (a choice where none is asked).
    """
    values = tuple(values)
    source = _Source(values)
    hands = _hands(choices, home, away)
    table = Table(source, rules, home_policy=hands.policy(HOME), away_policy=hands.policy(AWAY))
    table.events.append(Start(home.school, home.season, away.school, away.season))
    labels = {HOME: home.label, AWAY: away.label}
    turns: list[Turn] = []
    need = None
    question: Question | None = None
    try:
        table.start()
    except ChoiceNeeded as exc:
        question = exc.question
    while question is None and not table.state.over:
        start, first_event = source.used, len(table.events)
        team = table.state.roller
        role = OFFENSE if team == table.state.offense else "defense"
        try:
            table.turn()
        except DiceScriptExhausted:
            need = _need(table, labels, start, source.used - start, hands)
            if source.used > start:  # the first die of an offensive roll is in
                turns.append(Turn(team, role, start, values[start:], _events(table, first_event)))
            break
        except ChoiceNeeded as exc:
            question = exc.question
            if source.used > start:  # the roll's dice are in; its steps (or a reset) wait
                turns.append(
                    Turn(
                        team, role, start, values[start : source.used], _events(table, first_event)
                    )
                )
            break
        except _Bad as exc:
            raise DieRefused(
                exc.index, exc.value, _need(table, labels, start, exc.index - start, hands)
            ) from None
        turns.append(
            Turn(team, role, start, values[start : source.used], _events(table, first_event))
        )
    if question is not None and source.used < len(values):
        raise ChoiceFirst(source.used, question)
    if hands.used < len(choices.tokens):
        waits = f"the game waits for {need.step}" if need is not None else "the game is over"
        raise NoChoiceWanted(hands.used, f"no choice is asked here: {waits}")
    if need is None and question is None and source.used < len(values):
        raise GameOverError(source.used, len(values) - source.used)
    result = None
    if need is None and question is None:
        final = _hands(choices, home, away)
        result = play_game(
            home,
            away,
            ScriptedDice(d6=list(values)),
            rules,
            home_policy=final.policy(HOME),
            away_policy=final.policy(AWAY),
        )
    return Position(
        home=home,
        away=away,
        rules=rules,
        values=values,
        events=tuple(table.events),
        turns=tuple(turns),
        score=dict(table.state.score),
        need=need,
        result=result,
        cells={HOME: table.state.cells(HOME), AWAY: table.state.cells(AWAY)},
        offense=table.state.offense,
        choices=choices,
        question=question,
    )


def named(text: str, labels: Mapping[str, str]) -> str:
    """Return the engine's words with the teams named as the sheet names them: the rulings'
    "Team 1 (visitors)" and "Team 2 (home)" (§1.3) become the teams' labels."""
    return text.replace("Team 1 (visitors)", labels[AWAY]).replace("Team 2 (home)", labels[HOME])


def _policy(team: TeamName) -> Policy:
    """Return the policy a team plays at the table: its coach style (a team read from a
    team file, :class:`StyledTeam`), or the rulings' §4 policy for a bare name."""
    return policy_for(team.style) if isinstance(team, StyledTeam) else DEFAULT_POLICY


def _events(table: Table, first: int) -> tuple[Event, ...]:
    return tuple(table.events[first:])


def describe(event: Event, labels: dict[str, str]) -> str | None:
    """Return one event in words (``None`` for the ones a turn's dice already tell).

    >>> describe(Shot("away", 3, (2, 5), 9, 10, 0, 2, True), {"away": "A", "home": "H"})
    'A: piece 3 shoots a 2 from (2, 5): 10 against 9, made'
    """
    if isinstance(event, Start | Roll | End):
        return None
    if isinstance(event, Reset):
        return f"reset: {labels[event.offense]} on offense"
    if isinstance(event, Announce):
        return f"{labels[event.team]}: piece {event.piece} announces a shot from {event.cell}"
    if isinstance(event, Step):
        return f"{labels[event.team]}: piece {event.piece} {event.frm} to {event.to}"
    if isinstance(event, Shot):
        made = "made" if event.made else "missed"
        return (
            f"{labels[event.team]}: piece {event.piece} shoots a {event.points} from "
            f"{event.cell}: {event.t} against {event.v}, {made}"
        )
    if isinstance(event, Rebound):
        kind = "offensive" if event.offensive else "defensive"
        return f"{labels[event.team]}: {kind} rebound, piece {event.piece}"
    if isinstance(event, Steal):
        by = f", piece {event.piece}" if event.piece is not None else ""
        return f"{labels[event.team]}: steal{by}"
    if isinstance(event, Violation):
        kind = "paint violation" if event.kind == PAINT else "shot-clock violation"
        by = f", piece {event.piece}" if event.piece is not None else ""
        return f"{labels[event.team]}: {kind}{by}"
    if isinstance(event, Score):
        return f"score: {labels[AWAY]} {event.away}, {labels[HOME]} {event.home}"
    return None


# -- the table's sheet (``Game.sheet``: the protocol of ``simulator.sheets``) ----------------

POLICY_NOTE = (
    "Type only the dice: each team moves by its coach style (where to set up, "
    "when to shoot, every step; shown on its team page), as in the league's simulated "
    "games."
)


def policy_note(labels: Mapping[str, str], hands: frozenset[str]) -> str:
    """Say who makes the moves: the players (``hands``) or the teams' coach styles."""
    if not hands:
        return POLICY_NOTE
    by_hand = " and ".join(labels[s] for s in (AWAY, HOME) if s in hands)
    note = (
        f"{by_hand} make{'' if len(hands) == 2 else 's'} every choice by hand on the court: "
        "placing the pieces after a reset, announcing a shot, every step of a roll (the "
        "legal steps are marked; one the rules forbid is refused)."
    )
    computer = [labels[s] for s in (AWAY, HOME) if s not in hands]
    if computer:
        note += f" The computer moves {computer[0]} by its coach style."
    return note


def court_json(rules: GridRules) -> dict[str, Any]:
    """Return the court the page draws: its size and, row by row, each cell's value, whether
    it is inside the arc and in the paint."""
    court = rules.court
    rows = court.size // court.width
    return {
        "rows": rows,
        "width": court.width,
        "value": [list(court.value[r * court.width : (r + 1) * court.width]) for r in range(rows)],
        "inside": [
            [int(x) for x in court.inside[r * court.width : (r + 1) * court.width]]
            for r in range(rows)
        ],
        "paint": [
            [int(x) for x in court.paint[r * court.width : (r + 1) * court.width]]
            for r in range(rows)
        ],
    }


@dataclass(frozen=True, slots=True)
class GridSheet(BoardSheet):
    """A grid-court game at the table: a :class:`simulator.sheets.Sheet` over a
    :class:`Position`."""

    game: Game
    position: Position

    def result(self) -> Result | None:
        result = self.position.result
        choices = self.position.choices
        if result is None or not choices.hands:
            return result
        return dataclasses.replace(result, choices=choices.tokens, hands=choices.hands)

    def state(self) -> dict[str, Any]:
        position = self.position
        labels = position.labels()
        plays: list[dict[str, Any]] = []
        score = {"home": 0, "away": 0}
        for n, turn in enumerate(position.turns, 1):
            lines = [text for e in turn.events if (text := describe(e, labels)) is not None]
            for e in turn.events:
                if isinstance(e, Score):
                    score = {"home": e.home, "away": e.away}
            plays.append(
                {
                    "label": f"roll {n}",
                    "team": turn.team,
                    "team_label": labels[turn.team],
                    "kind": turn.role,
                    "dice": roll_dice(turn.dice, ""),
                    "lines": [f"{turn.role} roll", *lines],
                    **score,
                }
            )
        return board_state(
            self.game,
            labels=labels,
            values=position.values,
            need=position.need,
            over=position.result is not None,
            score=position.score,
            undo_trip_to=self.undo_trip_to,
            plays=plays,
            boxes=box_score(position.events),
            pieces={
                "offense": position.offense,
                "home": [list(c) for c in position.cells["home"]],
                "away": [list(c) for c in position.cells["away"]],
            },
            faces="",
            policy_note=policy_note(labels, position.choices.hands),
            question=position.question,
            hands=position.choices.hands,
        ) | {"court": court_json(position.rules)}


def sheet_rules(game: Game, options: Mapping[str, Any], rules_version: int | None) -> GridRules:
    """Return the rules of a grid-court game at the table (``Game.sheet_rules``)."""
    rules: GridRules = rules_by_version(game, options, rules_version)
    return rules


def open_sheet(
    game: Game,
    home: TeamName,
    away: TeamName,
    values: Sequence[int],
    *,
    rules: GridRules,
    neutral: bool = False,
    choices: Sequence[str] = (),
    hands: Collection[str] = (),
    questions: int = 1,
) -> GridSheet:
    """Return the grid-court game after ``values`` (``Game.sheet``; no home court), the
    sides in ``hands`` making their own ``choices`` (:mod:`simulator.gridcourt.hand`; its
    questions have one version)."""
    played = Choices(tuple(choices), frozenset(hands), questions)
    labels = {HOME: home.label, AWAY: away.label}
    position = in_teams_names(
        lambda: replay(home, away, values, rules=rules, choices=played),
        lambda text: named(text, labels),
    )
    return GridSheet(game, position)
