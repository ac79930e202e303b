"""The state of a six-dice game: the court, the pawn, the chip, the scores (rulings §1.2-1.3).

The court has 14 sections in a line. Orange (the visitor, ``"away"``) defends section 1
and attacks toward section 14; White (home, ``"home"``) the other way. A team's *depth*
is the pawn's position as it attacks: 1 is the first section past the half-court line,
7 is under the basket, and the net lies beyond 7.
"""

from __future__ import annotations

from typing import NamedTuple

AWAY, HOME = "away", "home"
ORANGE, WHITE = AWAY, HOME
"""§1.3: Orange is team 1, the visitor; White is team 2, home."""
SIDES = (AWAY, HOME)

OFFENSE, DEFENSE = "offense", "defense"
JUMP, MAIN, INBOUND, OVER = "jump", "main", "inbound", "over"
PHASES = (JUMP, MAIN, INBOUND, OVER)

SECTIONS = 14
HALF = 7
"""§1.2: seven sections a half; a depth past 7 is the net."""
ARC = 4
"""§1.2: depth 4-7 is inside the arc (2-point shots), 1-3 outside (3-point shots)."""
TARGET = 21
"""§3: the first team to reach 21 wins at once."""


def other(side: str) -> str:
    """Return the opposing side."""
    return HOME if side == AWAY else AWAY


def depth_of(side: str, section: int) -> int:
    """Return the depth of ``section`` for ``side`` attacking (§1.2).

    >>> depth_of(ORANGE, 8), depth_of(WHITE, 7), depth_of(WHITE, 1)
    (1, 1, 7)
    """
    return section - HALF if side == AWAY else HALF + 1 - section


def section_of(side: str, depth: int) -> int:
    """Return the section at ``depth`` for ``side`` attacking (the inverse of :func:`depth_of`).

    Depths of 0 and below lie in the side's own half: Orange's depth -6 is section 1.
    """
    return depth + HALF if side == AWAY else HALF + 1 - depth


def under_basket(side: str) -> int:
    """Return the section under the basket ``side`` defends: where it inbounds from (G11)."""
    return 1 if side == AWAY else SECTIONS


class InvalidStateError(ValueError):
    """Raise for a starting position the rules cannot reach; the message names the field."""


class GameState(NamedTuple):
    """Hold a position of the game: what a policy sees and a scripted test starts from.

    ``offense`` is the team whose attacking half holds the pawn, or the team inbounding
    during an inbound race (§1.3). Before the jump ball nobody has the ball or the chip.
    ``penalty`` holds the teams that roll one die fewer on their next roll (§2.9).
    A named tuple, cheap to build: a policy sees one several times a roll.
    :meth:`check` says whether a position could arise; a table checks where it starts.
    """

    phase: str = JUMP
    offense: str | None = None
    section: int | None = None
    chip: str | None = None
    away_score: int = 0
    home_score: int = 0
    penalty: frozenset[str] = frozenset()

    def check(self) -> GameState:
        """Return the position, or raise :class:`InvalidStateError` naming what is wrong."""
        if self.phase not in PHASES:
            raise InvalidStateError(f"phase must be one of {', '.join(PHASES)}, got {self.phase!r}")
        for name in ("away_score", "home_score"):
            score = getattr(self, name)
            if isinstance(score, bool) or not isinstance(score, int) or score < 0:
                raise InvalidStateError(f"{name} must be a whole number >= 0, got {score!r}")
        if not self.penalty <= set(SIDES):
            raise InvalidStateError(f"penalty must name away or home, got {set(self.penalty)!r}")
        if self.phase == JUMP:
            if self.offense is not None or self.section is not None or self.chip is not None:
                raise InvalidStateError("before the jump ball no one has the ball or the chip")
            return self
        if self.offense not in SIDES or self.chip not in SIDES:
            raise InvalidStateError(
                f"offense and chip must each be away or home, got {self.offense!r}, {self.chip!r}"
            )
        section = self.section
        if isinstance(section, bool) or not isinstance(section, int):
            raise InvalidStateError(f"section must be a whole number 1-14, got {section!r}")
        if self.phase == MAIN and not 1 <= depth_of(self.offense, section) <= HALF:
            raise InvalidStateError(
                f"section {section} is not in the attacking half of the offense ({self.offense})"
            )
        if self.phase == INBOUND and section != under_basket(self.offense):
            raise InvalidStateError(
                f"an inbound starts under the inbounder's own basket, not at section {section}"
            )
        if self.phase != OVER and max(self.away_score, self.home_score) >= TARGET:
            raise InvalidStateError(f"a team with {TARGET} points has already won")
        return self

    @classmethod
    def main_roll(
        cls,
        offense: str,
        depth: int,
        chip: str,
        *,
        away_score: int = 0,
        home_score: int = 0,
        penalty: frozenset[str] = frozenset(),
    ) -> GameState:
        """Return a position before a main roll, with ``offense`` at ``depth``.

        >>> GameState.main_roll(ORANGE, 1, WHITE).section
        8
        """
        return cls(MAIN, offense, section_of(offense, depth), chip, away_score, home_score, penalty)

    @classmethod
    def inbound(
        cls,
        team: str,
        chip: str,
        *,
        away_score: int = 0,
        home_score: int = 0,
        penalty: frozenset[str] = frozenset(),
    ) -> GameState:
        """Return a position before ``team`` inbounds from under its own basket."""
        state = cls(INBOUND, team, under_basket(team), chip, away_score, home_score, penalty)
        return state.check()

    @property
    def defense(self) -> str | None:
        """Return the team without the ball (``None`` before the jump ball)."""
        return None if self.offense is None else other(self.offense)

    @property
    def depth(self) -> int:
        """Return the offense's depth (§1.2); below 1 during an inbound race."""
        if self.offense is None or self.section is None:
            raise InvalidStateError("before the jump ball the pawn is on no one's side")
        return depth_of(self.offense, self.section)

    def score(self, side: str) -> int:
        """Return ``side``'s points."""
        return self.away_score if side == AWAY else self.home_score

    @property
    def winner(self) -> str | None:
        """Return the team that reached 21, or ``None`` while the game goes on."""
        if self.away_score >= TARGET:
            return AWAY
        if self.home_score >= TARGET:
            return HOME
        return None
