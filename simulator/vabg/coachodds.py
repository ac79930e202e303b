"""The exact coach and the exact odds with the strategy choices on (vabg-rulings.md §8, §10).

With ``GameRules.strategy`` on, three choices read the score, all of them through the
margin (home minus away) at the moment they are made, and only a trailing team makes them
(§10):

- **try for 3**: on any trip, the team with the ball reads its main d20 on the try-for-3
  table (on an extra possession only after a shot-clock re-roll, which the engine plays
  as a re-rolled trip);
- **intentional fouls**: before numbers 2 and 1 of any period, the trailing team may call
  for the foul: both teams play one extra possession first, the leader's fouled on
  purpose, the trailing team's an extra possession;
- **the fast-break extra possession**: at n <= 5, a team that stole the ball and still
  trails after its fast break may give both teams one extra possession after the number
  (once per number).

Everything else is a function of the number alone, so the game is a Markov chain on the
margin, plus one bit inside a number (an extra possession is owed). Each trip's law is
built by :mod:`simulator.vabg.odds` from the engine's own reads, split by what a choice
needs (the points with and without a fast break, with and without the try for 3, as an
extra possession, fouled on purpose).

**The exact coach** (:func:`solve_coach`) makes each choice by backward induction over
(trip, margin, owed): the value of a position is the chance-weighted value of where its
trip leads, and at each choice the team that makes it takes the action with the higher
chance of winning for itself. Both chances are carried, P(home wins) and P(away wins),
so each team's is exact to its own relative precision however small it is. An action is
taken only when it raises the chooser's chance by more than one part in ``DECISIVE``
(a smaller gain is rounding: the plain action is kept). A tie at the end of regulation is
worth the overtime's value; overtimes have choices of their own, and once every starter
is tired the overtime periods repeat, so the last one's value is a fixed point, solved
exactly (the choices at a guess, then the exact value of those choices by the geometric
series, again until the choices repeat).

**The odds** of a game with a given coach (:func:`coach_odds`): a forward program over
the same states carries the law of the position, split at each choice into the margins
where the coach acts and those where it does not; it also carries the home team's points
(a second axis) when the score laws are asked for. An overtime starts tied, so its law
does not depend on what came before, and the overtime tail is a geometric series.

**What it costs** (docs/odds.md, "Speed"): each trip of the backward program is one
correlation of all the value rows at once, each row padded by the leader's win past the
solved margins (the pads written once per shape of pull, in a buffer the values are
copied into); the try for 3 is pulled, compared and merged on the trailing half alone,
and after a steal the try's fast breaks, the plain trip's own law (a steal comes before
the main read), are read from the plain trip's pull. A game's trip laws become moves of
the margin once, for every period's backward and forward programs (:class:`_Swings`), and
the walk keeps each law by what it reads (the sides' states, the rebound chart, the
one-and-one), not by number. None of it changes a sum: the coach and the odds are the
same to the last bit.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from simulator.vabg.cards import TeamCard
from simulator.vabg.coaching import (
    DEFAULT_POLICY,
    NO_CHOICES,
    NOWHERE,
    Coach,
    ExactCoach,
    NumberCalls,
    Spans,
    Step,
)
from simulator.vabg.engine import EndlessGameError, Plan, Side
from simulator.vabg.events import TripKind
from simulator.vabg.odds import (
    TRIM,
    ChoiceLaw,
    GameOdds,
    Law,
    PeriodTrips,
    TripLaw,
    Walk,
    add_overtimes,
    endless_overtimes,
    field_odds,
    game_odds,
    margin_swing,
    matchup_odds,
    overtime_scores,
    side_state,
    to_map,
)
from simulator.vabg.rules import (
    ADVANCED,
    CoachKind,
    GameRules,
    chart_number,
    may_call_foul_round,
    may_take_extra_possession,
    one_and_one,
)

Pair = ChoiceLaw
"""A trip's law as a choice reads it (:class:`~simulator.vabg.odds.ChoiceLaw`)."""

REACH = 200
"""Margins solved by the backward program, -REACH..REACH; past them the leader is taken to
win (a swing of 200 points in what is left of a game has no chance a float can hold), and
the exact coach makes no choice there."""
DECISIVE = 1e-9
"""An action is taken only when it raises the chooser's chance of winning by more than
this fraction of it: below that the two values are equal up to rounding, and the plain
action is kept (so the choices never depend on the order of floating-point sums)."""
MAX_FIXED_POINT_ROUNDS = 50
"""Rounds of the last overtime's fixed point before the choices are taken as settled."""

INF = 1 << 30
_MARGINS = np.arange(-REACH, REACH + 1)
_BEHIND = _MARGINS < 0  # the home team trails
_AHEAD = _MARGINS > 0  # the visitor trails
_SIZE = 2 * REACH + 1
_STEPS = tuple(Step)
_STEP_INDEX = {step: i for i, step in enumerate(_STEPS)}
_HOME_BALL = {
    Step.AWAY: False,
    Step.HOME: True,
    Step.HOME_OWED: True,
    Step.AWAY_EXTRA: False,
    Step.HOME_EXTRA: True,
    Step.AWAY_FOUL_ROUND: False,
    Step.HOME_FOUL_ROUND: True,
}


@dataclass(frozen=True, slots=True)
class CoachLaws:
    """The laws one trip may be played with, by what the coach decides at that moment."""

    number: int
    plain: Pair
    try3: Pair | None  # the carrier tries for 3 (None where that changes nothing)
    extra: Pair | None  # as an extra possession (None where none can be played)
    extra_try3: Pair | None
    fouled: Law | None  # the defense fouls on purpose (numbers 2 and 1)


class _CoachWalk(Walk):
    """Walk the engine's periods, keeping for each trip every law a choice may pick."""

    def __init__(
        self,
        home: TeamCard,
        away: TeamCard,
        rules: GameRules,
        neutral: bool,
        home_plan: Plan | None,
        away_plan: Plan | None,
    ) -> None:
        # The walk's coach makes no choice: the score stays level while the periods are walked.
        super().__init__(home, away, rules, neutral, home_plan, away_plan, NO_CHOICES)
        self.coach: dict[tuple[object, ...], CoachLaws] = {}
        # A trip's laws read the number only through the rebound rule and the one-and-one:
        # each law is kept by (the sides' states, chart, bonus, try for 3, extra), and
        # whether the try for 3 moves anything by (the sides' states, chart, bonus).
        self._laws: dict[tuple[object, ...], Pair] = {}
        self._moves: dict[tuple[object, ...], bool] = {}
        self._fouled: dict[tuple[object, ...], Law] = {}

    def on_trip(self, off: Side, de: Side, n: int, kind: TripKind = TripKind.PLAIN, /) -> None:
        game = self.game
        chart = game.rules.rebound_chart and chart_number(n)
        bonus = one_and_one(game.period, n)
        off_key, de_key = side_state(off), side_state(de)
        key = (off_key, de_key, chart, bonus, n)
        if key not in self.coach:
            extra = may_take_extra_possession(n) or may_call_foul_round(n)
            fouled = may_call_foul_round(n)
            shared = (off_key, de_key, chart, bonus)

            def law(try3: bool, extra: bool) -> Pair:
                found = self._laws.get((*shared, try3, extra))
                if found is None:
                    found = self.parts.coach_law(
                        off, de, n, off_key, de_key, try3=try3, extra=extra
                    )
                    if try3:
                        # The try changes the main d20 read alone, never the fast breaks
                        # (a steal comes first): both laws share one (the solver reads it so).
                        runs = law(False, extra).fast
                        if found.fast is runs or np.array_equal(found.fast, runs):
                            found = Pair(found.own, runs)
                    self._laws[(*shared, try3, extra)] = found
                return found

            plain = law(False, False)
            moves = self._moves.get(shared)
            if moves is None:
                # a carrier with no 3-made range cannot try
                moves = self._moves[shared] = not _same(law(True, False), plain)
            fouling = None
            if fouled:
                fouling = self._fouled.get((off_key, de_key))
                if fouling is None:
                    fouling = self._fouled[(off_key, de_key)] = self.parts.fouling_law(off, de)
            self.coach[key] = CoachLaws(
                number=n,
                plain=plain,
                try3=law(True, False) if moves else None,
                extra=law(False, True) if extra else None,
                extra_try3=law(True, True) if extra and moves else None,
                fouled=fouling,
            )
        self.current.trips.append((off is game.home, key))


def _same(a: Pair, b: Pair) -> bool:
    return all(len(x) == len(y) and bool((x == y).all()) for x, y in zip(a, b, strict=True))


def _numbers(
    period: PeriodTrips, laws: Mapping[tuple[object, ...], CoachLaws]
) -> list[tuple[CoachLaws, CoachLaws]]:
    """Return a period's numbers in the order played: (the visitor's laws, the home team's)."""
    trips = period.trips
    assert len(trips) % 2 == 0 and all(not t[0] for t in trips[::2]), "visitor, then home"
    return [(laws[trips[i][1]], laws[trips[i + 1][1]]) for i in range(0, len(trips), 2)]


# -- the choices of one number, as masks over the solved margins ------------------------------


@dataclass(slots=True)
class _Masks:
    """The choices of one number: where (a boolean per margin -REACH..REACH) each is made;
    None where it is made nowhere."""

    foul: npt.NDArray[np.bool_] | None = None
    try3: list[npt.NDArray[np.bool_] | None] = field(default_factory=lambda: [None] * len(Step))
    home_extra: npt.NDArray[np.bool_] | None = None
    away_extra: npt.NDArray[np.bool_] | None = None

    def same(self, other: _Masks) -> bool:
        mine = [self.foul, *self.try3, self.home_extra, self.away_extra]
        theirs = [other.foul, *other.try3, other.home_extra, other.away_extra]
        return all(_equal(a, b) for a, b in zip(mine, theirs, strict=True))


def _some(a: npt.NDArray[np.bool_]) -> bool:
    """Return whether ``a`` holds a True (``np.count_nonzero``: a quarter of ``.any()``'s
    cost on these short arrays)."""
    return bool(np.count_nonzero(a))


def _equal(a: npt.NDArray[np.bool_] | None, b: npt.NDArray[np.bool_] | None) -> bool:
    a_any = a is not None and _some(a)
    b_any = b is not None and _some(b)
    if not a_any or not b_any:
        return a_any == b_any
    assert a is not None and b is not None
    return bool((a == b).all())


def _mask(spans: Spans) -> npt.NDArray[np.bool_] | None:
    """Return the mask of spans over the solved margins (None when it holds none)."""
    out = None
    for span in spans:
        lo, hi = max(span.start, -REACH), min(span.stop, REACH + 1)
        if lo < hi:
            if out is None:
                out = np.zeros(_SIZE, dtype=bool)
            out[lo + REACH : hi + REACH] = True
    return out


def _coach(periods: Sequence[Sequence[_Masks]]) -> ExactCoach:
    """Return the coach of every period's choices: each mask (a boolean per margin) read as
    its spans of margins, the edges of all the masks found in one NumPy pass."""
    flat: list[npt.NDArray[np.bool_] | None] = []
    for period in periods:
        for m in period:
            flat.extend((m.foul, *m.try3, m.home_extra, m.away_extra))
    held = [i for i, mask in enumerate(flat) if mask is not None]
    spans: list[Spans] = [NOWHERE] * len(flat)
    if held:
        stacked = np.zeros((len(held), _SIZE + 2), dtype=np.int8)
        stacked[:, 1:-1] = np.array([flat[i] for i in held])
        rows, cols = np.nonzero(np.diff(stacked, axis=1))
        # Each row starts and ends outside its spans: its edges alternate, a span's first
        # margin and the one after its last, and come row by row.
        found: dict[int, list[range]] = {}
        for row, lo, hi in zip(
            rows[::2].tolist(),
            (cols[::2] - REACH).tolist(),
            (cols[1::2] - REACH).tolist(),
            strict=True,
        ):
            found.setdefault(row, []).append(range(lo, hi))
        for row, ranges in found.items():
            spans[held[row]] = tuple(ranges)
    width = 3 + len(Step)
    out = []
    at = 0
    for period in periods:
        numbers = []
        for _ in period:
            numbers.append(
                NumberCalls(
                    foul=spans[at],
                    try3=tuple(spans[at + 1 : at + 1 + len(Step)]),
                    home_extra=spans[at + width - 2],
                    away_extra=spans[at + width - 1],
                )
            )
            at += width
        out.append(tuple(numbers))
    return ExactCoach(periods=tuple(out), reach=REACH)


def _masks(calls: NumberCalls) -> _Masks:
    return _Masks(
        foul=_mask(calls.foul),
        try3=[_mask(spans) for spans in calls.try3],
        home_extra=_mask(calls.home_extra),
        away_extra=_mask(calls.away_extra),
    )


# -- the backward program: the value of every position ---------------------------------------

_Values = npt.NDArray[np.float64]
"""Values by margin: one row per quantity followed (rows 0 and 1: P(home wins) and
P(away wins)), one column per margin -REACH..REACH."""
_WIN_ROWS = (np.array([0.0, 1.0]), np.array([1.0, 0.0]))
"""Below and above the solved margins: the leader wins (P(home), P(away))."""
_OWN_ROWS = (np.array([0.0, 1.0, 0.0]), np.array([1.0, 0.0, 0.0]))
"""The same for a period's own P(home wins), P(away wins) and P(it ends tied)."""


def _ends(tie: tuple[float, float]) -> _Values:
    """Return the value at a period's end: the winner's, a tie worth ``tie`` (P(home),
    P(away) once the next overtime starts)."""
    ahead = (_MARGINS > 0).astype(float)
    behind = (_MARGINS < 0).astype(float)
    level = (_MARGINS == 0).astype(float)
    return np.array([ahead + tie[0] * level, behind + tie[1] * level])


def _own_ends() -> _Values:
    """Return a period's own ends: P(home wins), P(away wins), P(tied) at each margin."""
    return np.array([_MARGINS > 0, _MARGINS < 0, _MARGINS == 0], dtype=float)


@dataclass(slots=True)
class _PeriodValues:
    """A period solved backwards: the value at its start, at each trip start (two at a
    home trip's start where an extra possession may be owed: nothing owed, owed) and its
    end, and the choices of each number in the order played."""

    start: _Values
    tables: list[tuple[_Values, ...]]
    masks: list[_Masks]


class _Decision(NamedTuple):
    """One choice the backward program made (kept only when asked, for the tests).

    The number; what: a :class:`Step`'s value (try for 3 there), ``"foul"``, ``"home
    takes extra"`` or ``"away takes extra"``; whether the home team chooses; and the
    values (P(home wins) and P(away wins) by margin) if it acts and if it does not.
    """

    number: int
    choice: str
    home: bool
    act: _Values
    plain: _Values


class _Swings:
    """A game's trip laws as moves of the margin, each made once for the backward and
    the forward programs of all its periods: by (the law, the home team has the ball,
    the part)."""

    __slots__ = ("moves", "swings")

    def __init__(self) -> None:
        self.swings: dict[tuple[int, bool, int], tuple[Law, int]] = {}
        self.moves: dict[tuple[int, bool], _Moves] = {}

    def swing(self, law: Pair, home_ball: bool, part: int) -> tuple[Law, int]:
        """Return a trip's law of the margin's move and the index of move 0: both parts
        (``part`` 0), the offense's points alone (1) or the fast breaks alone (2)."""
        key = (id(law[0]), home_ball, part)
        found = self.swings.get(key)
        if found is None:
            own, fast = law
            if part == 0:
                found = margin_swing(TripLaw(own, fast), home_ball)
            elif part == 1:
                found = (own, 0) if home_ball else (own[::-1].copy(), len(own) - 1)
            else:
                found = (fast[::-1].copy(), len(fast) - 1) if home_ball else (fast, 0)
            self.swings[key] = found
        return found

    def forward(self, law: Pair, home_ball: bool) -> _Moves:
        """Return a trip's moves as the forward program reads them."""
        key = (id(law[0]), home_ball)
        found = self.moves.get(key)
        if found is None:
            own, fast = law
            both, both_zero = self.swing(law, home_ball, 0)
            own_swing, own_zero = self.swing(law, home_ball, 1)
            fast_swing, fast_zero = self.swing(law, home_ball, 2)
            found = self.moves[key] = _Moves(
                both[::-1].copy(),
                both_zero,
                own_swing[::-1].copy(),
                own_zero,
                float(np.arange(len(own)) @ own),
                fast_swing[::-1].copy(),
                fast_zero,
                float(np.arange(len(fast)) @ fast),
            )
        return found


@dataclass(frozen=True, slots=True)
class _Scratch:
    """The padded input of one shape of pull (:meth:`_Back._pull`): ``buffer`` holds, per
    row, the values of columns ``start``..``stop - 1``, those past the solved margins
    filled with the leader's win once, the solved ones (columns ``lo``..``hi - 1`` of the
    values; all of them when ``whole``) copied into ``target`` at each pull; ``flat`` is
    its flat view, the rows one after the other (what the correlation reads)."""

    buffer: _Values
    flat: Law
    target: _Values
    lo: int
    hi: int
    whole: bool

    @classmethod
    def make(cls, low: _Values, high: _Values, start: int, stop: int) -> _Scratch:
        buffer = np.empty((len(low), stop - start))
        lo, hi = max(start, 0), min(stop, _SIZE)
        buffer[:, : lo - start] = low[:, None]
        buffer[:, hi - start :] = high[:, None]
        target = buffer[:, lo - start : hi - start]
        return cls(buffer, buffer.ravel(), target, lo, hi, (lo, hi) == (0, _SIZE))


class _Kernel(NamedTuple):
    """One pull of a trip law (:meth:`_Back._pull`): the law of the margin's move (move d
    at index ``d + zero``), the padded input it reads, and the output's columns."""

    swing: Law
    scratch: _Scratch
    rows: int
    width: int
    columns: int


class _Back:
    """The backward program of one period: values pulled back trip by trip, each choice
    made where it raises the chooser's chance (or read from ``given``)."""

    def __init__(
        self,
        low: _Values,
        high: _Values,
        record: list[_Decision] | None = None,
        swings: _Swings | None = None,
    ) -> None:
        self.low = low
        self.high = high
        self.swings = _Swings() if swings is None else swings
        # A pull's input, padded: by (index of move 0, moves above it, lo, hi).
        self.scratch: dict[tuple[int, int, int, int], _Scratch] = {}
        # Each pull's kernel: by (the law, home has the ball, part, lo).
        self.kernels: dict[tuple[int, bool, int, int], _Kernel] = {}
        self.record = record
        self.n = 0

    def _kernel(self, law: Pair, home_ball: bool, part: int, lo: int, hi: int) -> _Kernel:
        """Return the kernel of a pull of ``law`` (``part`` as in :meth:`_Swings.swing`)
        for the margins of columns ``lo``..``hi - 1``."""
        key = (id(law[0]), home_ball, part, lo)
        found = self.kernels.get(key)
        if found is None:
            swing, zero = self.swings.swing(law, home_ball, part)
            above = len(swing) - 1 - zero
            shape = (zero, above, lo, hi)
            scratch = self.scratch.get(shape)
            if scratch is None:
                scratch = self.scratch[shape] = _Scratch.make(
                    self.low, self.high, lo - zero, hi + above
                )
            rows, width = scratch.buffer.shape
            found = self.kernels[key] = _Kernel(swing, scratch, rows, width, hi - lo)
        return found

    def _pull(self, values: _Values, kernel: _Kernel) -> _Values:
        """Return ``out[m] = sum_d swing[d + zero] * values[m + d]`` for the margins of the
        kernel's columns, the values past the solved margins read as the leader's win."""
        scratch = kernel.scratch
        # One copy of the values read into a buffer whose pads are already in place.
        scratch.target[...] = values if scratch.whole else values[:, scratch.lo : scratch.hi]
        # One correlation for every row at once: each row's pads keep the rows apart.
        flat = np.correlate(scratch.flat, kernel.swing, "valid")
        flat.resize(kernel.rows * kernel.width, refcheck=False)
        return flat.reshape(kernel.rows, kernel.width)[:, : kernel.columns]

    def trip(
        self,
        after: _Values,
        fast_after: _Values | None,
        law: Pair,
        home_ball: bool,
        lo: int = 0,
        hi: int = _SIZE,
    ) -> _Values:
        """Return the value before a trip whose outcomes lead to ``after`` (a fast break
        to ``fast_after`` when given: the fast-breaking team's choice already made), at
        the margins of columns ``lo``..``hi - 1``."""
        kernel = self._kernel
        if fast_after is None:
            return self._pull(after, kernel(law, home_ball, 0, lo, hi))
        return self._pull(after, kernel(law, home_ball, 1, lo, hi)) + self._pull(
            fast_after, kernel(law, home_ball, 2, lo, hi)
        )

    def chosen(
        self,
        after: _Values,
        fast_after: _Values | None,
        plain: Pair,
        try3: Pair | None,
        step: Step,
        out: _Masks,
        given: _Masks | None,
    ) -> _Values:
        """Return the value before a trip the team with the ball may try for 3 on; note
        where it does in ``out``."""
        home_ball = _HOME_BALL[step]
        if fast_after is None:
            runs = None
            value = self.trip(after, None, plain, home_ball)
        else:
            runs = self._pull(fast_after, self._kernel(plain, home_ball, 2, 0, _SIZE))
            value = self._pull(after, self._kernel(plain, home_ball, 1, 0, _SIZE)) + runs
        if try3 is None:
            return value
        i = _STEP_INDEX[step]
        if given is not None and given.try3[i] is None:
            return value
        # Only the trailing team tries (§10): the try is counted where it trails, the
        # columns lo..hi - 1 (_BEHIND or _AHEAD), and the choice is made there alone.
        lo, hi = (0, REACH) if home_ball else (REACH + 1, _SIZE)
        if runs is not None and try3.fast is plain.fast:
            # The try changes the main d20 read alone: the fast breaks' part is the same.
            own = self._pull(after, self._kernel(try3, home_ball, 1, lo, hi))
            trying = own + runs[:, lo:hi]
        else:
            trying = self.trip(after, fast_after, try3, home_ball, lo, hi)
        if given is not None:
            mask = given.try3[i]
            where = None if mask is None else mask[lo:hi]
        else:
            row = 0 if home_ball else 1
            where = trying[row] > value[row, lo:hi] * (1.0 + DECISIVE)  # as _better reads
            mask = None
            if np.count_nonzero(where):  # (a quarter of .any()'s cost)
                mask = np.zeros(_SIZE, dtype=bool)
                mask[lo:hi] = where
            if self.record is not None:
                act = value.copy()
                act[:, lo:hi] = trying
                self.record.append(_Decision(self.n, step.value, home_ball, act, value.copy()))
        out.try3[i] = mask
        if mask is not None:
            # ``value`` is this call's own array: the try taken in place where it is chosen.
            np.copyto(value[:, lo:hi], trying, where=where)
        return value

    def owed(
        self,
        owed: _Values,
        free: _Values,
        home_runs: bool,
        out: _Masks,
        given: _Masks | None,
    ) -> _Values:
        """Return the value right after a fast break by the home team (``home_runs``) or
        the visitor: where it still trails it takes the extra possessions (``owed``) or
        not (``free``), as it chooses."""
        if given is not None:
            mask = given.home_extra if home_runs else given.away_extra
        else:
            mask = _better(owed, free, home_runs)
            if self.record is not None:
                what = "home takes extra" if home_runs else "away takes extra"
                self.record.append(_Decision(self.n, what, home_runs, owed, free))
        if home_runs:
            out.home_extra = mask
        else:
            out.away_extra = mask
        return free if mask is None else np.where(mask, owed, free)

    def number(
        self, after: _Values, away: CoachLaws, home: CoachLaws, given: _Masks | None
    ) -> tuple[_Values, tuple[_Values, ...], _Masks]:
        """Return a number's value before it (its foul round included), its trip starts'
        values (the visitor's, the home team's) and its choices."""
        out = _Masks()
        n = self.n = away.number
        chosen = self.chosen
        if may_take_extra_possession(n):
            assert away.extra is not None and home.extra is not None
            extras = chosen(after, None, home.extra, home.extra_try3, Step.HOME_EXTRA, out, given)
            extras = chosen(extras, None, away.extra, away.extra_try3, Step.AWAY_EXTRA, out, given)
            home_owed = chosen(extras, None, home.plain, home.try3, Step.HOME_OWED, out, given)
            runs = self.owed(extras, after, False, out, given)  # the visitor ran on home's trip
            home_free = chosen(after, runs, home.plain, home.try3, Step.HOME, out, given)
            runs = self.owed(home_owed, home_free, True, out, given)
            start = chosen(home_free, runs, away.plain, away.try3, Step.AWAY, out, given)
            home_starts: tuple[_Values, ...] = (home_free, home_owed)
        else:
            home_free = chosen(after, None, home.plain, home.try3, Step.HOME, out, given)
            start = chosen(home_free, None, away.plain, away.try3, Step.AWAY, out, given)
            home_starts = (home_free,)
        trip_starts = (start, *home_starts)
        if may_call_foul_round(n):
            # §10: the visitor trails: its own extra possession, then the home team is
            # fouled; the home team trails: the visitor is fouled, then its own.
            assert away.fouled is not None and home.fouled is not None
            assert away.extra is not None and home.extra is not None
            nothing = np.zeros(1)
            fouled_home = self.trip(start, None, Pair(home.fouled, nothing), True)
            away_calls = chosen(
                fouled_home, None, away.extra, away.extra_try3, Step.AWAY_FOUL_ROUND, out, given
            )
            home_own = chosen(
                start, None, home.extra, home.extra_try3, Step.HOME_FOUL_ROUND, out, given
            )
            home_calls = self.trip(home_own, None, Pair(away.fouled, nothing), False)
            if given is not None:
                out.foul = given.foul
            else:
                away_mask = _better(away_calls, start, False)
                home_mask = _better(home_calls, start, True)
                if self.record is not None:
                    self.record.append(_Decision(n, "foul", False, away_calls, start))
                    self.record.append(_Decision(n, "foul", True, home_calls, start))
                out.foul = _either(away_mask, home_mask)
            if out.foul is not None:
                start = np.where(
                    out.foul & (_MARGINS > 0),
                    away_calls,
                    np.where(out.foul & (_MARGINS < 0), home_calls, start),
                )
        return start, trip_starts, out

    def period(
        self,
        numbers: Sequence[tuple[CoachLaws, CoachLaws]],
        end: _Values,
        given: Sequence[_Masks] | None,
    ) -> _PeriodValues:
        """Return the period solved backwards from the values at its end."""
        after = end
        tables: list[tuple[_Values, ...]] = [(end,)]
        masks: list[_Masks] = []
        for i in range(len(numbers) - 1, -1, -1):
            away, home = numbers[i]
            after, (start, *home_starts), out = self.number(
                after, away, home, None if given is None else given[i]
            )
            tables.append(tuple(home_starts))
            tables.append((start,))
            masks.append(out)
        tables.reverse()
        masks.reverse()
        return _PeriodValues(after, tables, masks)


def _better(act: _Values, plain: _Values, home: bool) -> npt.NDArray[np.bool_] | None:
    """Return where the team (``home`` or the visitor), trailing, wins more often with
    the action than without (by more than ``DECISIVE`` of its chance; §10: only a trailing
    team chooses); None where nowhere."""
    row = 0 if home else 1
    mask = (_BEHIND if home else _AHEAD) & (act[row] > plain[row] * (1.0 + DECISIVE))
    return mask if np.count_nonzero(mask) else None


def _either(
    a: npt.NDArray[np.bool_] | None, b: npt.NDArray[np.bool_] | None
) -> npt.NDArray[np.bool_] | None:
    if a is None:
        return b
    if b is None:
        return a
    return a | b


def _plain_overtime(
    numbers: Sequence[tuple[CoachLaws, CoachLaws]], swings: _Swings
) -> tuple[float, float]:
    """Return (P(home wins), P(away wins)) of an overtime repeated until it ends untied,
    no choice made (a first guess of its value with them)."""
    law = _Flat(swings).period(numbers, [_Masks()] * len(numbers))
    tied = float(law[REACH])
    if tied > 1.0 - 1e-12:
        return 0.5, 0.5  # (the exact value refuses such cards)
    return float(law[REACH + 1 :].sum()) / (1.0 - tied), float(law[:REACH].sum()) / (1.0 - tied)


@dataclass(slots=True)
class _Solution:
    """A game solved backwards: every period's values and choices (the last overtime's
    hold for every later one), and each overtime's (P(home wins), P(away wins)) from its
    start."""

    periods: list[_PeriodValues]
    overtime: list[tuple[float, float]]


def _solve(
    numbers: Sequence[Sequence[tuple[CoachLaws, CoachLaws]]],
    given: Sequence[Sequence[_Masks]] | None,
    labels: tuple[str, str],
    swings: _Swings,
) -> _Solution:
    """Solve every period backwards: the choices made by the exact coach, or read from
    ``given`` (a coach's choices, per period and number)."""
    last = len(numbers) - 1
    back = _Back(*_WIN_ROWS, swings=swings)
    # The last overtime repeats for ever after: its tie is worth its own start. Solve the
    # choices at a guess of that value, then take the exact value of those choices
    # (wins / (1 - ties), the geometric series), until the choices repeat.
    counted = _Back(*_OWN_ROWS, swings=swings)
    ends = None if given is None else given[last]
    if ends is not None:
        masks = list(ends)
    else:  # the choices at a first guess: the overtime's value with no choices at all
        guess = _ends(_plain_overtime(numbers[last], swings))
        masks = back.period(numbers[last], guess, None).masks
    for _ in range(MAX_FIXED_POINT_ROUNDS):
        own = counted.period(numbers[last], _own_ends(), masks)
        home_own, away_own, level = own.start[:, REACH].tolist()
        if level > 1.0 - 1e-12:
            raise endless_overtimes(*labels)
        tie = (home_own / (1.0 - level), away_own / (1.0 - level))
        solved = back.period(numbers[last], _ends(tie), ends)
        if ends is not None or all(a.same(b) for a, b in zip(solved.masks, masks, strict=True)):
            break  # the choices at their own exact value are the same: the fixed point
        masks = solved.masks
    periods = [solved]
    overtime = [tie]
    for p in range(last - 1, -1, -1):
        tie = (float(periods[0].start[0, REACH]), float(periods[0].start[1, REACH]))
        periods.insert(0, back.period(numbers[p], _ends(tie), None if given is None else given[p]))
        overtime.insert(0, tie)
    return _Solution(periods, overtime)


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


class _Moves(NamedTuple):
    """A trip law's moves of the margin as the forward program reads them: the law of the
    move and the index of move 0, of both parts, of the offense's points alone and of the
    fast breaks alone; each law reversed (``np.correlate`` of the position with it is its
    convolution), and the expected points of the two parts."""

    both: Law
    both_zero: int
    own: Law
    own_zero: int
    own_mean: float
    fast: Law
    fast_zero: int
    fast_mean: float


class _Flat:
    """The forward program over the margin alone (no score laws), on the solved margins
    -REACH..REACH: the law of the position, split at each choice by where the coach makes
    it, moved by one convolution per trip law. Mass moved past the solved margins is
    dropped, and counted as lost by the caller (below 1e-20 for real cards)."""

    def __init__(self, swings: _Swings | None = None) -> None:
        self.mean_home = 0.0
        self.mean_away = 0.0
        self.swings = _Swings() if swings is None else swings
        self.numbers: dict[tuple[int, int], tuple[Law, int, float, float]] = {}

    def _count(self, d: Law, moves: _Moves, home_ball: bool) -> None:
        """Add a trip's expected points, the position's mass times the law's means."""
        mass = float(d.sum())
        if home_ball:
            self.mean_home += mass * moves.own_mean
            self.mean_away += mass * moves.fast_mean
        else:
            self.mean_away += mass * moves.own_mean
            self.mean_home += mass * moves.fast_mean

    def trip(self, d: Law, law: Pair, home_ball: bool) -> Law:
        """Return the law after one trip played with one law."""
        moves = self.swings.forward(law, home_ball)
        self._count(d, moves, home_ball)
        zero = moves.both_zero
        return np.correlate(d, moves.both, "full")[zero : zero + _SIZE]

    def split(self, d: Law, law: Pair, home_ball: bool) -> tuple[Law, Law]:
        """Return the law after one trip: where nobody fast-broke, and after a fast break."""
        moves = self.swings.forward(law, home_ball)
        self._count(d, moves, home_ball)
        own_zero, fast_zero = moves.own_zero, moves.fast_zero
        return (
            np.correlate(d, moves.own, "full")[own_zero : own_zero + _SIZE],
            np.correlate(d, moves.fast, "full")[fast_zero : fast_zero + _SIZE],
        )

    def chosen(
        self, d: Law, plain: Pair, try3: Pair | None, step: Step, masks: _Masks, split: bool
    ) -> tuple[Law, Law | None]:
        """Play one trip, the carrier trying for 3 where the coach calls for it: the law
        after it (``split``: where nobody fast-broke, and after a fast break)."""
        home_ball = _HOME_BALL[step]
        mask = None if try3 is None else masks.try3[_STEP_INDEX[step]]
        trying = None if mask is None else d * mask
        if trying is None or not np.count_nonzero(trying):
            if split:
                return self.split(d, plain, home_ball)
            return self.trip(d, plain, home_ball), None
        assert try3 is not None
        rest = d - trying
        if split:
            a_none, a_fast = self.split(rest, plain, home_ball)
            b_none, b_fast = self.split(trying, try3, home_ball)
            return a_none + b_none, a_fast + b_fast
        return self.trip(rest, plain, home_ball) + self.trip(trying, try3, home_ball), None

    def extra(self, d: Law, laws: CoachLaws, step: Step, masks: _Masks) -> Law:
        """Play an extra possession (its fast breaks owe nothing more)."""
        assert laws.extra is not None
        return self.chosen(d, laws.extra, laws.extra_try3, step, masks, False)[0]

    def fouled(self, d: Law, laws: CoachLaws, home_ball: bool) -> Law:
        """Play a possession the defense fouls on purpose."""
        assert laws.fouled is not None
        return self.trip(d, Pair(laws.fouled, np.zeros(1)), home_ball)

    def number(self, d: Law, away: CoachLaws, home: CoachLaws, masks: _Masks) -> Law:
        """Play one number: 2a/1a first where the trailing team calls for the foul, the
        two trips, and the extra possessions a fast break may owe."""
        n = away.number
        owes = may_take_extra_possession(n)
        fouls = may_call_foul_round(n)
        if not owes and not fouls:
            a_try = None if away.try3 is None else masks.try3[_STEP_INDEX[Step.AWAY]]
            h_try = None if home.try3 is None else masks.try3[_STEP_INDEX[Step.HOME]]
            if a_try is None and h_try is None:
                # No choice is made in this number: its two trips as one law of the margin.
                key = (id(away), id(home))
                number = self.numbers.get(key)
                if number is None:
                    number = self.numbers[key] = _number_law(away, home)
                swing, zero, mean_home, mean_away = number
                mass = float(d.sum())
                self.mean_home += mass * mean_home
                self.mean_away += mass * mean_away
                return np.convolve(d, swing)[zero : zero + _SIZE]
        if fouls and masks.foul is not None:
            calling = d * masks.foul
            if np.count_nonzero(calling):
                # §10: where the trailing team calls for the foul, both play one more first.
                away_calls = self.extra(calling * _AHEAD, away, Step.AWAY_FOUL_ROUND, masks)
                away_calls = self.fouled(away_calls, home, True)
                home_calls = self.fouled(calling * _BEHIND, away, False)
                home_calls = self.extra(home_calls, home, Step.HOME_FOUL_ROUND, masks)
                d = d - calling + away_calls + home_calls
        if not owes:
            d = self.chosen(d, away.plain, away.try3, Step.AWAY, masks, False)[0]
            return self.chosen(d, home.plain, home.try3, Step.HOME, masks, False)[0]
        none, fast = self.chosen(d, away.plain, away.try3, Step.AWAY, masks, True)
        assert fast is not None
        # The home team stole on the visitor's trip: where it still trails and takes them,
        # the extra possessions are owed.
        owed = fast * masks.home_extra if masks.home_extra is not None else np.zeros(_SIZE)
        none, fast = self.chosen(none + fast - owed, home.plain, home.try3, Step.HOME, masks, True)
        assert fast is not None
        owed_now = fast * masks.away_extra if masks.away_extra is not None else np.zeros(_SIZE)
        free = none + fast - owed_now  # the visitor stole, and takes them
        owed = self.chosen(owed, home.plain, home.try3, Step.HOME_OWED, masks, False)[0]
        owed = self.extra(owed + owed_now, away, Step.AWAY_EXTRA, masks)
        return free + self.extra(owed, home, Step.HOME_EXTRA, masks)

    def period(
        self, numbers: Sequence[tuple[CoachLaws, CoachLaws]], masks: Sequence[_Masks]
    ) -> Law:
        """Return the law of the margin after a period started level."""
        d = np.zeros(_SIZE)
        d[REACH] = 1.0
        for (away, home), number_masks in zip(numbers, masks, strict=True):
            d = self.number(d, away, home, number_masks)
        return d


class _Program:
    """The forward program of one game: trips applied to the law of the position, split at
    each choice by where the coach makes it."""

    def __init__(self, scores: bool) -> None:
        self.scores = scores
        self.numbers: dict[tuple[int, int], tuple[Law, int, float, float]] = {}
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
        self, d: _Dist | None, plain: Pair, try3: Pair | None, step: Step, masks: _Masks
    ) -> tuple[_Dist | None, _Dist | None]:
        """Play one trip, the carrier trying for 3 where the coach calls for it."""
        home_ball = _HOME_BALL[step]
        if try3 is None:
            return self._trip(d, plain, home_ball)
        trying, rest = _split(d, masks.try3[_STEP_INDEX[step]])
        a_none, a_fast = self._trip(rest, plain, home_ball)
        b_none, b_fast = self._trip(trying, try3, home_ball)
        return _plus(a_none, b_none), _plus(a_fast, b_fast)

    def _extra(self, d: _Dist | None, laws: CoachLaws, step: Step, masks: _Masks) -> _Dist | None:
        """Play an extra possession (its fast breaks owe nothing more)."""
        assert laws.extra is not None
        none, fast = self._chosen(d, laws.extra, laws.extra_try3, step, masks)
        return _plus(none, fast)

    def _fouled(self, d: _Dist | None, laws: CoachLaws, home_ball: bool) -> _Dist | None:
        """Play a possession the defense fouls on purpose."""
        if d is None:
            return None
        assert laws.fouled is not None
        none, _ = self._trip(d, Pair(laws.fouled, np.zeros(1)), home_ball)
        return none

    def number(self, d: _Dist, away: CoachLaws, home: CoachLaws, masks: _Masks) -> _Dist:
        """Play one number: 2a/1a first when a team fouls, the two trips, and the extra
        possessions a fast break may owe."""
        n = away.number
        fouls = may_call_foul_round(n)
        owes = may_take_extra_possession(n)
        if not (self.scores or fouls or owes) and not _acts(d, away, masks):
            # No choice is made in this number: its two trips as one law of the margin.
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
        if fouls:
            # §10: where the trailing team calls for the foul, both play one more first.
            calling, rest = _split(d, masks.foul)
            away_calls = _rows(calling, 1, INF)  # the visitor trails
            home_calls = _rows(calling, -INF, -1)
            away_calls = self._fouled(
                self._extra(away_calls, away, Step.AWAY_FOUL_ROUND, masks), home, True
            )
            home_calls = self._extra(
                self._fouled(home_calls, away, False), home, Step.HOME_FOUL_ROUND, masks
            )
            merged = _plus(rest, away_calls, home_calls)
            assert merged is not None
            d = merged
        none, fast = self._chosen(d, away.plain, away.try3, Step.AWAY, masks)
        if not owes:
            after_away = _plus(none, fast)
            none, fast = self._chosen(after_away, home.plain, home.try3, Step.HOME, masks)
            out = _plus(none, fast)
            assert out is not None
            return out
        # The home team stole on the visitor's trip: where it still trails and takes them,
        # the extra possessions are owed.
        owed, free_fast = _split(fast, masks.home_extra)
        free = _plus(none, free_fast)
        none, fast = self._chosen(free, home.plain, home.try3, Step.HOME, masks)
        owed_now, free_fast = _split(fast, masks.away_extra)  # the visitor stole and takes them
        free = _plus(none, free_fast)
        none, fast = self._chosen(owed, home.plain, home.try3, Step.HOME_OWED, masks)
        owed = _plus(none, fast, owed_now)
        owed = self._extra(owed, away, Step.AWAY_EXTRA, masks)
        owed = self._extra(owed, home, Step.HOME_EXTRA, masks)
        out = _plus(free, owed)
        assert out is not None
        return out

    def period(
        self,
        numbers: Sequence[tuple[CoachLaws, CoachLaws]],
        masks: Sequence[_Masks],
        start: _Dist,
    ) -> _Dist:
        """Play a period's numbers from ``start``."""
        d = start
        for (away, home), number_masks in zip(numbers, masks, strict=True):
            d = self.number(d, away, home, number_masks)
            trimmed, cut = _trim(d)
            self.lost += cut
            if trimmed is None:
                raise EndlessGameError(["the game's law vanished while it was being solved"])
            d = trimmed
        return d


def _split(
    d: _Dist | None, mask: npt.NDArray[np.bool_] | None
) -> tuple[_Dist | None, _Dist | None]:
    """Return the part of ``d`` at the margins of ``mask`` and the rest (None when empty)."""
    if d is None or mask is None:
        return None, d
    rows = d.a.shape[0]
    at = np.arange(rows) - d.zero + REACH
    inside = (at >= 0) & (at < _SIZE)
    chosen = np.zeros(rows, dtype=bool)
    chosen[inside] = mask[at[inside]]
    if not chosen.any():
        return None, d
    if chosen.all():
        return d, None
    return _part(d, chosen), _part(d, ~chosen)


def _part(d: _Dist, rows: npt.NDArray[np.bool_]) -> _Dist:
    """Return the rows of ``d`` marked in ``rows``, cut to the span that holds them."""
    marked = np.flatnonzero(rows)
    lo, hi = int(marked[0]), int(marked[-1]) + 1
    if hi - lo == len(marked):  # one block of rows: a slice
        return _Dist(d.a[lo:hi], d.zero - lo)
    return _Dist(d.a[lo:hi] * rows[lo:hi, None], d.zero - lo)


def _hits(mask: npt.NDArray[np.bool_] | None, low: int, high: int) -> bool:
    """Return whether ``mask`` holds a margin in [low, high]."""
    if mask is None:
        return False
    low, high = max(low, -REACH), min(high, REACH)
    return low <= high and bool(mask[low + REACH : high + REACH + 1].any())


def _acts(d: _Dist, away: CoachLaws, masks: _Masks) -> bool:
    """Return whether the coach may try for 3 in this number from the margins of ``d``."""
    home_try = masks.try3[_STEP_INDEX[Step.HOME]]
    away_try = masks.try3[_STEP_INDEX[Step.AWAY]]
    return _hits(away_try, d.low, d.high) or _hits(
        home_try, d.low - len(away.plain[0]) + 1, d.high + len(away.plain[1]) - 1
    )


def _number_law(away: CoachLaws, home: CoachLaws) -> tuple[Law, int, float, float]:
    """Return a number's law of the margin where the policy cannot act (its two trips
    convolved), the index of margin 0, and the expected points of each team."""
    # A fast break that scores nothing (the fast law's 0) sits at margin 0, as does own[0].
    a_swing, a_zero = margin_swing(TripLaw(*away.plain), False)
    h_swing, h_zero = margin_swing(TripLaw(*home.plain), True)

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


# -- the coach, the odds and the live odds ----------------------------------------------------


@dataclass(slots=True)
class _Game:
    """One game walked: its periods' numbers, each number's choices, (when asked) the
    solution backwards, and its trip laws' moves (for the forward program)."""

    numbers: list[list[tuple[CoachLaws, CoachLaws]]]
    masks: list[list[_Masks]]
    solution: _Solution | None
    swings: _Swings


def _solved(
    home: TeamCard,
    away: TeamCard,
    rules: GameRules,
    neutral: bool,
    home_plan: Plan | None,
    away_plan: Plan | None,
    coach: Coach | None,
    backward: bool = True,
) -> _Game:
    """Walk the game and solve it backwards, the choices made by ``coach`` (None: the
    exact coach, solved here); with a coach given and not ``backward``, only read its
    choices."""
    walk = _CoachWalk(home, away, rules, neutral, home_plan, away_plan)
    regulation, overtimes = walk.periods()
    periods = [regulation, *overtimes]
    numbers = [_numbers(period, walk.coach) for period in periods]
    given = None
    if coach is not None:
        given = [
            [_masks(coach.calls(p, away_laws.number)) for away_laws, _ in period]
            for p, period in enumerate(numbers)
        ]
        if not backward:
            return _Game(numbers, given, None, _Swings())
    swings = _Swings()
    solution = _solve(numbers, given, (home.label, away.label), swings)
    return _Game(numbers, [period.masks for period in solution.periods], solution, swings)


def _rules_coach(rules: GameRules, coach: Coach | None) -> Coach | None:
    """Return the coach to play: the one given, the rules' thresholds, or None for the
    exact coach (solved from the game itself)."""
    if coach is None and rules.coach == CoachKind.THRESHOLDS:
        return DEFAULT_POLICY
    return coach


def solve_coach(
    home: TeamCard,
    away: TeamCard,
    *,
    rules: GameRules = ADVANCED,
    neutral: bool = False,
    home_plan: Plan | None = None,
    away_plan: Plan | None = None,
) -> ExactCoach:
    """Return the exact coach of a game: every strategy choice (§8, §10) made by backward
    induction over the exact odds, by the team that makes it, for its own chance of
    winning (docs/engine.md, "The coach").

    Solving takes a few milliseconds; a caller that plays one pair many times solves it
    once and passes it to :func:`simulator.vabg.engine.play_game` (``coach=``).
    """
    game = _solved(home, away, rules, neutral, home_plan, away_plan, None)
    return _coach(game.masks)


def coach_odds(
    home: TeamCard,
    away: TeamCard,
    *,
    rules: GameRules = ADVANCED,
    neutral: bool = False,
    home_plan: Plan | None = None,
    away_plan: Plan | None = None,
    coach: Coach | None = None,
    scores: bool = True,
) -> GameOdds:
    """Return the exact law of a game ``play_game`` plays with the strategy choices on
    (``rules.strategy``), as :func:`simulator.vabg.odds.game_odds` does without them; the
    score laws only when ``scores``. ``coach`` makes the choices; without one, the rules'
    coach does (the exact coach, solved here, or the thresholds of older rules)."""
    coach = _rules_coach(rules, coach)
    game = _solved(home, away, rules, neutral, home_plan, away_plan, coach, backward=False)
    return _game_odds(game, home, away, scores)


def coach_and_odds(
    home: TeamCard,
    away: TeamCard,
    *,
    rules: GameRules = ADVANCED,
    neutral: bool = False,
    scores: bool = True,
) -> tuple[ExactCoach, GameOdds]:
    """Return the exact coach of a game (:func:`solve_coach`) and the odds of the game it
    coaches (:func:`coach_odds`), from one solve: what a table of odds that keeps each
    pair's coach for its games computes. The rules' coach must be the exact one."""
    if not rules.strategy or rules.coach != CoachKind.EXACT:
        raise ValueError("coach_and_odds solves the exact coach: the rules name none")
    game = _solved(home, away, rules, neutral, None, None, None)
    return _coach(game.masks), _game_odds(game, home, away, scores)


def _game_odds(game: _Game, home: TeamCard, away: TeamCard, scores: bool) -> GameOdds:
    """Return the law of a game walked (its choices made), by the forward program."""
    lost = 0.0
    laws: list[tuple[_Dist, float, float]] = []
    for numbers, masks in zip(game.numbers, game.masks, strict=True):
        if scores:
            program = _Program(scores)
            law = program.period(numbers, masks, _unit())
            lost += program.lost
            laws.append((law, program.mean_home, program.mean_away))
        else:
            flat = _Flat(game.swings)
            law = _Dist(flat.period(numbers, masks)[:, None], REACH)
            laws.append((law, flat.mean_home, flat.mean_away))
    (reg, reg_home, reg_away), ots = laws[0], laws[1:]
    added = add_overtimes(
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
        home_law, away_law = overtime_scores(home_law, away_law, tie, splits)
        home_map = to_map(home_law, -20)
        away_map = to_map(away_law, -20)
        lost = max(lost, 1.0 - float(home_law.sum()), 1.0 - float(away_law.sum()))
    return GameOdds(
        p_home_win=float(margin[zero + 1 :].sum()),
        p_away_win=float(margin[:zero].sum()),
        p_overtime=added.tied,
        expected_overtimes=added.expected_overtimes,
        expected_home_pts=20.0 + reg_home + added.extra_home,
        expected_away_pts=20.0 + reg_away + added.extra_away,
        margin=to_map(margin, zero),
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
    """Return the exact law of the game ``play_game`` plays with these rules, the strategy
    choices on or off: the one entry point for callers that take either."""
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
    """Return :func:`simulator.vabg.odds.field_odds` (no score laws), the strategy choices
    on or off; with them on, each pair is solved on its own, every ordered pair by
    default."""
    if not rules.strategy:
        return field_odds(teams, pairs, rules=rules, neutral=neutral)
    if pairs is None:
        pairs = itertools.permutations(range(len(teams)), 2)
    return {
        (i, j): coach_odds(teams[i], teams[j], rules=rules, neutral=neutral, scores=False)
        for i, j in pairs
    }


class CoachLiveOdds:
    """P(home wins) from any regular trip's start of a game played with the strategy
    choices on.

    The same positions as :class:`simulator.vabg.liveodds.LiveOdds` (the start of each of
    the period's own trips, the extra possessions inside them), from the backward program
    the coach is solved with: the value of a position is the chance-weighted value of where
    its trip leads, each choice the coach's. At the start of the home team's trip,
    ``owed`` says whether the visitor's trip of the same number already owes the extra
    possessions (the home team stole, ran, still trails and took them:
    :meth:`home_takes_extra`).
    """

    def __init__(
        self,
        home: TeamCard,
        away: TeamCard,
        *,
        rules: GameRules = ADVANCED,
        neutral: bool = False,
        coach: Coach | None = None,
    ) -> None:
        chosen = _rules_coach(rules, coach)
        game = _solved(home, away, rules, neutral, None, None, chosen)
        self.coach: Coach = chosen if chosen is not None else _coach(game.masks)
        assert game.solution is not None
        self._tables = [period.tables for period in game.solution.periods]

    def trips_in(self, period: int) -> int:
        """Return how many regular trips a period holds (88 in regulation)."""
        return len(self._tables[min(period, len(self._tables) - 1)]) - 1

    def home_takes_extra(self, period: int, number: int, margin: int) -> bool:
        """Return whether the home team, having fast-broken on the visitor's trip of
        ``number`` and now ``margin`` points ahead, owes both teams the extra possessions
        (§8: in the last 5 numbers, still trailing, and its coach takes them)."""
        return (
            may_take_extra_possession(number)
            and margin < 0
            and self.coach.calls(period, number).takes_extra(Step.AWAY, margin)
        )

    def p_home_win(self, period: int, done: int, margin: int, owed: bool = False) -> float:
        """Return P(home wins) at the start of trip ``done`` of ``period`` (``done`` = all
        of them: the period is over), the home team ``margin`` points ahead."""
        trips = self.trips_in(period)
        if not 0 <= done <= trips:
            raise ValueError(f"period {period} has {trips} trips, not {done}")
        if margin > REACH or margin < -REACH:
            return 1.0 if margin > 0 else 0.0
        values = self._tables[min(period, len(self._tables) - 1)][done]
        value = values[1 if owed and len(values) > 1 else 0][0, margin + REACH]
        return min(1.0, max(0.0, float(value)))
