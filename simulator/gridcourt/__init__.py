"""The grid-court game (gridcourt-rulings.md): a board, pieces, two dice and first to 21."""

from simulator.gridcourt.court import Court, court
from simulator.gridcourt.engine import GameOverError, Table, play_game
from simulator.gridcourt.events import GridTeamBox, PieceLine, box_score, event_from_json
from simulator.gridcourt.policy import DEFAULT_POLICY, DefaultPolicy, Policy, PolicyError
from simulator.gridcourt.rules import (
    PRESETS,
    RULES_VERSION,
    STANDARD,
    GridRules,
    InvalidRulesError,
)
from simulator.gridcourt.state import GridState, InvalidStateError

__all__ = [
    "DEFAULT_POLICY",
    "PRESETS",
    "RULES_VERSION",
    "STANDARD",
    "Court",
    "DefaultPolicy",
    "GameOverError",
    "GridRules",
    "GridState",
    "GridTeamBox",
    "InvalidRulesError",
    "InvalidStateError",
    "PieceLine",
    "Policy",
    "PolicyError",
    "Table",
    "box_score",
    "court",
    "event_from_json",
    "play_game",
]
