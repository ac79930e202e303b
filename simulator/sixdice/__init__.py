"""The six-dice game to 21 (seed 002, sixdice-rulings.md): rules, state, policy, engine."""

from simulator.sixdice.engine import (
    MAX_MAIN_ROLLS,
    EndlessGameError,
    ScriptRanOut,
    SixDiceResult,
    Table,
    play_game,
)
from simulator.sixdice.events import COLUMNS, SixDiceBox, box_score, event_from_json
from simulator.sixdice.inputs import dice_from_json
from simulator.sixdice.policy import (
    DEFAULT_POLICY,
    Contest,
    DefaultPolicy,
    Policy,
    PolicyError,
    Tie,
)
from simulator.sixdice.rules import (
    CHIP_REROLL,
    PRESETS,
    RULES_VERSION,
    STANDARD,
    InvalidRulesError,
    SixDiceRules,
    preset,
)
from simulator.sixdice.state import AWAY, HOME, ORANGE, WHITE, GameState, InvalidStateError

__all__ = [
    "AWAY",
    "CHIP_REROLL",
    "COLUMNS",
    "DEFAULT_POLICY",
    "HOME",
    "MAX_MAIN_ROLLS",
    "ORANGE",
    "PRESETS",
    "RULES_VERSION",
    "STANDARD",
    "WHITE",
    "Contest",
    "DefaultPolicy",
    "EndlessGameError",
    "GameState",
    "InvalidRulesError",
    "InvalidStateError",
    "Policy",
    "PolicyError",
    "ScriptRanOut",
    "SixDiceBox",
    "SixDiceResult",
    "SixDiceRules",
    "Table",
    "Tie",
    "box_score",
    "dice_from_json",
    "event_from_json",
    "play_game",
    "preset",
]
