"""The game engines: pure Python, no Django, no I/O, dice through a dice source.

One package per game (``simulator.vabg`` today); dice sources and result types
are shared (``simulator.dice``, ``simulator.results``).
"""

from simulator.dice import DiceScriptExhausted, DiceSource, ScriptedDice, SeededDice
from simulator.results import GameResult, PlayerLine, TeamBox

__all__ = [
    "DiceScriptExhausted",
    "DiceSource",
    "GameResult",
    "PlayerLine",
    "ScriptedDice",
    "SeededDice",
    "TeamBox",
]
