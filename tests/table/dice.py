"""Dice for table tests: a seeded game's rolls written down in the order they were rolled."""

from __future__ import annotations

from simulator import SeededDice
from simulator.dice import ScriptedDice
from simulator.recording import RecordingDice
from simulator.results import GameResult
from simulator.vabg import ADVANCED, GameRules, TeamCard, play_game


class Written(RecordingDice):
    """Roll seeded dice and write each value down in the order the game asks for it."""

    def __init__(self, seed: int) -> None:
        super().__init__(SeededDice(seed))

    @property
    def values(self) -> list[int]:
        return [draw.value for draw in self.draws]

    @property
    def dice(self) -> list[str]:
        return [draw.die for draw in self.draws]


def rolled_game(
    home: TeamCard, away: TeamCard, seed: int, rules: GameRules = ADVANCED, neutral: bool = False
) -> tuple[GameResult, Written]:
    """Play a seeded game; return its result and the dice as they were written down."""
    written = Written(seed)
    return play_game(home, away, written, rules=rules, neutral=neutral), written


def written_from_file(
    home: TeamCard, away: TeamCard, doc: dict[str, list[int]], rules: GameRules = ADVANCED
) -> tuple[GameResult, list[int]]:
    """Play a ``vabg-dice/1`` file's dice; return the result and the values in the order
    the table types them."""
    reader = RecordingDice(ScriptedDice(**{die: list(doc[die]) for die in ("d8", "d6", "d20")}))
    return play_game(home, away, reader, rules=rules), [draw.value for draw in reader.draws]
