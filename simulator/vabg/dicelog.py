"""A played VABG game's dice in the order they were rolled, each labelled as the table does.

A stored game keeps its dice as a seed or as the ``vabg-dice/1`` streams (one list per
die), which lose the order the rules read them in (vabg-rulings.md §11: d8, d6 tens,
d6 ones, d20 for every trip, then free throws, rebounds, putbacks, fast breaks as they
come). :func:`game_dice` plays the game once more over the same dice through a
:class:`~simulator.recording.RecordingDice`, noting before which event each roll was drawn,
and replays that order on the table's score sheet (:func:`simulator.vabg.sheet.replay`),
which labels each die as the table page does ("free throw 2", "rebound d6"). The engine
itself is untouched and plays no slower: this runs only when a stored game's page asks for
its dice (about 10-20 ms a game).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from simulator.dice import DiceSource
from simulator.recording import RecordingDice
from simulator.vabg.cards import TeamCard
from simulator.vabg.coaching import Coach
from simulator.vabg.engine import GameState, rules_coach
from simulator.vabg.events import AWAY, HOME
from simulator.vabg.rules import GameRules
from simulator.vabg.sheet import replay
from simulator.vabg.words import Die


class DiceLogMismatch(ValueError):
    """Raise when the dice replayed do not make the stored game's events."""


def game_dice(
    home: TeamCard,
    away: TeamCard,
    dice: DiceSource,
    *,
    rules: GameRules,
    neutral: bool = False,
    coach: Coach | None = None,
    events: Sequence[Mapping[str, Any]] | None = None,
) -> tuple[Die, ...]:
    """Return every die of the game ``dice`` plays, in the order rolled, labelled.

    ``events`` (the stored game's, as JSON) are checked against the game played again: a
    game this engine plays differently raises :class:`DiceLogMismatch` rather than put its
    dice beside the wrong plays.
    """
    if coach is None:
        coach = rules_coach(home, away, rules=rules, neutral=neutral)
    recorder = RecordingDice(dice, clock=lambda: len(game.events))
    game = GameState(home, away, recorder, rules, neutral, {HOME: None, AWAY: None}, coach)
    game.play()
    if events is not None and [e.to_json() for e in game.events] != list(events):
        raise DiceLogMismatch("the dice replayed do not make the stored game's events")
    position = replay(home, away, recorder.values, rules=rules, neutral=neutral, coach=coach)
    return tuple(
        Die(roll.step, roll.value, draw.mark, roll.die)
        for roll, draw in zip(position.rolls, recorder.draws, strict=True)
    )
