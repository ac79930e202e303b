"""The Value Add Basketball Game: cards, rules, events and the engine."""

from simulator.vabg.cards import (
    D20Column,
    InvalidCardError,
    PlayerCard,
    TeamCard,
    read_team_file,
    team_from_json,
)
from simulator.vabg.coaching import DEFAULT_POLICY, Coach, CoachPolicy, ExactCoach
from simulator.vabg.engine import (
    EndlessGameError,
    Plan,
    RotationError,
    play_game,
)
from simulator.vabg.events import box_score
from simulator.vabg.rules import (
    ADVANCED,
    BASIC,
    RULES_VERSION,
    CoachKind,
    GameRules,
    RulesVersionError,
    preset,
)

__all__ = [
    "ADVANCED",
    "BASIC",
    "DEFAULT_POLICY",
    "RULES_VERSION",
    "Coach",
    "CoachKind",
    "CoachPolicy",
    "D20Column",
    "EndlessGameError",
    "ExactCoach",
    "GameRules",
    "InvalidCardError",
    "Plan",
    "PlayerCard",
    "RotationError",
    "RulesVersionError",
    "TeamCard",
    "box_score",
    "play_game",
    "preset",
    "read_team_file",
    "team_from_json",
]
