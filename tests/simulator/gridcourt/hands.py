"""A grid-court game's choices written down as a player at the table types them."""

from __future__ import annotations

from collections.abc import Set

from simulator.games import Result, StyledTeam, TeamName
from simulator.gridcourt.engine import play_game
from simulator.gridcourt.hand import announce_token, place_token, step_token
from simulator.gridcourt.policy import DEFAULT_POLICY, Policy
from simulator.gridcourt.rules import STANDARD, GridRules
from simulator.gridcourt.state import GridState
from tests.table.dice import Written

# Teams that play the rulings' §4 policy wherever the computer moves them (a bare name plays
# the default coach style in ``Game.play``).
HOME_TEAM, AWAY_TEAM = StyledTeam("Kansas", 2008, None), StyledTeam("Memphis", 2008, None)


class Recorder:
    """One side's default policy, writing each answer as the token a player would type
    into one list shared by both sides (in the order the engine asks)."""

    def __init__(self, tokens: list[str] | None, policy: Policy = DEFAULT_POLICY) -> None:
        self.tokens, self.policy = tokens, policy

    def _note(self, token: str) -> None:
        if self.tokens is not None:
            self.tokens.append(token)

    def place(self, role: str, state: GridState):  # type: ignore[no-untyped-def]
        cells = self.policy.place(role, state)
        self._note(place_token(cells))
        return cells

    def announce(self, state: GridState) -> int | None:
        piece = self.policy.announce(state)
        if state.open_pieces():  # with no open piece the table does not ask
            self._note(announce_token(piece))
        return piece

    def offense_steps(self, state: GridState, t: int):  # type: ignore[no-untyped-def]
        steps = self.policy.offense_steps(state, t)
        self._note(step_token(steps))
        return steps

    def defense_steps(self, state: GridState, d: int):  # type: ignore[no-untyped-def]
        steps = self.policy.defense_steps(state, d)
        self._note(step_token(steps))
        return steps


def recorded(
    seed: int,
    hands: Set[str],
    rules: GridRules = STANDARD,
    home: TeamName = HOME_TEAM,
    away: TeamName = AWAY_TEAM,
) -> tuple[Result, list[int], list[str]]:
    """Play a seeded game with the default policy; return it, its d6 stream in the order
    rolled and the tokens the ``hands`` sides would type for the same choices."""
    tokens: list[str] = []
    dice = Written(seed)
    played = play_game(
        home,
        away,
        dice,
        rules,
        home_policy=Recorder(tokens if "home" in hands else None),
        away_policy=Recorder(tokens if "away" in hands else None),
    )
    return played, dice.values, tokens
