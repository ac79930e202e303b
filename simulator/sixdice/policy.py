"""The choices a six-dice team makes, and the default policy (sixdice-rulings.md §4).

The engine asks a policy object five questions (§4.5) and refuses with
:class:`PolicyError` any answer the rules forbid. :data:`DEFAULT_POLICY` plays the
deterministic choices of §4.1-4.4; a smarter policy, or a table-top player, answers the
same questions.
"""

from __future__ import annotations

from collections.abc import Set
from dataclasses import dataclass
from typing import Protocol

from simulator.sixdice.rules import BALL, FREE_THROW, PASS, SHOT
from simulator.sixdice.state import ARC, HALF, OFFENSE, GameState

ADVANCE, SHOOT = "advance", "shoot"
MAIN_CONTEST, SHOT_CONTEST = "main", "shot"


class PolicyError(ValueError):
    """Raise when a policy answers what the rules forbid; the message names the question."""


@dataclass(frozen=True, slots=True)
class Tie:
    """The symbols tied for a team's most frequent, and how many dice show each (G6).

    ``rival_n`` is the other team's n in a main roll when the engine knows it (``None``
    otherwise): a team whose n is lower loses the roll whatever it picks (only an equal n
    goes to the chip), so its pick cannot matter.
    """

    plays: tuple[str, ...]
    n: int
    rival_n: int | None = None

    @property
    def moot(self) -> bool:
        """Return whether the pick cannot matter: the team loses the roll whatever it is."""
        return self.rival_n is not None and self.n < self.rival_n


@dataclass(frozen=True, slots=True)
class Contest:
    """A main roll or a shot as the chip holder sees it, once every die is read.

    ``value`` is the holder's n (main roll) or Ball total with the arc's +1/-1 (shot);
    ``dice`` are its die values in die order (five when it was penalized).
    """

    kind: str
    side: str
    dice: tuple[int, ...]
    faces: tuple[str, ...]
    value: int
    opponent_dice: tuple[int, ...]
    opponent_faces: tuple[str, ...]
    opponent_value: int


class Policy(Protocol):
    """Answer the choices the rules leave to a team (§4.5)."""

    def choose_play(self, tied: Tie, role: str, state: GameState) -> str:
        """Return the play among ``tied.plays``; ``role`` is ``"offense"`` or ``"defense"``."""
        ...

    def ball_action(self, n: int, state: GameState) -> str:
        """Return ``"advance"`` or ``"shoot"`` after the offense wins with n Balls (n < 6)."""
        ...

    def push_out(self, state: GameState) -> bool:
        """Return whether the offense, shooting inside the arc, moves out to shoot a 3."""
        ...

    def use_chip(self, contest: Contest, state: GameState) -> bool:
        """Return whether the chip holder plays the chip to win a tied contest."""
        ...

    def reroll(self, contest: Contest, state: GameState) -> Set[int]:
        """Return the die numbers the chip holder rerolls (empty: keep the chip), §2.11."""
        ...


_OFFENSE_INSIDE = (BALL, SHOT, PASS, FREE_THROW)
_OFFENSE_OUTSIDE = (PASS, BALL, FREE_THROW, SHOT)
_DEFENSE = (SHOT, FREE_THROW, PASS, BALL)


class DefaultPolicy:
    """Play the deterministic choices of §4.1-4.4."""

    def choose_play(self, tied: Tie, role: str, state: GameState) -> str:
        """Pick a play on a tie within a team (§4.1).

        >>> from simulator.sixdice.state import ORANGE, WHITE
        >>> at_2 = GameState.main_roll(ORANGE, 2, WHITE)
        >>> DEFAULT_POLICY.choose_play(Tie(("B", "S"), 2), "defense", at_2)
        'B'
        """
        d, n, plays = state.depth, tied.n, tied.plays
        if role == OFFENSE:
            if BALL in plays and d + n > HALF:
                return BALL  # a dunk
            if PASS in plays and d + 3 > HALF:
                return PASS  # a dunk
            order = _OFFENSE_INSIDE if d >= ARC else _OFFENSE_OUTSIDE
        else:
            ball_steals = BALL in plays and n >= d
            pass_steals = PASS in plays and d <= 3
            if ball_steals and pass_steals:
                return BALL if n > 3 else PASS  # the longer push; equal at 3, §4.1 takes Pass
            if ball_steals:
                return BALL
            if pass_steals:
                return PASS
            order = _DEFENSE
        return next(play for play in order if play in plays)

    def ball_action(self, n: int, state: GameState) -> str:
        """Dunk if d+n > 7, else shoot inside the arc, else advance (§4.2)."""
        d = state.depth
        if d + n > HALF:
            return ADVANCE
        return SHOOT if d >= ARC else ADVANCE

    def push_out(self, state: GameState) -> bool:
        """Never push out for a 3: a 2 wins its contest 61% of the time, a 3 19% (§4.2)."""
        return False

    def use_chip(self, contest: Contest, state: GameState) -> bool:
        """Always play the chip to win a tie (§4.3)."""
        return True

    def reroll(self, contest: Contest, state: GameState) -> Set[int]:
        """In a shot the holder is losing, reroll every die not showing a Ball (§4.4)."""
        if contest.kind != SHOT_CONTEST or contest.value >= contest.opponent_value:
            return frozenset()
        return frozenset(i for i, face in enumerate(contest.faces, 1) if face != BALL)


DEFAULT_POLICY = DefaultPolicy()
