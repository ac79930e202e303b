"""What the league's services refuse, each with a message that says why.

Interfaces catch these (and only these) to answer a user: the API as a 400, the admin as a
message, a command as a ``CommandError``. Anything else is a bug and is left to fail loudly.
"""

from __future__ import annotations


class GameNotPlayable(Exception):
    """Raise when a game cannot be simulated (a broken roster, a real-dice game...)."""


class ResultRefused(ValueError):
    """Raise for a typed-in result that does not add up; the message lists every problem."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("; ".join(problems))


class SeasonRefused(ValueError):
    """Raise for a league, season or tournament that cannot be set up; the message says why."""


class SimulationRefused(ValueError):
    """Raise for a simulation that cannot start (a scope without its round, a foreign game)."""


class OddsUnavailable(ValueError):
    """Raise when no odds can be given: a card the engine refuses, a game with no plays,
    a game or rules without odds (the message names the game)."""


class WhatIfRefused(ValueError):
    """Raise for a what-if that cannot happen: an unknown game, a team not in it."""
