"""Six dice at the table: replay the dice rolled so far and say which die comes next.

The engine is not changed: :func:`replay` plays the engine's own :class:`Table` over
the values typed in (one ``d6`` stream in the order of §5) with each team's coach style, and
stops where it needs a die it does not have; the engine's :class:`ScriptRanOut` names
whose dice and for what. Where each roll begins is read from :attr:`Table.wanted` (each
roll sets a new one); how many dice the roll has (six, five under a penalty, the
defense's dice still standing in an inbound race, the dice a chip reroll names) is found
by playing the game on a few more dice. A finished game is played once more by
:func:`play_game` over the same dice through ``ScriptedDice``, so its result is exactly
the one ``python -m simulator play --game sixdice --dice FILE`` gives.

    >>> from simulator.games import StyledTeam, TeamName
    >>> p = replay(TeamName("Kansas", 2008), TeamName("Memphis", 2008), [1, 2])
    >>> p.need.step, p.need.index, p.need.size
    ('Memphis 2008: jump ball', 3, 6)
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from simulator.dice import DiceError, DiceScriptExhausted, DieRefused, GameOverError, ScriptedDice
from simulator.games import Game, Result, StyledTeam, TeamName
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
from simulator.sixdice.engine import ScriptRanOut, SixDiceResult, Table, play_game
from simulator.sixdice.events import Event, Score, SixDiceBox, Start, box_score
from simulator.sixdice.game import SixDiceGame
from simulator.sixdice.hand import QUESTIONS_VERSION, Hands
from simulator.sixdice.odds import solved
from simulator.sixdice.render import render_play_by_play
from simulator.sixdice.rules import STANDARD, SixDiceRules
from simulator.sixdice.state import AWAY, HOME, MAIN, GameState
from simulator.sixdice.style import DEFAULT_STYLE, SixDiceStyle, game_policy

FACES = 6
_NO_RECORD = ScriptedDice().record()
_NO_BOX = box_score((Start("", 0, "", 0),))
_COLOUR = re.compile(r"\b(Orange|White)\b")
_DICE = re.compile(r"(?<![\w(])O (\S+)(.*?) \| W (\S+)")
"""The engine's play-by-play's dice of both sides: ``O BBPPSF ... | W BPPSSF``."""


def named(text: str, labels: Mapping[str, str]) -> str:
    """Return the engine's words with the teams named as the sheet names them: "Orange"
    and "White" (the rulings' sides, §1.3), and the dice marked O and W, become the
    visitors' and the home team's labels ("Kansas 2008 wins", "Kansas 2008 BBPPSF | ...")."""
    text = _DICE.sub(lambda m: f"{labels[AWAY]} {m[1]}{m[2]} | {labels[HOME]} {m[3]}", text)
    return _COLOUR.sub(lambda m: labels[AWAY] if m[1] == "Orange" else labels[HOME], text)


_WHY = {
    "jump ball": "the team with more Balls takes the ball; a tie is rolled again",
    "main roll": "the offense's dice, then the defense's: the most of one symbol wins the roll",
    # both teams roll for a shot: the words fit the defense's roll as well as the shooter's
    "shot": "both teams count Balls, the shooter's +1 inside the arc, -1 outside: more "
    "makes it, a tie is the chip holder's to decide",
    "first free throw": "3 Balls make it and earn a second",
    "second free throw": "3 Balls make it",
    "chip reroll": "the chip holder rerolls the dice it named, in die order",
}


@dataclass(frozen=True, slots=True)
class Need:
    """The die the game wants next: whose roll, which die of it, and why."""

    team: str
    what: str
    index: int
    """Which die of the roll (1-based)."""
    size: int
    """How many dice the roll has."""
    step: str
    why: str
    start: int
    """Where the roll's first die is in the game's dice."""
    die: str = "d6"
    faces: int = FACES

    def to_json(self) -> dict[str, Any]:
        return {
            "die": self.die,
            "faces": self.faces,
            "team": self.team,
            "what": self.what,
            "index": self.index,
            "size": self.size,
            "step": self.step,
            "why": self.why,
            "start": self.start,
        }


@dataclass(frozen=True, slots=True)
class Roll:
    """One roll of the game: whose dice, what for, and where its dice start."""

    team: str
    what: str
    start: int
    dice: tuple[int, ...]
    events: tuple[Event, ...]
    """The events from this roll's first die to the next roll's (what the roll made)."""

    def lines(self, rules: SixDiceRules, labels: Mapping[str, str]) -> list[str]:
        """Return the roll's events in words: the game's own play-by-play (``render``),
        the teams named (:func:`named`)."""
        home, away = _NO_BOX  # the play-by-play reads only the events and the faces
        played = SixDiceResult(home, away, self.events, _NO_RECORD, rules)
        text = render_play_by_play(played)
        return [named(line.strip(), labels) for line in text.splitlines()]


def _hands(choices: Choices, home: TeamName, away: TeamName) -> Hands:
    """Return the game's answers: by hand for ``choices.hands``, each other side its style."""
    return Hands(
        choices.tokens,
        choices.hands,
        game_policy(_style(home), _style(away)),
        questions=choices.questions,
    )


@dataclass(frozen=True, slots=True)
class Position:
    """Where a game at the table stands after its dice."""

    home: TeamName
    away: TeamName
    rules: SixDiceRules
    values: tuple[int, ...]
    events: tuple[Event, ...]
    rolls: tuple[Roll, ...]
    score: dict[str, int]
    need: Need | None
    result: SixDiceResult | None
    choices: Choices = NO_CHOICES
    question: Question | None = None
    """The choice a side played by hand must make next (then ``need`` is ``None``)."""
    phase: GameState | None = None
    """The position at the start of the phase under way (the jump ball, a main roll with
    its shot and free throws, an inbound race); ``None`` once the game is over."""
    now: GameState | None = None
    """The position after the last die and choice: who holds the Power Chip now (a chip
    played inside the phase under way has changed hands) and who rolls one die fewer next;
    ``None`` once the game is over."""

    def labels(self) -> dict[str, str]:
        return {HOME: self.home.label, AWAY: self.away.label}

    def last_roll_start(self) -> int:
        """Return where "undo roll" goes back to: this roll's first die, or the last roll's."""
        return self.rolls[-1].start if self.rolls else 0

    def boxes(self) -> tuple[SixDiceBox, SixDiceBox]:
        """Return the ``(home, away)`` team box scores of the events so far."""
        return box_score(self.events)

    def partial(self) -> SixDiceResult:
        """Return the game so far as a result (for the game's own play-by-play)."""
        if self.result is not None:
            return self.result
        home, away = self.boxes()
        script = ScriptedDice(d6=list(self.values))
        return SixDiceResult(home, away, self.events, script.record(), self.rules)

    def dice_file(self) -> dict[str, Any]:
        """Return the ``vabg-dice/1`` file of the dice so far (a ``d6`` stream only)."""
        return {"format": "vabg-dice/1", "d6": list(self.values)}


class _Bad(Exception):
    def __init__(self, index: int, value: object) -> None:
        self.index, self.value = index, value


class _Source:
    """Hand out the values as d6 rolls, noting where each roll of the table begins."""

    def __init__(self, values: Sequence[int]) -> None:
        self.values = values
        self.used = 0
        self.table: Table | None = None
        self.starts: list[tuple[int, tuple[str, str]]] = []
        self.first_events: list[int] = []
        self._last: tuple[str, str] | None = None

    def d6(self) -> int:
        assert self.table is not None
        wanted = self.table.wanted
        if wanted is not self._last:  # a new roll: every roll sets a new tuple
            self._last = wanted
            self.starts.append((self.used, wanted))
            self.first_events.append(len(self.table.events))
        if self.used >= len(self.values):
            raise DiceScriptExhausted("d6", self.used)
        value = self.values[self.used]
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= FACES:
            raise _Bad(self.used, value)
        self.used += 1
        return value

    def d8(self) -> int:
        raise DiceError("six dice reads only d6 rolls")

    def d20(self) -> int:
        raise DiceError("six dice reads only d6 rolls")

    def record(self) -> Any:
        raise DiceError("a table replay has no record")


def _run(
    home: TeamName,
    away: TeamName,
    values: Sequence[int],
    rules: SixDiceRules,
    choices: Choices = NO_CHOICES,
    phases: list[GameState] | None = None,
) -> tuple[Table, _Source, Hands, ScriptRanOut | _Bad | ChoiceNeeded | None]:
    """Play the engine's game over ``values``; with ``phases``, note the position at the
    start of each phase it plays (the jump ball, a main roll with its shot and free throws,
    an inbound race: the positions the exact odds know, ``states_before_rolls``)."""
    source = _Source(values)
    hands = _hands(choices, home, away)
    table = Table(source, rules=rules, policy=hands.policy)
    source.table = table
    if phases is not None:
        play_phase = table.step

        def step() -> None:
            phases.append(table.state)
            play_phase()

        table.step = step  # type: ignore[method-assign]
    table.events.append(Start(home.school, home.season, away.school, away.season))
    try:
        table.play()
    except (ScriptRanOut, _Bad, ChoiceNeeded) as exc:
        return table, source, hands, exc
    return table, source, hands, None


def _style(team: TeamName) -> SixDiceStyle:
    """Return the style a team plays at the table: its coach style (a team read from a team
    file, :class:`StyledTeam`), or the default (§4's policy) for a bare name."""
    style = team.style if isinstance(team, StyledTeam) else None
    return style if isinstance(style, SixDiceStyle) else DEFAULT_STYLE


def _size(
    home: TeamName,
    away: TeamName,
    values: Sequence[int],
    rules: SixDiceRules,
    choices: Choices = NO_CHOICES,
) -> int:
    """Return how many dice the roll that begins at ``len(values)`` has: play on 1s (a
    choice is only ever asked between rolls, so the roll is whole before one is wanted)."""
    start = len(values)
    _, source, _, _ = _run(home, away, [*values, *([1] * (2 * FACES))], rules, choices)
    later = [i for i, _ in source.starts if i > start]
    return (later[0] if later else source.used) - start


def _need(
    home: TeamName,
    away: TeamName,
    values: Sequence[int],
    rules: SixDiceRules,
    source: _Source,
    at: int,
    choices: Choices = NO_CHOICES,
) -> Need:
    start, (what, team) = source.starts[-1]
    size = _size(home, away, values[:start], rules, choices)
    label = home.label if team == HOME else away.label
    base = what.split(",")[0]
    why = _WHY.get(base, "the inbounder's dice move the ball; the defense's S dice steal")
    step = what
    if base.startswith("inbound race"):
        # Each round the inbounder rolls, then the defense: the same words, so say whose.
        prior = source.starts[-2][1] if len(source.starts) > 1 else None
        if prior is not None and prior[0] == what and prior[1] != team:
            step = f"{what}, defending"
            why = "each S of yours sets a die aside (six S's: a steal); their Balls move the ball"
        else:
            step = f"{what}, inbounding"
            why = "your Balls move the ball; each S of the defense sets one of its dice aside"
    plural = "die" if size == 1 else "dice"
    return Need(
        team,
        what,
        at - start + 1,
        size,
        f"{label}: {step}",
        f"{size} {plural}; {why}",
        start,
    )


def replay(
    home: TeamName,
    away: TeamName,
    values: Sequence[int],
    *,
    rules: SixDiceRules = STANDARD,
    choices: Choices = NO_CHOICES,
) -> Position:
    """Play the engine's game over ``values`` and stop where it needs the next die, or the
    next choice of a side played by hand (``choices``, :mod:`simulator.sixdice.hand`).

    Raise :class:`DieRefused` for a value that is not a face of a d6,
    :class:`GameOverError` for dice after the end of the game, and for choices:
    :class:`ChoiceRefused` (a choice the rules forbid), :class:`ChoiceFirst` (dice typed
    while a choice is wanted) and :class:`NoChoiceWanted` (a choice where none is asked).
    """
    values = tuple(values)
    phases: list[GameState] = []
    table, source, hands, stop = _run(home, away, values, rules, choices, phases)
    if isinstance(stop, _Bad):
        raise DieRefused(
            stop.index, stop.value, _need(home, away, values, rules, source, stop.index, choices)
        )
    question = stop.question if isinstance(stop, ChoiceNeeded) else None
    if question is not None and source.used < len(values):
        raise ChoiceFirst(source.used, question)
    need = None
    if isinstance(stop, ScriptRanOut):
        need = _need(home, away, values, rules, source, len(values), choices)
    if hands.used < len(choices.tokens):
        waits = f"the game waits for {need.step}" if need is not None else "the game is over"
        raise NoChoiceWanted(hands.used, f"no choice is asked here: {waits}")
    if stop is None and source.used < len(values):
        raise GameOverError(source.used, len(values) - source.used)
    ends = [i for i, _ in source.starts[1:]] + [len(values)]
    event_ends = [*source.first_events[1:], len(table.events)]
    rolls = tuple(
        Roll(team, what, start, values[start:end], tuple(table.events[first:last]))
        for (start, (what, team)), end, first, last in zip(
            source.starts, ends, source.first_events, event_ends, strict=True
        )
        if end > start
    )
    result = None
    if stop is None:
        policy = _hands(choices, home, away).policy
        result = play_game(home, away, ScriptedDice(d6=list(values)), rules=rules, policy=policy)
    state = table.state
    return Position(
        home=home,
        away=away,
        rules=rules,
        values=values,
        events=tuple(table.events),
        rolls=rolls,
        score={HOME: state.home_score, AWAY: state.away_score},
        need=need,
        result=result,
        choices=choices,
        question=question,
        phase=phases[-1] if stop is not None and phases else None,
        now=state if stop is not None else None,
    )


# -- the table's sheet (``Game.sheet``: the protocol of ``simulator.sheets``) ----------------

POLICY_NOTE = (
    "Type only the dice: each team plays its coach style (which symbol on a "
    "tie, when to play the Power Chip, shoot or advance; shown on its team page), as in the "
    "league's simulated games."
)


def policy_note(labels: Mapping[str, str], hands: frozenset[str]) -> str:
    """Say who makes the choices: the players (``hands``) or the teams' coach styles."""
    if not hands:
        return POLICY_NOTE
    by_hand = " and ".join(labels[s] for s in (AWAY, HOME) if s in hands)
    computer = [labels[s] for s in (AWAY, HOME) if s not in hands]
    note = (
        f"{by_hand} make{'' if len(hands) == 2 else 's'} every choice the rules give "
        "(which play on a tie, advance or shoot, push out for a 3, the Power Chip): the "
        "sheet asks each one when it comes."
    )
    if computer:
        note += f" The computer plays {computer[0]} with its coach style."
    return note


@dataclass(frozen=True, slots=True)
class SixDiceSheet(BoardSheet):
    """A six-dice game at the table: a :class:`simulator.sheets.Sheet` over a
    :class:`Position`."""

    game: SixDiceGame
    position: Position

    def result(self) -> Result | None:
        result = self.position.result
        if result is None:
            return None
        choices = self.position.choices
        return self.game.wrap(
            result, choices=choices.tokens, hands=choices.hands, questions=choices.questions
        )

    def state(self) -> dict[str, Any]:
        position = self.position
        labels = position.labels()
        faces = position.rules.faces
        plays: list[dict[str, Any]] = []
        score = {"home": 0, "away": 0}
        for n, roll in enumerate(position.rolls, 1):
            lines = roll.lines(position.rules, labels)
            for event in roll.events:
                if isinstance(event, Score):
                    score = {"home": event.home, "away": event.away}
            plays.append(
                {
                    "label": f"throw {n}",  # every throw of dice; the play lines number main rolls
                    "team": roll.team,
                    "team_label": labels[roll.team],
                    "kind": roll.what,
                    "dice": roll_dice(roll.dice, faces),
                    "lines": [roll.what, *lines],
                    **score,
                }
            )
        state = board_state(
            self.game,
            labels=labels,
            values=position.values,
            need=position.need,
            over=position.result is not None,
            score=position.score,
            undo_trip_to=self.undo_trip_to,
            plays=plays,
            boxes=position.boxes(),
            pieces=None,
            faces=faces,
            policy_note=policy_note(labels, position.choices.hands),
            question=position.question,
            hands=position.choices.hands,
            odds=live_odds(self.game, position),
        )
        # The chip as it stands now: one played inside the phase has changed hands already.
        state["situation"] = situation(position.now, labels) if position.result is None else []
        return state


def situation(now: GameState | None, labels: Mapping[str, str]) -> list[str]:
    """Return what the rulings' state holds that the score does not show (§1.3): who holds
    the Power Chip now (a tie is his to decide, §2.2 and G16) and who rolls one die fewer on
    the next roll (§2.9)."""
    if now is None or now.chip is None:
        return []
    said = [f"Power Chip: {labels[now.chip]} (a tied roll or shot is its to decide)"]
    said += [
        f"{labels[side]} rolls one die fewer on its next roll (penalty)"
        for side in (AWAY, HOME)
        if side in now.penalty
    ]
    return said


def live_odds(game: SixDiceGame, position: Position) -> dict[str, Any]:
    """Return P(home wins) now, exact from the six-dice chain (the game's own, whose values
    a stored game's chart shows) at the start of the phase under way: the jump ball, a main
    roll (its shot and free throws are inside it) or an inbound race, with that phase's
    score; each team playing its coach style from there (a side played by hand too: the
    chain cannot know the choices still to come)."""
    home_style, away_style = _style(position.home), _style(position.away)
    chain = solved(
        position.rules,
        None if home_style == DEFAULT_STYLE else home_style,
        None if away_style == DEFAULT_STYLE else away_style,
    )
    pregame = chain.p_home_win(GameState())
    labels = position.labels()
    state = position.phase
    if position.result is not None or state is None:
        p_home = 1.0 if position.score[HOME] > position.score[AWAY] else 0.0
        as_of = "final"
    else:
        p_home = chain.p_home_win(state)
        score = f"{state.away_score}-{state.home_score}"
        if state.offense is None:
            as_of = "before the jump ball"
        elif state.phase == MAIN:
            as_of = f"before {labels[state.offense]}'s main roll at d {state.depth} ({score})"
        else:
            as_of = f"before {labels[state.offense]}'s inbound ({score})"
    by_hand = (
        " (a side played by hand is assumed to play its coach style)"
        if (position.choices.hands)
        else ""
    )
    return {
        "available": True,
        "p_home": p_home,
        "p_away": 1.0 - p_home,
        "pregame_home": pregame,
        "as_of": as_of,
        "note": "Exact, from the dice math (docs/odds.md), at the start of the jump ball, main "
        "roll (its shot and free throws included) or inbound under way, each team playing "
        f"its coach style{by_hand}.",
        "caveat": "These odds assume a side played by hand plays its coach style from here."
        if position.choices.hands
        else "",
    }


def sheet_rules(game: Game, options: Mapping[str, Any], rules_version: int | None) -> SixDiceRules:
    """Return the rules of a six-dice game at the table (``Game.sheet_rules``)."""
    rules: SixDiceRules = rules_by_version(game, options, rules_version)
    return rules


def open_sheet(
    game: SixDiceGame,
    home: TeamName,
    away: TeamName,
    values: Sequence[int],
    *,
    rules: SixDiceRules,
    neutral: bool = False,
    choices: Sequence[str] = (),
    hands: Collection[str] = (),
    questions: int = QUESTIONS_VERSION,
) -> SixDiceSheet:
    """Return the six-dice game after ``values`` (``Game.sheet``; no home court), the sides
    in ``hands`` making their own ``choices`` (:mod:`simulator.sixdice.hand`), the answers
    to the ``questions`` of that version."""
    played = Choices(tuple(choices), frozenset(hands), questions)
    labels = {HOME: home.label, AWAY: away.label}
    position = in_teams_names(
        lambda: replay(home, away, values, rules=rules, choices=played),
        lambda text: named(text, labels),
    )
    return SixDiceSheet(game, position)
