"""Dice for table tests: a seeded game's rolls written down in the order they were rolled."""

from __future__ import annotations

from simulator import SeededDice
from simulator.dice import DiceRecord
from simulator.results import GameResult
from simulator.vabg import ADVANCED, GameRules, TeamCard, play_game


class Written:
    """Roll seeded dice and write each value down in the order the game asks for it."""

    def __init__(self, seed: int) -> None:
        self._dice = SeededDice(seed)
        self.values: list[int] = []
        self.dice: list[str] = []

    def _roll(self, die: str) -> int:
        value: int = getattr(self._dice, die)()
        self.values.append(value)
        self.dice.append(die)
        return value

    def d8(self) -> int:
        return self._roll("d8")

    def d6(self) -> int:
        return self._roll("d6")

    def d20(self) -> int:
        return self._roll("d20")

    def record(self) -> DiceRecord:
        return self._dice.record()


def rolled_game(
    home: TeamCard, away: TeamCard, seed: int, rules: GameRules = ADVANCED, neutral: bool = False
) -> tuple[GameResult, Written]:
    """Play a seeded game; return its result and the dice as they were written down."""
    written = Written(seed)
    return play_game(home, away, written, rules=rules, neutral=neutral), written


class _InOrder:
    """Read a dice file's streams as the game asks and write each value down in order."""

    def __init__(self, streams: dict[str, list[int]]) -> None:
        self._streams = {die: iter(values) for die, values in streams.items()}
        self.values: list[int] = []

    def _roll(self, die: str) -> int:
        value = next(self._streams[die])
        self.values.append(value)
        return value

    def d8(self) -> int:
        return self._roll("d8")

    def d6(self) -> int:
        return self._roll("d6")

    def d20(self) -> int:
        return self._roll("d20")

    def record(self) -> DiceRecord:
        return SeededDice(0).record()


def written_from_file(
    home: TeamCard, away: TeamCard, doc: dict[str, list[int]], rules: GameRules = ADVANCED
) -> tuple[GameResult, list[int]]:
    """Play a ``vabg-dice/1`` file's dice; return the result and the values in the order
    the table types them."""
    reader = _InOrder({die: list(doc[die]) for die in ("d8", "d6", "d20")})
    return play_game(home, away, reader, rules=rules), reader.values
