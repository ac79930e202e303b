"""Who makes the strategy choices of vabg-rulings.md §8 and §10: the coach the engine reads.

With ``GameRules.strategy`` on, a trailing team may try for 3 on a trip, call for the
intentional foul before 2 and 1 (both teams then play 2a or 1a first), and, after a fast
break in the last 5 numbers, give both teams one extra possession. The engine asks a
:class:`Coach` for each number's :class:`NumberCalls`: for each choice, the margins (home
minus away) at which the trailing team makes it. Two coaches answer:

- :class:`ExactCoach` (rules version 3 on, ``CoachKind.EXACT``): each choice is the one
  with the higher chance of winning from that position, read from the exact odds by
  backward induction (:func:`simulator.vabg.coachodds.solve_coach`);
- :class:`CoachPolicy`: the fixed thresholds games stored before rules version 3 were
  played with (``CoachKind.THRESHOLDS``).

The engine keeps the rules themselves (§10: only a trailing team chooses; the windows of
:mod:`simulator.vabg.rules`); a coach only says which margins act. This module is pure
Python: the engine imports it; solving a coach needs NumPy and lives in ``coachodds``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

Spans = tuple[range, ...]
"""Margins (home minus away) as sorted, disjoint ranges: where a choice is made."""

NOWHERE: Spans = ()

_FAR = 1 << 30  # a margin no game reaches: the thresholds' spans run out to it


def in_spans(spans: Spans, margin: int) -> bool:
    """Return whether ``margin`` lies in one of ``spans``.

    >>> in_spans((range(-30, -3), range(5, 9)), -4), in_spans((range(-30, -3),), -3)
    (True, False)
    """
    return any(margin in span for span in spans)


def spans_of(margins: Iterable[int]) -> Spans:
    """Return the spans holding exactly ``margins``.

    >>> spans_of([-7, -6, -5, 2, 3])
    (range(-7, -4), range(2, 4))
    """
    out: list[range] = []
    start = end = None
    for m in sorted(set(margins)):
        if end is not None and m == end:
            end += 1
            continue
        if start is not None and end is not None:
            out.append(range(start, end))
        start, end = m, m + 1
    if start is not None and end is not None:
        out.append(range(start, end))
    return tuple(out)


class Step(StrEnum):
    """Where in a number a possession is played: a choice is read at its own step."""

    AWAY = "away"
    """The visitor's possession of the number (it always goes first, §1)."""
    HOME = "home"
    """The home team's possession, no extra possession owed yet."""
    HOME_OWED = "home owed"
    """The home team's possession, the extra possessions already owed (§8)."""
    AWAY_EXTRA = "away extra"
    """The visitor's fast-break extra possession, played after the number (§8)."""
    HOME_EXTRA = "home extra"
    """The home team's fast-break extra possession."""
    AWAY_FOUL_ROUND = "away 2a/1a"
    """The visitor's own extra possession of a foul round it called (§10)."""
    HOME_FOUL_ROUND = "home 2a/1a"
    """The home team's own extra possession of a foul round it called."""


HOME_BALL = frozenset({Step.HOME, Step.HOME_OWED, Step.HOME_EXTRA, Step.HOME_FOUL_ROUND})
"""The steps at which the home team has the ball."""


@dataclass(frozen=True, slots=True)
class NumberCalls:
    """The choices of one number of one period: for each, the margins (home minus away, at
    the moment of the choice) at which the trailing team makes it.

    - ``foul``: before the number (2 and 1 only), the trailing team calls for the
      intentional foul (§10);
    - ``try3``: one per :class:`Step`, in :class:`Step` order: the team with the ball
      tries for 3 on the trip's main d20 read (on an extra possession only after a
      shot-clock re-roll, which the engine plays as a re-rolled trip);
    - ``home_extra`` / ``away_extra``: after its fast break on the other team's trip of
      the number (n <= 5), the team still trailing gives both teams one extra
      possession (§8); the margin is the one after the fast break.
    """

    foul: Spans = NOWHERE
    try3: tuple[Spans, ...] = (NOWHERE,) * len(Step)
    home_extra: Spans = NOWHERE
    away_extra: Spans = NOWHERE

    def tries_for_3(self, step: Step, margin: int) -> bool:
        """Return whether the team with the ball at ``step`` tries for 3 at ``margin``."""
        return in_spans(self.try3[_STEP_INDEX[step]], margin)

    def takes_extra(self, step: Step, margin: int) -> bool:
        """Return whether the team that fast-broke on the ``step`` trip (``Step.AWAY``: the
        home team did) takes the extra possessions at ``margin``, the one after it."""
        return in_spans(self.home_extra if step == Step.AWAY else self.away_extra, margin)


_STEP_INDEX = {step: i for i, step in enumerate(Step)}
NEVER = NumberCalls()
"""A number in which no choice is made."""


class Coach(Protocol):
    """What the engine asks of a coach: the choices of each number of each period."""

    def calls(self, period: int, n: int) -> NumberCalls:
        """Return the choices of number ``n`` of ``period`` (0 = regulation)."""
        ...


@dataclass(frozen=True, slots=True)
class CoachPolicy:
    """Make the strategy choices of §8 and §10 by fixed thresholds (rules before version 3).

    - **fast-break extra possession**: a team still trailing after a fast break in the
      last ``extra_possession_within`` numbers of a period (at most the rules' 5) gives
      both teams one extra possession (once per number);
    - **intentional fouls**: before 2 and 1 of any period, a team trailing by 1 to
      ``foul_deficit_max`` points calls for the foul; both teams then play the extra
      possession and the trailing team fouls on its defensive one;
    - **try for 3**: on a trip at number ``n <= try3_within`` of any period, a team
      trailing by more than ``try3_deficit_over`` points tries for 3 on the trip's main
      d20 read.
    """

    extra_possession_within: int = 5
    foul_deficit_max: int = 8
    try3_within: int = 10
    try3_deficit_over: int = 3

    def calls(self, period: int, n: int) -> NumberCalls:
        """Return the thresholds' choices of number ``n`` (the same in every period)."""
        over = self.try3_deficit_over
        top = self.foul_deficit_max
        home_try = (range(-_FAR, -over),) if n <= self.try3_within else NOWHERE
        away_try = (range(over + 1, _FAR),) if n <= self.try3_within else NOWHERE
        extra = n <= self.extra_possession_within
        return NumberCalls(
            foul=(range(-top, 0), range(1, top + 1)) if top > 0 else NOWHERE,
            try3=tuple(home_try if step in HOME_BALL else away_try for step in Step),
            home_extra=(range(-_FAR, 0),) if extra else NOWHERE,
            away_extra=(range(1, _FAR),) if extra else NOWHERE,
        )


DEFAULT_POLICY = CoachPolicy()
"""The thresholds games stored before rules version 3 were played with."""


@dataclass(frozen=True, slots=True)
class NoChoices:
    """A coach that makes no choice at all: the game with the strategy choices on played
    as without them (and the coach of a game that is only walked, never rolled)."""

    def calls(self, period: int, n: int) -> NumberCalls:
        """Return a number in which no choice is made."""
        return NEVER


NO_CHOICES = NoChoices()


@dataclass(frozen=True, slots=True)
class ExactCoach:
    """Make each strategy choice by the exact odds: the one with the higher chance of
    winning for the team that makes it (docs/engine.md, "The coach").

    Built by :func:`simulator.vabg.coachodds.solve_coach` for two cards, the rules and the
    court. ``periods[p][i]`` holds the choices of number ``length - i`` of period ``p``
    (regulation, then the overtimes up to the one that repeats for ever after: the last
    holds for every later overtime). Margins beyond ``reach`` points were not solved: no
    choice is made there.
    """

    periods: tuple[tuple[NumberCalls, ...], ...]
    reach: int

    def calls(self, period: int, n: int) -> NumberCalls:
        """Return the choices of number ``n`` of ``period``."""
        numbers = self.periods[min(period, len(self.periods) - 1)]
        return numbers[len(numbers) - n]
