"""The game engines: pure Python, no Django, no I/O, dice through a dice source.

One package per game (``simulator.vabg`` today); dice sources and result types
are shared (``simulator.dice``, ``simulator.results``). The VABG engine's hot modules may
run compiled by mypyc from the same source (``make native``): :mod:`simulator.native`
decides which copy Python imports, before any of them is imported.
"""

from simulator import native

native.choose()

from simulator.dice import DiceScriptExhausted, DiceSource, ScriptedDice, SeededDice  # noqa: E402
from simulator.results import GameResult, PlayerLine, TeamBox  # noqa: E402

__all__ = [
    "DiceScriptExhausted",
    "DiceSource",
    "GameResult",
    "PlayerLine",
    "ScriptedDice",
    "SeededDice",
    "TeamBox",
]
