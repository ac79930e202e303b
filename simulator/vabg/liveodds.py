"""The live win probability of a game at the table, from the exact odds (docs/table.md).

With the strategy choices off, a game is a sum of independent trips whose laws depend on
(period, number, side) only, never on the score (docs/odds.md). So once a trip is over,
what is left of the game is the same whatever happened before it: P(home wins) from a
position is P(margin now + margin of the trips left > 0), plus the chance that regulation
(or this overtime) ends tied times P(home wins | the next overtime starts). This module
reads the trip laws :mod:`simulator.vabg.odds` computes and adds up only the trips left.

The position is taken at the start of a trip: inside a trip (a rebound, free throws) the
chance shown is the one from before its d8. With the coach policy on, trips read the
score: :class:`~simulator.vabg.coachodds.CoachLiveOdds` solves that game backwards over the
margin, and this class refuses it (:class:`~simulator.vabg.odds.StrategyNotSolvedError`).
"""

from __future__ import annotations

from simulator.vabg.cards import TeamCard
from simulator.vabg.odds import Law, PeriodTrips, Walk, convolve, margin_swing, period_sums
from simulator.vabg.rules import ADVANCED, GameRules


class LiveOdds:
    """P(home wins) from any trip boundary of one game, exactly (to the odds' 1e-12)."""

    def __init__(
        self, home: TeamCard, away: TeamCard, *, rules: GameRules = ADVANCED, neutral: bool = False
    ) -> None:
        walk = Walk(home, away, rules, neutral, None, None)
        regulation, overtimes = walk.periods()
        self._laws = walk.laws
        self._periods = [regulation, *overtimes]
        # _overtime[j]: P(home wins | overtime j is played), j = 1 .. the repeating one.
        last = len(overtimes)
        self._overtime = [0.0] * (last + 1)
        for j in range(last, 0, -1):
            margin, zero = self._rest(j, 0)
            win = float(margin[zero + 1 :].sum())
            tie = float(margin[zero]) if 0 <= zero < len(margin) else 0.0
            if j == last:
                self._overtime[j] = win / (1.0 - tie) if tie < 1.0 else 0.5
            else:
                self._overtime[j] = win + tie * self._overtime[j + 1]

    def trips_in(self, period: int) -> int:
        """Return how many trips a period holds (88 in regulation with no extras)."""
        return len(self._period(period).trips)

    def _period(self, period: int) -> PeriodTrips:
        return self._periods[min(period, len(self._periods) - 1)]

    def _rest(self, period: int, done: int) -> tuple[Law, int]:
        """Return the law of the margin (home - away) of the period's trips after ``done``,
        and the index of margin 0."""
        trips = self._period(period).trips[done:]
        first: tuple[Law, int] | None = None
        if trips and trips[0][0]:
            # The home team's half of a number: its own trip, then whole numbers.
            first = margin_swing(self._laws[trips[0][1]], True)
            trips = trips[1:]
        sums = period_sums(PeriodTrips(list(trips)), self._laws, scores=False)
        margin, zero = sums.margin, sums.offset
        if first is not None:
            margin, zero = convolve(first[0], margin), first[1] + zero
        return margin, zero

    def p_home_win(self, period: int, done: int, margin: int, owed: bool = False) -> float:
        """Return P(home wins) with ``done`` trips of ``period`` played and the home team
        ``margin`` points ahead (``owed`` is for the coach policy's odds, ``CoachLiveOdds``:
        without it no extra possession is ever owed)."""
        if not 0 <= done <= self.trips_in(period):
            raise ValueError(f"period {period} has {self.trips_in(period)} trips, not {done}")
        law, zero = self._rest(period, done)
        tie_at = zero - margin  # the index where margin + rest = 0
        win = float(law[max(0, tie_at + 1) :].sum()) if tie_at + 1 < len(law) else 0.0
        tie = float(law[tie_at]) if 0 <= tie_at < len(law) else 0.0
        after = self._overtime[min(period + 1, len(self._overtime) - 1)]
        return min(1.0, max(0.0, win + tie * after))
