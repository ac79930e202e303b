"""A dice source that writes down every roll it hands out, in the order the game asked.

A stored game keeps its dice as a seed or as one list per die (the ``vabg-dice/1``
streams), which says nothing of the order the game read them in across the dice. Playing
the game again through :class:`RecordingDice` over the same source gives that order: the
dice as they were rolled at the table, one after another. Nothing in a game changes: the
recorder only passes each roll on, so the same seed or script plays the same game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from simulator.dice import DiceRecord, DiceSource


class Draw(NamedTuple):
    """One roll handed out: the die, its value and ``mark``, what the clock read then."""

    die: str
    value: int
    mark: int


class RecordingDice:
    """Pass every roll of ``source`` on and keep it in :attr:`draws`, in order.

    ``clock`` is read as each roll is drawn (a game's ``len(events)``, say: the rolls drawn
    before its event number ``mark`` made it); without one every mark is 0.

    >>> from simulator.dice import ScriptedDice
    >>> dice = RecordingDice(ScriptedDice(d8=[3], d6=[2, 5], d20=[14]))
    >>> dice.d20(), dice.d8(), dice.d6()
    (14, 3, 2)
    >>> [(d.die, d.value) for d in dice.draws]
    [('d20', 14), ('d8', 3), ('d6', 2)]
    """

    __slots__ = ("clock", "draws", "source")

    def __init__(self, source: DiceSource, clock: Callable[[], int] | None = None) -> None:
        self.source = source
        self.clock = clock
        self.draws: list[Draw] = []

    def _keep(self, die: str, value: int) -> int:
        self.draws.append(Draw(die, value, self.clock() if self.clock is not None else 0))
        return value

    def d8(self) -> int:
        return self._keep("d8", self.source.d8())

    def d6(self) -> int:
        return self._keep("d6", self.source.d6())

    def d20(self) -> int:
        return self._keep("d20", self.source.d20())

    def record(self) -> DiceRecord:
        """Return the source's own record (its seed or script)."""
        return self.source.record()

    @property
    def values(self) -> list[int]:
        """Return the rolls' values in order: the list a table player types."""
        return [d.value for d in self.draws]
