"""Exact odds with the coach policy on (vabg-rulings.md §8, §10; docs/odds.md).

With the strategy choices on, three calls read the score, all of them through the margin
(home minus away) at the moment they are made (``engine.CoachPolicy``):

- **try for 3**: at number ``n <= try3_within`` of any period, a team trailing by more
  than ``try3_deficit_over`` reads its main d20 on the try-for-3 table (not on an extra
  possession, unless a shot-clock re-roll made it a re-rolled trip);
- **intentional fouls**: before numbers 2 and 1 of any period, when one team trails by 1 to
  ``foul_deficit_max``, both teams play one extra possession first, the leader's fouled on
  purpose, the trailing team's an extra possession;
- **the fast-break extra possession**: at ``n <= extra_possession_within``, when a team that
  stole the ball still trails after its fast break, both teams play one extra possession
  after the number (once per number).

Everything else is still a function of the number alone, so the game is a Markov chain on
the margin, plus one bit inside a number (an extra possession is owed): a dynamic program
over (trip, margin, owed) is exact. Each trip's law is built by :mod:`simulator.vabg.odds`
from the engine's own reads, split by what the policy needs (the points with and without a
fast break, with and without the try for 3, as an extra possession, on purpose fouled).
To give each team's score law too, the program also carries the home team's points (a
second axis); the margin alone gives P(win), P(overtime), the margin law and the expected
points. An overtime starts tied, so its law does not depend on what came before, and once
every starter is tired the overtime periods repeat: the tail is a geometric series, as
without the policy.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from simulator.vabg.cards import TeamCard
from simulator.vabg.engine import DEFAULT_POLICY, CoachPolicy, EndlessGameError, Plan, _Side
from simulator.vabg.odds import (
    TRIM,
    GameOdds,
    Law,
    TripLaw,
    _add_overtimes,
    _overtime_scores,
    _Period,
    _state,
    _swing,
    _to_map,
    _Walk,
    endless_overtimes,
    field_odds,
    game_odds,
    matchup_odds,
)
from simulator.vabg.rules import ADVANCED, GameRules, chart_number, one_and_one

Pair = tuple[Law, Law]
"""A trip's law as the policy reads it: the offense's points with no fast break, and the
defense's points on a fast break (entry 0: a fast break that scores nothing)."""

INF = 1 << 30


@dataclass(frozen=True, slots=True)
class CoachLaws:
    """The laws one trip may be played with, by what the policy decides at that moment."""

    number: int
    plain: Pair
    try3: Pair | None  # the carrier tries for 3 (None past ``try3_within``)
    extra: Pair | None  # as an extra possession (None where none can be owed)
    extra_try3: Pair | None
    fouled: Law | None  # the defense fouls on purpose (numbers 2 and 1)


class _CoachWalk(_Walk):
    """Walk the engine's periods, keeping for each trip every law the policy may pick."""

    def __init__(
        self,
        home: TeamCard,
        away: TeamCard,
        rules: GameRules,
        neutral: bool,
        home_plan: Plan | None,
        away_plan: Plan | None,
        policy: CoachPolicy,
    ) -> None:
        super().__init__(home, away, rules, neutral, home_plan, away_plan, policy)
        self.policy = policy
        self.coach: dict[tuple[object, ...], CoachLaws] = {}
        self._shared: dict[tuple[object, ...], CoachLaws] = {}

    def _record(self, off: _Side, de: _Side, n: int, kind: str = "") -> None:
        game = self.game
        policy = self.policy
        chart = game.rules.rebound_chart and chart_number(n)
        bonus = one_and_one(game.period, n)
        off_key, de_key = _state(off), _state(de)
        try3 = n <= policy.try3_within
        extra = n <= max(policy.extra_possession_within, 2)
        fouled = n <= 2
        shared = (off_key, de_key, chart, bonus, try3, extra, fouled)
        laws = self._shared.get(shared)
        if laws is None:
            parts = self.parts

            def law(try3: bool, extra: bool) -> Pair:
                return parts.coach_law(off, de, n, off_key, de_key, try3=try3, extra=extra)

            laws = self._shared[shared] = CoachLaws(
                number=n,
                plain=law(False, False),
                try3=law(True, False) if try3 else None,
                extra=law(False, True) if extra else None,
                extra_try3=law(True, True) if extra and try3 else None,
                fouled=parts.fouling_law(off, de) if fouled else None,
            )
        key = (*shared, n)
        if key not in self.coach:
            self.coach[key] = CoachLaws(
                n, laws.plain, laws.try3, laws.extra, laws.extra_try3, laws.fouled
            )
        self.current.trips.append((off is game.home, key))


# -- a law over (margin, home points) -------------------------------------------------------


@dataclass(slots=True)
class _Dist:
    """Probabilities by margin (rows: row i is margin i - zero) and home points (columns;
    one column when the scores are not followed)."""

    a: npt.NDArray[np.float64]
    zero: int

    @property
    def low(self) -> int:
        return -self.zero

    @property
    def high(self) -> int:
        return int(self.a.shape[0]) - 1 - self.zero


def _unit() -> _Dist:
    return _Dist(np.ones((1, 1)), 0)


def _rows(d: _Dist | None, lo: int, hi: int) -> _Dist | None:
    """Return the part of ``d`` whose margin is in [lo, hi] (None when empty)."""
    if d is None:
        return None
    lo, hi = max(lo, d.low), min(hi, d.high)
    if lo > hi:
        return None
    return _Dist(d.a[lo + d.zero : hi + d.zero + 1], -lo)


def _plus(*parts: _Dist | None) -> _Dist | None:
    """Return the sum of laws over (margin, home points)."""
    found = [d for d in parts if d is not None]
    if not found:
        return None
    if len(found) == 1:
        return found[0]
    low = min(d.low for d in found)
    high = max(d.high for d in found)
    cols = max(d.a.shape[1] for d in found)
    out = np.zeros((high - low + 1, cols))
    for d in found:
        start = d.low - low
        out[start : start + d.a.shape[0], : d.a.shape[1]] += d.a
    return _Dist(out, -low)


def _move(d: _Dist, law: Law, sign: int, home_scores: bool) -> _Dist | None:
    """Return ``d`` after a team scores k with probability ``law[k]``: the margin moves by
    ``sign * k``, the home points by k when ``home_scores`` (and columns are followed)."""
    ks = np.nonzero(law)[0]
    if not len(ks):
        return None
    top = int(ks[-1])
    rows, cols = d.a.shape
    if cols == 1 and not home_scores:
        # The margin alone: one convolution (the law reversed when the margin goes down).
        column = np.convolve(d.a[:, 0], law[: top + 1] if sign > 0 else law[top::-1])
        return _Dist(column[:, None], d.zero + (0 if sign > 0 else top))
    grow = top if home_scores else 0
    out = np.zeros((rows + top, cols + grow))
    for k in ks.tolist():
        r = k if sign > 0 else top - k
        c = k if grow else 0
        out[r : r + rows, c : c + cols] += law[k] * d.a
    return _Dist(out, d.zero + (0 if sign > 0 else top))


def _trim(d: _Dist | None) -> tuple[_Dist | None, float]:
    """Cut the margins and home points at the ends holding less than TRIM; return the law
    and the mass cut."""
    if d is None:
        return None, 0.0
    a = d.a
    lost = 0.0
    by_row = a.sum(axis=1)
    head = np.cumsum(by_row)
    tail = np.cumsum(by_row[::-1])
    lo = int(np.searchsorted(head, TRIM))
    cut = int(np.searchsorted(tail, TRIM))
    lost += (float(head[lo - 1]) if lo else 0.0) + (float(tail[cut - 1]) if cut else 0.0)
    a = a[lo : a.shape[0] - cut]
    zero = d.zero - lo
    if a.shape[1] > 1 and a.size:
        by_col = a.sum(axis=0)
        tail = np.cumsum(by_col[::-1])
        cut = int(np.searchsorted(tail, TRIM))
        if cut:
            lost += float(tail[cut - 1])
            a = a[:, : a.shape[1] - cut]
    if not a.size:
        return None, lost
    return _Dist(a, zero), lost


class _Program:
    """The dynamic program of one game: trips applied to the law of the position."""

    def __init__(
        self, policy: CoachPolicy, coach: Mapping[tuple[object, ...], CoachLaws], scores: bool
    ) -> None:
        self.policy = policy
        self.scores = scores
        self.numbers: dict[tuple[int, int], tuple[Law, int, float, float]] = {}
        self.coach = coach
        self.mean_home = 0.0
        self.mean_away = 0.0
        self.lost = 0.0

    def _trip(
        self, d: _Dist | None, law: Pair, home_ball: bool
    ) -> tuple[_Dist | None, _Dist | None]:
        """Play one trip with one law: the positions with no fast break, and those after
        one."""
        if d is None:
            return None, None
        own, fast = law
        mass = float(d.a.sum())
        own_mean = float(np.arange(len(own)) @ own)
        fast_mean = float(np.arange(len(fast)) @ fast)
        if home_ball:
            self.mean_home += mass * own_mean
            self.mean_away += mass * fast_mean
        else:
            self.mean_away += mass * own_mean
            self.mean_home += mass * fast_mean
        sign = 1 if home_ball else -1
        scores = self.scores
        return (
            _move(d, own, sign, home_ball and scores),
            _move(d, fast, -sign, scores and not home_ball),
        )

    def _chosen(
        self, d: _Dist | None, home_ball: bool, plain: Pair, try3: Pair | None
    ) -> tuple[_Dist | None, _Dist | None]:
        """Play one trip, the carrier trying for 3 where his team trails by enough."""
        if try3 is None:
            return self._trip(d, plain, home_ball)
        over = self.policy.try3_deficit_over
        if home_ball:  # the home team trails: margin below -over
            trying, rest = _rows(d, -INF, -over - 1), _rows(d, -over, INF)
        else:
            trying, rest = _rows(d, over + 1, INF), _rows(d, -INF, over)
        a_none, a_fast = self._trip(rest, plain, home_ball)
        b_none, b_fast = self._trip(trying, try3, home_ball)
        return _plus(a_none, b_none), _plus(a_fast, b_fast)

    def _extra(self, d: _Dist | None, laws: CoachLaws, home_ball: bool) -> _Dist | None:
        """Play an extra possession (its fast breaks owe nothing more)."""
        assert laws.extra is not None
        none, fast = self._chosen(d, home_ball, laws.extra, laws.extra_try3)
        return _plus(none, fast)

    def _fouled(self, d: _Dist | None, laws: CoachLaws, home_ball: bool) -> _Dist | None:
        """Play a possession the defense fouls on purpose."""
        if d is None:
            return None
        assert laws.fouled is not None
        none, _ = self._trip(d, (laws.fouled, np.zeros(1)), home_ball)
        return none

    def number(self, d: _Dist, away: CoachLaws, home: CoachLaws) -> _Dist:
        """Play one number: 2a/1a first when a team fouls, the two trips, and the extra
        possessions a fast break may owe."""
        policy = self.policy
        n = away.number
        if not self.scores and away.try3 is None and n > policy.extra_possession_within and n > 2:
            # The policy cannot act in this number: its two trips as one law of the margin.
            key = (id(away), id(home))
            number = self.numbers.get(key)
            if number is None:
                number = self.numbers[key] = _number_law(away, home)
            swing, offset, mean_home, mean_away = number
            mass = float(d.a.sum())
            self.mean_home += mass * mean_home
            self.mean_away += mass * mean_away
            column = np.convolve(d.a[:, 0], swing)
            return _Dist(column[:, None], d.zero + offset)
        if n <= 2:
            # §10: a team trailing by 1 to foul_deficit_max fouls; both play one more first.
            top = policy.foul_deficit_max
            home_leads = _rows(d, 1, top)
            away_leads = _rows(d, -top, -1)
            rest = _plus(_rows(d, -INF, -top - 1), _rows(d, 0, 0), _rows(d, top + 1, INF))
            home_leads = self._fouled(self._extra(home_leads, away, False), home, True)
            away_leads = self._extra(self._fouled(away_leads, away, False), home, True)
            merged = _plus(rest, home_leads, away_leads)
            assert merged is not None
            d = merged
        owes = n <= policy.extra_possession_within
        none, fast = self._chosen(d, False, away.plain, away.try3)
        if not owes:
            after_away = _plus(none, fast)
            none, fast = self._chosen(after_away, True, home.plain, home.try3)
            out = _plus(none, fast)
            assert out is not None
            return out
        # The home team stole on the visitor's trip: it owes extra trips if still behind.
        owed = _rows(fast, -INF, -1)
        free = _plus(none, _rows(fast, 0, INF))
        none, fast = self._chosen(free, True, home.plain, home.try3)
        free = _plus(none, _rows(fast, -INF, 0))
        owed_now = _rows(fast, 1, INF)  # the visitor stole and still trails
        none, fast = self._chosen(owed, True, home.plain, home.try3)
        owed = _plus(none, fast, owed_now)
        owed = self._extra(self._extra(owed, away, False), home, True)
        out = _plus(free, owed)
        assert out is not None
        return out

    def period(self, period: _Period, start: _Dist) -> _Dist:
        """Play a period's numbers from ``start``."""
        trips = period.trips
        assert len(trips) % 2 == 0 and all(not t[0] for t in trips[::2]), "visitor, then home"
        d = start
        for i in range(0, len(trips), 2):
            d = self.number(d, self.coach[trips[i][1]], self.coach[trips[i + 1][1]])
            trimmed, cut = _trim(d)
            self.lost += cut
            if trimmed is None:
                raise EndlessGameError(["the game's law vanished while it was being solved"])
            d = trimmed
        return d


def _number_law(away: CoachLaws, home: CoachLaws) -> tuple[Law, int, float, float]:
    """Return a number's law of the margin where the policy cannot act (its two trips
    convolved), the index of margin 0, and the expected points of each team."""
    # A fast break that scores nothing (the fast law's 0) sits at margin 0, as does own[0].
    a_swing, a_zero = _swing(TripLaw(*away.plain), False)
    h_swing, h_zero = _swing(TripLaw(*home.plain), True)

    def mean(law: Law) -> float:
        return float(np.arange(len(law)) @ law)

    mean_home = mean(home.plain[0]) + mean(away.plain[1])
    mean_away = mean(away.plain[0]) + mean(home.plain[1])
    return np.convolve(a_swing, h_swing), a_zero + h_zero, mean_home, mean_away


def _margin(d: _Dist) -> tuple[Law, int]:
    """Return the law of the margin and the index of margin 0 (kept inside the array)."""
    margin = d.a.sum(axis=1)
    zero = d.zero
    if zero < 0:
        margin, zero = np.concatenate([np.zeros(-zero), margin]), 0
    if zero >= len(margin):
        margin = np.concatenate([margin, np.zeros(zero + 1 - len(margin))])
    return margin, zero


def _split_scores(d: _Dist) -> tuple[Law, Law, Law]:
    """Return the home and away points of the decided positions, and the tied ones' points
    (home = away)."""
    a = d.a
    rows, cols = a.shape
    tie = a[d.zero].copy() if 0 <= d.zero < rows else np.zeros(1)
    home = a.sum(axis=0)
    home[: len(tie)] -= tie
    # Away points = home points - margin; margins above the home points hold nothing.
    away = np.zeros(cols + max(0, d.zero))
    for r in range(rows):
        m = r - d.zero
        if m == 0:
            continue
        row = a[r]
        if m > 0:
            away[: cols - m] += row[m:]
        else:
            away[-m : cols - m] += row
    np.maximum(home, 0.0, out=home)
    return home, away, tie


def coach_odds(
    home: TeamCard,
    away: TeamCard,
    *,
    rules: GameRules = ADVANCED,
    neutral: bool = False,
    home_plan: Plan | None = None,
    away_plan: Plan | None = None,
    policy: CoachPolicy = DEFAULT_POLICY,
    scores: bool = True,
) -> GameOdds:
    """Return the exact law of a game ``play_game`` plays with the coach policy on
    (``rules.strategy``), as :func:`simulator.vabg.odds.game_odds` does without it; the
    score laws only when ``scores``."""
    walk = _CoachWalk(home, away, rules, neutral, home_plan, away_plan, policy)
    regulation, overtimes = walk.periods()
    program = _Program(policy, walk.coach, scores)
    reg = program.period(regulation, _unit())
    reg_home, reg_away = program.mean_home, program.mean_away
    lost = program.lost
    ots = []
    for ot_period in overtimes:
        program = _Program(policy, walk.coach, scores)
        ots.append((program.period(ot_period, _unit()), program.mean_home, program.mean_away))
        lost += program.lost
    added = _add_overtimes(
        *_margin(reg),
        [(*_margin(ot), ot_home, ot_away) for ot, ot_home, ot_away in ots],
        (home.label, away.label),
    )
    margin, zero = added.margin, added.zero
    home_map: dict[int, float] = {}
    away_map: dict[int, float] = {}
    lost = max(lost, 1.0 - float(margin.sum()))
    if scores:
        home_law, away_law, tie = _split_scores(reg)
        splits = [_split_scores(ot) for ot, _, _ in ots]
        home_law, away_law = _overtime_scores(home_law, away_law, tie, splits)
        home_map = _to_map(home_law, -20)
        away_map = _to_map(away_law, -20)
        lost = max(lost, 1.0 - float(home_law.sum()), 1.0 - float(away_law.sum()))
    return GameOdds(
        p_home_win=float(margin[zero + 1 :].sum()),
        p_away_win=float(margin[:zero].sum()),
        p_overtime=added.tied,
        expected_overtimes=added.expected_overtimes,
        expected_home_pts=20.0 + reg_home + added.extra_home,
        expected_away_pts=20.0 + reg_away + added.extra_away,
        margin=_to_map(margin, zero),
        home_score=home_map,
        away_score=away_map,
        lost=max(0.0, lost),
    )


def exact_odds(
    home: TeamCard,
    away: TeamCard,
    *,
    rules: GameRules = ADVANCED,
    neutral: bool = False,
    home_plan: Plan | None = None,
    away_plan: Plan | None = None,
    scores: bool = True,
) -> GameOdds:
    """Return the exact law of the game ``play_game`` plays with these rules, the coach
    policy on or off: the one entry point for callers that take either."""
    if rules.strategy:
        return coach_odds(
            home,
            away,
            rules=rules,
            neutral=neutral,
            home_plan=home_plan,
            away_plan=away_plan,
            scores=scores,
        )
    if scores or home_plan is not None or away_plan is not None:
        odds = game_odds(
            home, away, rules=rules, neutral=neutral, home_plan=home_plan, away_plan=away_plan
        )
        return odds if scores else replace(odds, home_score={}, away_score={})
    return matchup_odds(home, away, rules=rules, neutral=neutral)


def exact_field_odds(
    teams: Sequence[TeamCard],
    pairs: Iterable[tuple[int, int]] | None = None,
    *,
    rules: GameRules = ADVANCED,
    neutral: bool = False,
) -> dict[tuple[int, int], GameOdds]:
    """Return :func:`simulator.vabg.odds.field_odds` (no score laws), the coach policy on
    or off; with it on, each pair is solved on its own (about 13 ms a pair), every
    ordered pair by default."""
    if not rules.strategy:
        return field_odds(teams, pairs, rules=rules, neutral=neutral)
    if pairs is None:
        pairs = itertools.permutations(range(len(teams)), 2)
    return {
        (i, j): coach_odds(teams[i], teams[j], rules=rules, neutral=neutral, scores=False)
        for i, j in pairs
    }


# -- the live win probability with the policy on ----------------------------------------------


REACH = 200
"""Margins followed by :class:`CoachLiveOdds`; past them the leader is taken to win (a swing
of 200 points in what is left of a game has no chance a float can hold)."""


def _pull(values: Law, law: Law, sign: int) -> Law:
    """Return ``u[m] = sum_k law[k] * values[m + sign * k]`` over the followed margins,
    taking 0 below them and 1 above."""
    size = len(values)
    top = len(law) - 1
    padded = np.concatenate([np.zeros(top), values, np.ones(top)])
    out = np.zeros(size)
    for k in np.nonzero(law)[0].tolist():
        start = top + sign * k
        out += law[k] * padded[start : start + size]
    return out


class CoachLiveOdds:
    """P(home wins) from any regular trip's start of a game played with the coach policy on.

    The same positions as :class:`simulator.vabg.liveodds.LiveOdds` (the start of each of
    the period's own trips, the policy's extra possessions inside them), computed backwards
    over the margin: the value of a position is the chance-weighted value of where its trip
    leads, the policy's calls read from the margin as the engine reads them. At the start
    of the home team's trip, ``owed`` says whether the visitor's trip of the same number
    already owes the extra possessions (the home team stole, ran, and still trails).
    """

    def __init__(
        self,
        home: TeamCard,
        away: TeamCard,
        *,
        rules: GameRules = ADVANCED,
        neutral: bool = False,
        policy: CoachPolicy = DEFAULT_POLICY,
    ) -> None:
        walk = _CoachWalk(home, away, rules, neutral, None, None, policy)
        regulation, overtimes = walk.periods()
        self.policy = policy
        self._coach = walk.coach
        self._periods = [regulation, *overtimes]
        self._margins = np.arange(-REACH, REACH + 1)
        last = len(overtimes)
        # P(home wins | overtime j starts), j = 1 .. the repeating one.
        self._overtime = [0.0] * (last + 1)
        if last:
            win = self._backward(last, 0.0)[0][0][REACH]
            with_ties = self._backward(last, 1.0)[0][0][REACH]
            tie = with_ties - win
            if tie > 1.0 - 1e-12:
                raise endless_overtimes(home.label, away.label)
            self._overtime[last] = win / (1.0 - tie)
            for j in range(last - 1, 0, -1):
                self._overtime[j] = self._backward(j, self._overtime[j + 1])[0][0][REACH]
        self._tables = [
            self._backward(p, self._overtime[min(p + 1, last)]) for p in range(last + 1)
        ]

    def trips_in(self, period: int) -> int:
        """Return how many regular trips a period holds (88 in regulation)."""
        return len(self._periods[min(period, len(self._periods) - 1)].trips)

    def p_home_win(self, period: int, done: int, margin: int, owed: bool = False) -> float:
        """Return P(home wins) at the start of trip ``done`` of ``period`` (``done`` = all
        of them: the period is over), the home team ``margin`` points ahead."""
        trips = self.trips_in(period)
        if not 0 <= done <= trips:
            raise ValueError(f"period {period} has {trips} trips, not {done}")
        if margin > REACH or margin < -REACH:
            return 1.0 if margin > 0 else 0.0
        table = self._tables[min(period, len(self._tables) - 1)]
        values = table[done]
        value = values[1 if owed and len(values) > 1 else 0][margin + REACH]
        return min(1.0, max(0.0, float(value)))

    def _trip(self, after: Law, owed_after: Law | None, law: Pair, home_ball: bool) -> Law:
        """Value before a trip whose outcomes lead to ``after`` (a fast break to
        ``owed_after`` where the stealer then trails, when given)."""
        own, fast = law
        sign = 1 if home_ball else -1
        out = _pull(after, own, sign)
        if owed_after is not None:
            # The stealer still trails after his fast break: home if away had the ball.
            trails = self._margins > 0 if home_ball else self._margins < 0
            after = np.where(trails, owed_after, after)
        return out + _pull(after, fast, -sign)

    def _chosen(
        self,
        after: Law,
        owed_after: Law | None,
        home_ball: bool,
        plain: Pair,
        try3: Pair | None,
    ) -> Law:
        """Value before a trip, the carrier trying for 3 where his team trails by enough."""
        value = self._trip(after, owed_after, plain, home_ball)
        if try3 is None:
            return value
        over = self.policy.try3_deficit_over
        trying = self._margins < -over if home_ball else self._margins > over
        return np.where(trying, self._trip(after, owed_after, try3, home_ball), value)

    def _backward(self, period: int, tie_value: float) -> list[tuple[Law, ...]]:
        """Return, for each trip start of the period and its end, the value by margin
        (two at a home trip's start: nothing owed, extra possessions owed)."""
        policy = self.policy
        margins = self._margins
        trips = self._periods[period].trips
        end = np.where(margins > 0, 1.0, np.where(margins < 0, 0.0, tie_value))
        values: list[tuple[Law, ...]] = [(end,)]
        after = end  # the value at the start of the next number, before any foul round
        for i in range(len(trips) - 2, -1, -2):
            away, home = self._coach[trips[i][1]], self._coach[trips[i + 1][1]]
            n = away.number
            if n <= policy.extra_possession_within:
                assert away.extra is not None and home.extra is not None
                extras = self._chosen(after, None, True, home.extra, home.extra_try3)
                extras = self._chosen(extras, None, False, away.extra, away.extra_try3)
                home_owed = self._chosen(extras, None, True, home.plain, home.try3)
                home_free = self._chosen(after, extras, True, home.plain, home.try3)
                start = self._chosen(home_free, home_owed, False, away.plain, away.try3)
                values.append((home_free, home_owed))
            else:
                home_free = self._chosen(after, None, True, home.plain, home.try3)
                start = self._chosen(home_free, None, False, away.plain, away.try3)
                values.append((home_free,))
            values.append((start,))
            if n <= 2:
                # §10: before 2 and 1 a team trailing by 1 to foul_deficit_max fouls.
                assert away.fouled is not None and home.fouled is not None
                assert away.extra is not None and home.extra is not None
                top = policy.foul_deficit_max
                zeros = np.zeros(1)
                away_trails = self._trip(start, None, (home.fouled, zeros), True)
                away_trails = self._chosen(away_trails, None, False, away.extra, away.extra_try3)
                home_trails = self._chosen(start, None, True, home.extra, home.extra_try3)
                home_trails = self._trip(home_trails, None, (away.fouled, zeros), False)
                start = np.where(
                    (margins >= 1) & (margins <= top),
                    away_trails,
                    np.where((margins <= -1) & (margins >= -top), home_trails, start),
                )
            after = start
        values.reverse()
        return values
