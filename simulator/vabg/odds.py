"""Exact odds of a VABG game from the dice math: no sampling (docs/odds.md).

With the strategy choices off (both presets), nothing in vabg-rulings.md reads the
score during play: who is on the floor, who is tired, the rebound rule and the
one-and-one depend on the possession number only, and nobody fouls out. A game is
therefore a sum of independent trips, one per (period, number, side), and its law is
the convolution of the trip laws. Inside a trip the putback and free-throw chain (§7)
is linear in two states, "loose ball after a shot" and "after a missed free throw",
and is solved exactly as a power series in the points scored, putbacks unbounded.
Overtime periods repeat once every starter's tiredness is settled, so the overtime
tail is a geometric series.

The game frame is the engine's own: the engine's ``GameState`` walks its periods (lineups,
substitutions, tiredness) and calls a recorder, its trip callback, in place of its trip;
the trip law reads the roll tables (:mod:`simulator.vabg.tables`) and rules
(:mod:`simulator.vabg.rules`) the engine plays from, the engine's steal and block
searches, and the cards as the engine has read them for the current lineup.
``tests/simulator/vabg/test_odds.py`` enumerates the dice through the engine's own trip and
checks each law against it.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from math import comb
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from simulator.dice import DiceRecord
from simulator.vabg.cards import FOULED, MADE2, MADE3, MISSED_CALL, TeamCard
from simulator.vabg.coaching import Coach
from simulator.vabg.engine import (
    DEFAULT_POLICY,
    EndlessGameError,
    GameState,
    Plan,
    Player,
    Side,
)
from simulator.vabg.events import AWAY, HOME, TripKind
from simulator.vabg.rules import (
    ADVANCED,
    DUNK_TOP_MAX,
    DUNK_TOP_MIN,
    REBOUND_CHART,
    GameRules,
    chart_number,
    effective_dunk_top,
    fast_break,
    foul_reach,
    fouling_steal_31,
    fouling_stealer,
    free_throw_reach,
    free_throw_rebounder,
    longest,
    one_and_one,
    steals_on,
    tired_range,
    turnover_reach,
    turns_over_on,
)
from simulator.vabg.tables import (
    ROLLS,
    ROLLS_BY_KIND,
    TRY_MISS,
    RollKind,
    try3_table,
    twenty_shot,
)

Law = npt.NDArray[np.float64]
"""A law over points: entry k is the probability of k points."""

SERIES_EPSILON = 1e-20
"""The putback series stops once a term is below this: the rest is smaller still."""
SERIES_TERMS = 400
"""A putback chain still going after this many points cannot end (the engine refuses it)."""
TAIL_EPSILON = 1e-20
"""Tails of a final law whose whole mass is below this are cut off (and counted as lost)."""
MAX_PERIODS = 60
"""Overtime periods computed before the tie mass left is counted as lost (score laws)."""


class StrategyNotSolvedError(ValueError):
    """Raise when this module's solvers are asked for the game with the coach policy on:
    its choices read the score, and :mod:`simulator.vabg.coachodds` solves that game."""


@dataclass(frozen=True, slots=True)
class TripLaw:
    """The law of one trip: points of the team with the ball and of the defense.

    ``own[k]`` is the probability that the offense scores k points (the defense none);
    ``fast[j]`` (j >= 1) that the defense scores j on a fast break (§8), the offense
    none. The two never both score in one trip. ``own.sum() + fast.sum()`` is 1 up to
    the putback series' cut (below 1e-18).
    """

    own: Law
    fast: Law


class ChoiceLaw(NamedTuple):
    """A trip's law as a strategy choice reads it (§8, §10): the offense's points on the
    trips with no fast break, and the defense's points on a fast break (entry 0: a fast
    break that scores nothing), the two summing to 1."""

    own: Law
    fast: Law


@dataclass(frozen=True, slots=True)
class GameOdds:
    """The exact law of a game's result (interchange.md, "Exact odds").

    ``margin`` maps home minus away to its probability; ``home_score`` and
    ``away_score`` map final scores (the 20-20 start included) to theirs; ``lost`` is
    the mass left out by the series' cuts (below 1e-15 for real cards). The score laws
    are empty when they were not asked for (:func:`matchup_odds`).
    """

    p_home_win: float
    p_away_win: float
    p_overtime: float
    expected_overtimes: float
    expected_home_pts: float
    expected_away_pts: float
    margin: Mapping[int, float]
    home_score: Mapping[int, float] = field(default_factory=dict)
    away_score: Mapping[int, float] = field(default_factory=dict)
    lost: float = 0.0

    def to_json(self) -> dict[str, object]:
        """Return the ``--json`` object of ``python -m simulator odds``."""
        return {
            "p_home_win": self.p_home_win,
            "p_away_win": self.p_away_win,
            "p_overtime": self.p_overtime,
            "expected_overtimes": self.expected_overtimes,
            "expected_home_pts": self.expected_home_pts,
            "expected_away_pts": self.expected_away_pts,
            "margin": {str(m): p for m, p in self.margin.items()},
            "home_score": {str(s): p for s, p in self.home_score.items()},
            "away_score": {str(s): p for s, p in self.away_score.items()},
        }


# -- the reads of one card, as the engine reads it for the current lineup --------------------


class ShotRead(NamedTuple):
    """The chances of what a d20 shot reads (§6, §12): 3 made, 2 made, fouled, 3 missed,
    2 missed."""

    made3: float
    made2: float
    fouled: float
    missed3: float
    missed2: float


class MainRead(NamedTuple):
    """The chances of what a trip's main d20 read gives (§6): 3 made, 2 made, fouled, a
    missed call on the road, missed."""

    made3: float
    made2: float
    fouled: float
    missed_call: float
    missed: float


class Try3Read(NamedTuple):
    """:class:`MainRead` when the carrier tries for 3 (§10), and a missed try, the slot
    defender's ball at once."""

    made3: float
    made2: float
    fouled: float
    missed_call: float
    missed: float
    missed_try: float


_ReadKey = tuple[tuple[int, ...], int, bool]
_SHOT_READS: dict[_ReadKey, ShotRead] = {}
_MAIN_READS: dict[_ReadKey, MainRead] = {}


def _shot_read(p: Player) -> ShotRead:
    """Return P(3 made, 2 made, fouled, 3 missed, 2 missed) of a d20 shot that is not the
    trip's main read (33-36 foul, putback, fast break): the card after the pre-1987 rule
    and tiredness, the "20 shot" included (§12)."""
    key = (p.shot, p.tired, p.twenty)
    read = _SHOT_READS.get(key)
    if read is None:
        counts = [0, 0, 0, 0, 0]
        shot, reads = p.shot, p.reads
        for roll in range(1, 21):
            code = shot[reads[roll]]
            if twenty_shot(roll, code, p.twenty):
                code = MADE2
            counts[code] += 1
        read = _SHOT_READS[key] = ShotRead(
            counts[0] / 20,
            counts[1] / 20,
            counts[2] / 20,
            counts[3] / 20,
            counts[4] / 20,
        )
    return read


def _main_read(p: Player) -> MainRead:
    """Return P(3 made, 2 made, fouled, missed call, missed) of the main d20 read (§6):
    home court applied, then the "20 shot" on a rolled 20 that reads a miss."""
    key = (p.main, p.tired, p.twenty)
    read = _MAIN_READS.get(key)
    if read is None:
        m3 = m2 = fouled = call = miss = 0
        table, reads = p.main, p.reads
        for roll in range(1, 21):
            code = table[reads[roll]]
            if code == MADE3:
                m3 += 1
            elif code == MADE2:
                m2 += 1
            elif code == FOULED:
                fouled += 1
            elif code == MISSED_CALL:
                call += 1
            elif twenty_shot(roll, code, p.twenty):
                m2 += 1
            else:
                miss += 1
        read = _MAIN_READS[key] = MainRead(m3 / 20, m2 / 20, fouled / 20, call / 20, miss / 20)
    return read


_TRY3_READS: dict[_ReadKey, Try3Read] = {}


def _try3_read(p: Player) -> Try3Read:
    """Return P(3 made, 2 made, fouled, missed call, missed, missed try) of the main d20
    read when the carrier tries for 3 (§10): his main table with its lowest 2-made numbers
    turned into 3s and as many of its highest into misses the slot defender rebounds at
    once; the "20 shot" read first, as the engine reads it."""
    key = (p.main, p.tired, p.twenty)
    read = _TRY3_READS.get(key)
    if read is None:
        counts = [0, 0, 0, 0, 0, 0]
        table, reads = try3_table(p.main), p.reads
        for roll in range(1, 21):
            code = table[reads[roll]]
            if code == MADE3:
                counts[0] += 1
            elif code == MADE2:
                counts[1] += 1
            elif code == FOULED:
                counts[2] += 1
            elif code == MISSED_CALL:
                counts[3] += 1
            elif twenty_shot(roll, code, p.twenty):
                counts[1] += 1
            elif code == TRY_MISS:
                counts[5] += 1
            else:
                counts[4] += 1
        read = _TRY3_READS[key] = Try3Read(
            counts[0] / 20,
            counts[1] / 20,
            counts[2] / 20,
            counts[3] / 20,
            counts[4] / 20,
            counts[5] / 20,
        )
    return read


def _free_throw(p: Player) -> float:
    """Return the chance one free throw goes in (§2: a tired shooter adds 1 to the d20)."""
    return max(0, min(20, free_throw_reach(p.ft_top, p.tired))) / 20


def _two_shots(weight: float, p: float, made: list[float], missed: list[float], at: int) -> None:
    """Add two free throws after ``at`` points: ``made`` gets the trips that end on a made
    last shot, ``missed`` those whose last shot misses (a rebound follows)."""
    made[at + 2] += weight * p * p
    made[at + 1] += weight * (1 - p) * p
    missed[at + 1] += weight * p * (1 - p)
    missed[at] += weight * (1 - p) * (1 - p)


class _Chain:
    """The putback chain of one (offense, defense) pair on a chart number (§7).

    ``shot[k]`` and ``ft[k]`` are the laws of the points the offense still scores
    from a loose ball after a missed shot, or after a missed last free throw. Each
    rebound step either ends the trip (defensive rebound, made putback, made free
    throws) or comes back to one of the two states, after 0 or 1 points: the laws
    solve a 2x2 linear system per point total, putbacks unbounded.
    """

    __slots__ = ("ft", "shot")

    def __init__(self, off: Side, de: Side) -> None:
        o_lineup, d_lineup = off.lineup, de.lineup
        o_reb = [p.off_reb for p in o_lineup]
        d_reb = [p.def_reb for p in d_lineup]
        o_best, d_best = longest(o_reb), longest(d_reb)
        best_is_offense = o_reb[o_best] >= d_reb[d_best]
        # Who gets the ball on each rebound step, after a shot and after a free throw.
        w_shot = [0.0] * 5
        w_ft = [0.0] * 5
        for d20 in range(1, 21):
            if d20 == 10 or d20 == 20:
                if best_is_offense:
                    w_shot[o_best] += 6 / 120
                    w_ft[o_best] += 6 / 120
                continue
            if d20 < 10:
                spot = REBOUND_CHART[d20]
                share = max(0, min(6, o_reb[spot])) / 120
            else:
                spot = REBOUND_CHART[d20 - 10]
                share = (6 - max(0, min(6, d_reb[spot]))) / 120
            w_shot[spot] += share
            if free_throw_rebounder(d20) is None:  # §6: a missed free throw's variant
                w_ft[spot] += share
        # One step: a = ends with points, b = back to "shot", c = back to "ft" (0 or 1 point).
        steps = []
        for w in (w_shot, w_ft):
            a = [1.0 - sum(w), 0.0, 0.0, 0.0]
            b = 0.0
            c = [0.0, 0.0]
            for i, share in enumerate(w):
                if not share:
                    continue
                p = o_lineup[i]
                m3, m2, fouled, x3, x2 = _shot_read(p)
                ft = _free_throw(p)
                a[3] += share * m3
                a[2] += share * m2
                b += share * (x3 + x2)
                made = [0.0, 0.0, 0.0]
                _two_shots(share * fouled, ft, made, c, 0)
                a[1] += made[1]
                a[2] += made[2]
            steps.append((a, b, c))
        (a_s, b_s, c_s), (a_f, b_f, c_f) = steps
        # (I - M0) [shot_k, ft_k] = a_k + M1 [., ft_(k-1)]: the same 2x2 matrix every k.
        m11, m12, m21, m22 = 1.0 - b_s, -c_s[0], -b_f, 1.0 - c_f[0]
        det = m11 * m22 - m12 * m21
        if det <= 1e-12:
            raise EndlessGameError(
                [
                    f"the game cannot end: {off.team.label} can win back every rebound "
                    "of its own misses without ever scoring"
                ]
            )
        shot: list[float] = []
        ft_law: list[float] = []
        prev_ft = 0.0
        k = 0
        while True:
            r1 = (a_s[k] if k < 4 else 0.0) + c_s[1] * prev_ft
            r2 = (a_f[k] if k < 4 else 0.0) + c_f[1] * prev_ft
            s_k = (m22 * r1 - m12 * r2) / det
            f_k = (m11 * r2 - m21 * r1) / det
            shot.append(s_k)
            ft_law.append(f_k)
            prev_ft = f_k
            k += 1
            if k >= 4 and s_k + f_k < SERIES_EPSILON:
                break
            if k >= SERIES_TERMS:
                raise EndlessGameError(
                    [
                        f"the game cannot end: {off.team.label} can go on missing free "
                        "throws and winning the rebounds back without end"
                    ]
                )
        self.shot = np.array(shot)
        self.ft = np.array(ft_law)


def _add_points(a: _Points, b: _Points) -> _Points:
    """Return the sum of two (points at once, loose ball, before a missed free throw)."""
    return (
        [x + y for x, y in itertools.zip_longest(a[0], b[0], fillvalue=0.0)],
        a[1] + b[1],
        [x + y for x, y in itertools.zip_longest(a[2], b[2], fillvalue=0.0)],
    )


def _settle(direct: list[float], to_shot: float, to_ft: list[float], chain: _Chain | None) -> Law:
    """Return ``direct + to_shot * shot + to_ft (*) ft``: the law once every rebound is
    played out (``chain`` None: the defense rebounds, no more points)."""
    if chain is None:
        out = np.array(direct)
        out[0] += to_shot
        out[: len(to_ft)] += to_ft
        return out
    length = max(len(direct), len(chain.shot), len(chain.ft) + len(to_ft) - 1)
    out = np.zeros(length)
    out[: len(direct)] += direct
    out[: len(chain.shot)] += to_shot * chain.shot
    conv = np.convolve(to_ft, chain.ft)
    out[: len(conv)] += conv
    return out


@dataclass(slots=True)
class _Rolls:
    """What the d8 and the 11-66 roll of one trip lead to, before any d20 is read."""

    main: list[float]  # the main d20 read, per carrier
    dunk: list[float]
    fouled: list[float]  # 33-36 fouls, per shooter
    fast: list[float]  # fast breaks, per stealer
    blocked: float
    zero: float  # turnovers, stops, steals without a fast break


def _ball(side: Side, halved: bool, source: int = 0) -> tuple[dict[tuple[int, bool], float], float]:
    """Return who carries the ball on a trip of ``side`` (§4): (floor index, halved ranges)
    -> weight, and the weight of a shot-clock turnover. ``source`` 1 counts only the d8
    itself, 2 only a shot-clock re-roll, 0 both (see :meth:`TripLaws._parts`)."""
    carriers: dict[tuple[int, bool], float] = {}
    none = 0.0
    for d8 in range(1, 9):
        idx = side.carriers[d8]
        if idx is not None:
            if source != 2:
                key = (idx, halved and d8 >= 6)
                carriers[key] = carriers.get(key, 0.0) + 1 / 8
        elif source != 1:
            # Shot clock: one fresh re-roll; 1-5 plays as a normal trip, 6-8 turns over.
            for again in range(5):
                carriers[(again, False)] = carriers.get((again, False), 0.0) + 1 / 64
            none += 3 / 64
    return carriers, none


class StealCounts(NamedTuple):
    """The steal rolls of one carrier by outcome (§5, §8)."""

    missed: int
    """No steal: the main d20 read."""
    lost: int
    """A steal without a fast break."""
    runs: tuple[int, ...]
    """Fast breaks, per stealer (floor index)."""


class CarrierCounts(NamedTuple):
    """The 36 rolls of one ball carrier by what they lead to (§3, §5)."""

    to_main: int
    """The main d20 read."""
    lost: int
    """Nothing scored: a stop, a turnover, a steal without a fast break."""
    runs: tuple[int, ...]
    """Fast breaks, per stealer."""
    blocked: int
    fouls: int
    """33-36 fouls."""
    dunks: int


_STEALS: dict[tuple[object, ...], StealCounts] = {}
# On a fouled trip, the rolls that are a steal or a turnover, by (the steal range, that
# on a 31, the carrier's turnover reach).
_FOULED_LOST: dict[tuple[int, int, int], int] = {}
_BLOCKS: dict[tuple[object, ...], int] = {}
_CARRIERS: dict[tuple[object, ...], CarrierCounts] = {}


def _profile(de: Side) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Return what the engine's steal and block searches read of a defense (§5, §12):
    each defender's range and whether he is tired."""
    lineup = de.lineup
    return (
        tuple(v for p in lineup for v in (p.steal, p.tired)),
        tuple(v for p in lineup for v in (p.block, p.tired)),
    )


_Points = tuple[list[float], float, list[float]]
"""Points scored at once, the chance of a loose ball after a shot, and the points scored
before a loose ball after a missed free throw (see :func:`_settle`)."""
_Parts = tuple[_Points, _Points, _Points | None]


class TripLaws:
    """Trip laws of one game, each part cached by the sides' states.

    The d8 and 11-66 roll depend on the two lineups only; the rebound rule (chart or not)
    and the one-and-one on the number; the putback chain on the two lineups.
    """

    def __init__(self, game: GameState) -> None:
        self.game = game
        self.parts: dict[tuple[object, ...], _Parts] = {}
        self.fast_laws: dict[tuple[object, ...], tuple[float, Law]] = {}
        self.chains: dict[tuple[object, ...], _Chain] = {}
        self.chain_reads: dict[tuple[object, ...], _Chain] = {}
        self.profiles: dict[object, tuple[tuple[int, ...], tuple[int, ...]]] = {}
        self.ball: dict[
            tuple[int, int], tuple[tuple[tuple[tuple[int, bool], float], ...], float]
        ] = {}
        # The coach policy's variants (coachodds.py): by (pair, source, try for 3).
        self.variants: dict[tuple[object, ...], _Parts] = {}
        self.variant_rolls: dict[tuple[object, ...], _Rolls] = {}
        # Their fast breaks played out, by (pair, chart, the fast breaks' points): the try
        # for 3 and the one-and-one leave them alone, so variants share one law.
        self.variant_runs: dict[tuple[object, ...], Law] = {}
        # The rules a count reads beyond the cards (the delta tables follow the first).
        self.signature = (game.rules.dunk_steal_turnover_changes, game.rules.fast_breaks)
        if len(_STEALS) + len(_CARRIERS) > 500_000:  # they serve a field; keep them bounded
            _STEALS.clear()
            _BLOCKS.clear()
            _CARRIERS.clear()

    def law(
        self, off: Side, de: Side, n: int, off_key: object = None, de_key: object = None
    ) -> TripLaw:
        game = self.game
        chart = game.rules.rebound_chart and chart_number(n)
        bonus = one_and_one(game.period, n)
        if off_key is None:
            off_key, de_key = side_state(off), side_state(de)
        pair = (off_key, de_key)
        parts = self.parts.get(pair)
        if parts is None:
            parts = self.parts[pair] = self._parts(off, de, de_key)
        direct, to_shot, to_ft = parts[1] if bonus else parts[0]
        own = _settle(direct, to_shot, to_ft, self._chain(off, de, pair) if chart else None)
        # §8: fast breaks: the stealer's bonus d20; a miss is rebounded by number n's rules.
        fast = parts[2]
        if fast is None:
            return TripLaw(own=own, fast=np.zeros(1))
        settled = self.fast_laws.get((pair, chart))
        if settled is None:
            back = self._chain(de, off, (de_key, off_key)) if chart else None
            law = _settle(*fast, back)
            nothing = float(law[0])
            law[0] = 0.0
            settled = self.fast_laws[(pair, chart)] = (nothing, law)
        own[0] += settled[0]
        return TripLaw(own=own, fast=settled[1])

    def coach_law(
        self,
        off: Side,
        de: Side,
        n: int,
        off_key: object,
        de_key: object,
        *,
        try3: bool,
        extra: bool,
    ) -> ChoiceLaw:
        """Return a trip's law as the coach policy needs it (§8, §10): the offense's points
        on the trips with no fast break, and the defense's points on a fast break (entry 0:
        a fast break that scores nothing), the two summing to 1.

        ``try3``: the carrier tries for 3 on the main d20 read. ``extra``: an extra
        possession (2a, 1a, or after a fast break), whose misses the defense rebounds at
        once; but after a shot-clock re-roll the engine plays it as a re-rolled trip (the
        number's rebound rule, the try for 3 when trailing), and a fast break's miss is
        rebounded by the number's rules.
        """
        game = self.game
        chart = game.rules.rebound_chart and chart_number(n)
        bonus = one_and_one(game.period, n)
        pair = (off_key, de_key)
        chain = self._chain(off, de, pair) if chart else None
        if extra:
            pieces = [
                (self._variant(off, de, de_key, pair, 1, False), None),
                (self._variant(off, de, de_key, pair, 2, try3), chain),
            ]
        else:
            pieces = [(self._variant(off, de, de_key, pair, 0, try3), chain)]
        own: Law = np.zeros(1)
        runs: _Points | None = None
        for parts, settle_with in pieces:
            direct, to_shot, to_ft = parts[1] if bonus else parts[0]
            own = _add_at(own, _settle(direct, to_shot, to_ft, settle_with))
            fast = parts[2]
            if fast is not None:
                runs = fast if runs is None else _add_points(runs, fast)
        if runs is None:
            return ChoiceLaw(own, np.zeros(1))
        key = (pair, chart, tuple(runs[0]), runs[1], tuple(runs[2]))
        settled = self.variant_runs.get(key)
        if settled is None:
            back = self._chain(de, off, (de_key, off_key)) if chart else None
            settled = self.variant_runs[key] = _settle(*runs, back)
        return ChoiceLaw(own, settled)

    def _variant(
        self,
        off: Side,
        de: Side,
        de_key: object,
        pair: tuple[object, ...],
        source: int,
        try3: bool,
    ) -> _Parts:
        key = (pair, source, try3)
        parts = self.variants.get(key)
        if parts is None:
            # The try for 3 changes only the main d20 read: both variants share the rolls.
            rolls = self.variant_rolls.get((pair, source))
            if rolls is None:
                rolls = self.variant_rolls[(pair, source)] = self._rolls(off, de, de_key, source)
            parts = self.variants[key] = self._parts(off, de, de_key, source, try3, rolls)
        return parts

    def fouling_law(self, off: Side, de: Side) -> Law:
        """Return the law of the offense's points on a trip the defense fouls on purpose
        (§10, the engine's ``play_fouling_trip``): the carrier's defender steals on d8 1-5, the
        longest steal range on a claimed 6-8 (4 longer when it passes 11-16), a 31 goes to a
        range reaching 11-20; then the carrier's turnover range; else two free throws, a
        missed last one the defense's ball. An unclaimed 6-8 re-rolls once; on the re-roll
        any 6-8 is a shot-clock turnover (a claimed one played before rules version 4). No
        fast break, no putback."""
        counts = [tired_range(p.steal, p.tired) for p in de.lineup]
        law = np.zeros(3)
        reroll_turns_over = self.game.rules.fouled_reroll_turnover

        def trip(weight: float, rerolled: bool) -> None:
            for d8 in range(1, 9):
                w = weight / 8
                if d8 >= 6:
                    idx = None if rerolled and reroll_turns_over else off.carriers[d8]
                    if idx is None:
                        if rerolled:
                            law[0] += w
                        else:
                            trip(w, True)
                        continue
                    count = fouling_stealer(counts, idx, True).numbers
                else:
                    idx = d8 - 1
                    count = counts[idx]
                carrier = off.lineup[idx]
                past = 21 if fouling_steal_31(counts, idx, count) is not None else count
                turnovers = turnover_reach(carrier.to, 0, carrier.tired)
                lost = _FOULED_LOST.get((count, past, turnovers))
                if lost is None:
                    lost = _FOULED_LOST[(count, past, turnovers)] = sum(
                        1
                        for roll in ROLLS
                        if steals_on(roll, past if roll == 31 else count)
                        or turns_over_on(roll, turnovers)
                    )
                ft = _free_throw(carrier)
                fouled = w * (36 - lost) / 36
                law[0] += w * lost / 36 + fouled * (1 - ft) ** 2
                law[1] += fouled * 2 * ft * (1 - ft)
                law[2] += fouled * ft * ft

        trip(1.0, False)
        return law

    def _parts(
        self,
        off: Side,
        de: Side,
        de_key: object,
        source: int = 0,
        try3: bool = False,
        rolls: _Rolls | None = None,
    ) -> _Parts:
        """Return a trip's points before any rebound is played out, without and with the
        one-and-one, and its fast breaks' (None when nobody runs).

        ``source`` 1 counts only the ball carriers of the d8 itself, 2 only those of a
        shot-clock re-roll, 0 both; ``try3``: the carriers try for 3 (§10); ``rolls``: the
        rolls of these sides and ``source`` when already counted."""
        if rolls is None:
            rolls = self._rolls(off, de, de_key, source)
        lineup = off.lineup
        direct = [rolls.zero, 0.0, 0.0, 0.0, 0.0]
        to_ft = [0.0, 0.0, 0.0, 0.0]
        to_shot = rolls.blocked
        plain_direct = [0.0, 0.0, 0.0]  # a 33-36 foul's "fouled" d20: two shots...
        plain_ft = [0.0, 0.0, 0.0]
        bonus_direct = [0.0, 0.0, 0.0]  # ... or a one-and-one
        bonus_ft = [0.0, 0.0, 0.0]
        main, dunk, fouled = rolls.main, rolls.dunk, rolls.fouled
        for idx in range(5):
            p = lineup[idx]
            ft = _free_throw(p)
            w = main[idx]
            if w:
                if try3:
                    m3, m2, foul, call, miss, dead = _try3_read(p)
                    direct[0] += w * dead  # the slot defender's ball at once
                else:
                    m3, m2, foul, call, miss = _main_read(p)
                direct[3] += w * m3
                direct[2] += w * m2
                direct[0] += w * call
                to_shot += w * miss
                _two_shots(w * foul, ft, direct, to_ft, 0)
            if dunk[idx] or fouled[idx]:
                m3, m2, foul, x3, x2 = _shot_read(p)
                w = dunk[idx]
                direct[3] += w * m3
                direct[2] += w * (1 - m3)
                w = fouled[idx]
                if w:
                    for value, chance in ((3, m3), (2, m2)):  # and one
                        direct[value + 1] += w * chance * ft
                        to_ft[value] += w * chance * (1 - ft)
                    bonus_direct[2] += w * foul * ft * ft
                    bonus_ft[0] += w * foul * (1 - ft)
                    bonus_ft[1] += w * foul * ft * (1 - ft)
                    _two_shots(w * foul, ft, plain_direct, plain_ft, 0)
                    _two_shots(w * x2, ft, direct, to_ft, 0)
                    for made in range(3):  # three shots on a missed 3
                        before = w * x3 * comb(2, made) * ft**made * (1 - ft) ** (2 - made)
                        direct[made + 1] += before * ft
                        to_ft[made] += before * (1 - ft)
        variants = []
        for extra_direct, extra_ft in ((plain_direct, plain_ft), (bonus_direct, bonus_ft)):
            variants.append(
                (
                    [a + (extra_direct[i] if i < 3 else 0.0) for i, a in enumerate(direct)],
                    to_shot,
                    [a + (extra_ft[i] if i < 3 else 0.0) for i, a in enumerate(to_ft)],
                )
            )
        fast: tuple[list[float], float, list[float]] | None = None
        if any(rolls.fast):
            f_direct = [0.0, 0.0, 0.0, 0.0]
            f_shot = 0.0
            f_ft = [0.0, 0.0, 0.0]
            for j, w in enumerate(rolls.fast):
                if w:
                    p = de.lineup[j]
                    m3, m2, foul, x3, x2 = _shot_read(p)
                    f_direct[3] += w * m3
                    f_direct[2] += w * m2
                    f_shot += w * (x3 + x2)
                    _two_shots(w * foul, _free_throw(p), f_direct, f_ft, 0)
            fast = (f_direct, f_shot, f_ft)
        return variants[0], variants[1], fast

    def _chain(self, off: Side, de: Side, pair: tuple[object, ...]) -> _Chain:
        chain = self.chains.get(pair)
        if chain is None:
            # What the chain reads: rebound ranges, and the rebounders' shots and free
            # throws. A defender's tiredness does not count, so pairs share chains.
            content = (
                tuple(p.off_reb for p in off.lineup),
                tuple(p.def_reb for p in de.lineup),
                tuple((_shot_read(p), _free_throw(p)) for p in off.lineup),
            )
            chain = self.chain_reads.get(content)
            if chain is None:
                chain = self.chain_reads[content] = _Chain(off, de)
            self.chains[pair] = chain
        return chain

    def _rolls(self, off: Side, de: Side, de_key: object, source: int = 0) -> _Rolls:
        """Add up the d8 (§4) and the 11-66 roll (§3, §5) by what each leads to (``source``:
        see :meth:`_parts`)."""
        game = self.game
        rules = game.rules
        lineup = off.lineup
        # Who carries the ball: (floor index, halved ranges) -> weight; by lineup.
        found = self.ball.get((id(lineup), source))
        if found is None:
            carriers, none = _ball(off, rules.halved_any_defender, source)
            found = self.ball[(id(lineup), source)] = (tuple(carriers.items()), none)
        ball, zero = found
        main = [0.0] * 5
        dunk = [0.0] * 5
        fouled = [0.0] * 5
        fast = [0.0] * 5
        blocked = 0.0
        profile = self.profiles.get(de_key)
        if profile is None:
            profile = self.profiles[de_key] = _profile(de)
        for (idx, halved), weight in ball:
            carrier = lineup[idx]
            defender = de.lineup[idx]
            # Keyed by what the count reads, so it is shared between matchups.
            seen = (
                profile,
                idx,
                halved,
                carrier.dunk_top,
                carrier.to,
                carrier.tired,
                defender.dunk_adjust,
                defender.foul,
                self.signature,
            )
            counts = _CARRIERS.get(seen)
            if counts is None:
                counts = _CARRIERS[seen] = self._carrier(carrier, de, de_key, idx, halved)
            to_main, lost, runs, stopped, fouls, dunks = counts
            u = weight / 36
            main[idx] += u * to_main
            zero += u * lost
            for j in range(5):
                fast[j] += u * runs[j]
            blocked += u * stopped
            fouled[idx] += u * fouls
            dunk[idx] += u * dunks
        return _Rolls(main, dunk, fouled, fast, blocked, zero)

    def _carrier(
        self, carrier: Player, de: Side, de_key: object, idx: int, halved: bool
    ) -> CarrierCounts:
        """Count the 36 rolls of one ball carrier by what they lead to."""
        game = self.game
        defender = de.lineup[idx]
        x = effective_dunk_top(carrier.dunk_top, defender.dunk_adjust)
        kinds = ROLLS_BY_KIND[x]
        to_main = len(kinds[RollKind.NOTHING])
        lost = len(kinds[RollKind.STOP])  # §12: the slot defender's ball, or a turnover
        runs: tuple[int, ...] = (0, 0, 0, 0, 0)
        rolls = kinds[RollKind.STEAL_TRY]
        if rolls:
            missed, stolen, runs = self._steal(de, de_key, idx, rolls, game.steal_delta[x], halved)
            to_main += missed
            lost += stolen
        stopped = 0
        rolls = kinds[RollKind.BLOCK_TRY]
        if rolls:
            stopped = self._block(de, de_key, idx, rolls, halved)
            to_main += len(rolls) - stopped
        reach = foul_reach(defender.foul, defender.tired)
        fouls = sum(1 for roll in kinds[RollKind.FOUL_TRY] if roll >= reach)
        to_main += len(kinds[RollKind.FOUL_TRY]) - fouls
        count = turnover_reach(carrier.to, game.turnover_delta[x], carrier.tired)
        turnovers = sum(1 for roll in kinds[RollKind.TURNOVER_TRY] if turns_over_on(roll, count))
        lost += turnovers
        to_main += len(kinds[RollKind.TURNOVER_TRY]) - turnovers
        return CarrierCounts(to_main, lost, runs, stopped, fouls, len(kinds[RollKind.DUNK]))

    def _steal(
        self, de: Side, de_key: object, idx: int, rolls: tuple[int, ...], delta: int, halved: bool
    ) -> StealCounts:
        """Count the steal rolls by outcome; the engine's own search picks the stealer."""
        profile = self.profiles.get(de_key)
        if profile is None:
            profile = self.profiles[de_key] = _profile(de)
        # Keyed by what the engine's search reads, so a defense meets every opponent once.
        key = (profile[0], self.game.rules.fast_breaks, idx, rolls, delta, halved)
        found = _STEALS.get(key)
        if found is None:
            game = self.game
            missed = lost = 0
            runs = [0] * 5
            for roll in rolls:
                stealer = game.find_stealer(de, idx, roll, delta, halved)
                if stealer is None:
                    missed += 1
                elif game.rules.fast_breaks and fast_break(stealer + 1, roll):
                    runs[stealer] += 1
                else:
                    lost += 1
            found = _STEALS[key] = StealCounts(missed, lost, tuple(runs))
        return found

    def _block(
        self, de: Side, de_key: object, idx: int, rolls: tuple[int, ...], halved: bool
    ) -> int:
        """Count the block rolls that are blocks; the engine's own search decides."""
        profile = self.profiles.get(de_key)
        if profile is None:
            profile = self.profiles[de_key] = _profile(de)
        key = (profile[1], idx, rolls, halved)
        found = _BLOCKS.get(key)
        if found is None:
            game = self.game
            found = _BLOCKS[key] = sum(
                1 for roll in rolls if game.find_blocker(de, idx, roll, halved) is not None
            )
        return found


def trip_law(game: GameState, off: Side, de: Side, n: int) -> TripLaw:
    """Return the law of the trip ``off`` plays now at number ``n`` of ``game.period``.

    The sides are read as they stand (lineups, claims, tiredness, cards read for the
    lineup): call it where the engine would call its trip.
    """
    return TripLaws(game).law(off, de, n)


# -- the game frame: the engine walks its own periods ----------------------------------------


class _NoDice:
    """A dice source for a game that is walked, never rolled."""

    def d8(self) -> int:
        raise AssertionError("exact odds roll no dice")

    d6 = d20 = d8

    def record(self) -> DiceRecord:
        return DiceRecord()


def side_state(side: Side) -> tuple[object, ...]:
    """Return what a trip law reads of one side: who is on the floor, and who is tired."""
    # The engine keeps one list object per five on the floor (engine._lineups).
    lineup = side.lineup
    a, b, c, d, e = lineup
    return (side.key, id(lineup), a.tired, b.tired, c.tired, d.tired, e.tired)


@dataclass(slots=True)
class PeriodTrips:
    """The trips of one period in order, each as (home has the ball, law key)."""

    trips: list[tuple[bool, tuple[object, ...]]] = field(default_factory=list)


class WalkedPeriods(NamedTuple):
    """The periods a walk found: regulation, and the overtimes up to the first that repeats
    for ever after (the last in the list)."""

    regulation: PeriodTrips
    overtimes: list[PeriodTrips]


class Walk:
    """Walk the engine's periods, collecting one law per distinct trip."""

    def __init__(
        self,
        home: TeamCard,
        away: TeamCard,
        rules: GameRules,
        neutral: bool,
        home_plan: Plan | None,
        away_plan: Plan | None,
        policy: Coach | None = None,
    ) -> None:
        # Only the coach policy's own solver (coachodds.py) walks a game with it on.
        if rules.strategy and policy is None:
            raise StrategyNotSolvedError(
                "this solver sums independent trips, and the coach policy (intentional "
                "fouls, try for 3, extra possessions) reads the score: the game with it "
                "on is solved by simulator.vabg.coachodds (exact_odds)"
            )
        game = GameState(
            home,
            away,
            _NoDice(),
            rules,
            neutral,
            {HOME: home_plan, AWAY: away_plan},
            policy or DEFAULT_POLICY,
            trip=self.on_trip,
        )
        self.game = game
        self.parts = TripLaws(game)
        self.laws: dict[tuple[object, ...], TripLaw] = {}
        self.current = PeriodTrips()

    def on_trip(self, off: Side, de: Side, n: int, kind: TripKind = TripKind.PLAIN, /) -> None:
        """Record the trip the game has reached (its trip callback): its law, once."""
        game = self.game
        chart = game.rules.rebound_chart and chart_number(n)
        bonus = one_and_one(game.period, n)
        off_key, de_key = side_state(off), side_state(de)
        key = (off_key, de_key, chart, bonus)
        if key not in self.laws:
            self.laws[key] = self.parts.law(off, de, n, off_key, de_key)
        self.current.trips.append((off is game.home, key))

    def periods(self) -> WalkedPeriods:
        """Return regulation and the overtime periods up to the first one that repeats
        for ever after (the last in the list)."""
        game = self.game
        home, away = game.home, game.away
        game.play_period(away.rotation, home.rotation)
        regulation, self.current = self.current, PeriodTrips()
        length = game.rules.overtime_possessions
        starters = home.starters + away.starters
        overtimes: list[PeriodTrips] = []
        while True:
            # Only the starters play overtime, and tiredness only grows (§2, §12): once
            # every one of them is tired (or nobody tires) the periods repeat for ever.
            # A period equal to the one before is not enough: a starter may tire later.
            settled = not game.rules.tired_players or all(p.tired for p in starters)
            game.period += 1
            game.play_period([away.starters] * length, [home.starters] * length)
            period, self.current = self.current, PeriodTrips()
            overtimes.append(period)
            if settled:
                return WalkedPeriods(regulation, overtimes)
            assert len(overtimes) <= 2 + 67 // length, "every starter tires by his 67th number"


# -- combining trips -----------------------------------------------------------------------


def convolve(a: Law, b: Law) -> Law:
    """Return the law of the sum of two independent laws."""
    return np.convolve(a, b)


TRIM = 1e-30
"""While the margin is convolved, ends holding less than this are cut (and counted)."""


@dataclass(slots=True)
class PeriodSums:
    """Laws of one stretch of trips: home points, away points, margin (home - away)."""

    home: Law
    away: Law
    margin: Law  # index i is margin i - offset
    offset: int
    mean_home: float
    mean_away: float
    lost: float  # margin mass cut off at the ends (below TRIM each time)


def _trim(law: Law, offset: int) -> tuple[Law, int, float]:
    """Cut the ends of ``law`` that hold less than TRIM of its mass; return the law, its
    new offset and the mass cut."""
    head = np.cumsum(law)
    lo = int(np.searchsorted(head, TRIM))
    tail = np.cumsum(law[::-1])
    cut = int(np.searchsorted(tail, TRIM))
    lost = (float(head[lo - 1]) if lo else 0.0) + (float(tail[cut - 1]) if cut else 0.0)
    return law[lo : len(law) - cut], offset - lo, lost


def margin_swing(law: TripLaw, home_has_ball: bool) -> tuple[Law, int]:
    """Return a trip's law of the margin (home - away) and the index of margin 0."""
    own, fast = law.own, law.fast
    swing = np.zeros(len(fast) - 1 + len(own))
    swing[len(fast) - 1 :] += own  # the offense's points count up
    swing[: len(fast)] += fast[::-1]  # fast breaks count down
    if home_has_ball:
        return swing, len(fast) - 1
    return swing[::-1].copy(), len(own) - 1


@dataclass(slots=True)
class _Number:
    """One number's two trips (the visitor's, then the home team's) added up."""

    margin: Law
    offset: int
    home: Law
    away: Law
    mean_home: float
    mean_away: float


def _number(away_law: TripLaw, home_law: TripLaw, scores: bool) -> _Number:
    """Return the laws of one number: the margin, and each team's points if ``scores``."""
    a_swing, a_offset = margin_swing(away_law, False)
    h_swing, h_offset = margin_swing(home_law, True)
    margin = np.convolve(a_swing, h_swing)
    means = []
    for law in (home_law, away_law):
        means.append(float(np.arange(len(law.own)) @ law.own))
        means.append(float(np.arange(len(law.fast)) @ law.fast))
    home = away = np.ones(1)
    if scores:
        # Home points: its own trip's, and fast breaks on the visitor's trip; and so on.
        h_own = home_law.own.copy()
        h_own[0] += home_law.fast.sum()
        a_fast = away_law.fast.copy()
        a_fast[0] += away_law.own.sum()
        home = np.convolve(h_own, a_fast)
        a_own = away_law.own.copy()
        a_own[0] += away_law.fast.sum()
        h_fast = home_law.fast.copy()
        h_fast[0] += home_law.own.sum()
        away = np.convolve(a_own, h_fast)
    return _Number(
        margin, a_offset + h_offset, home, away, means[0] + means[3], means[2] + means[1]
    )


def period_sums(
    period: PeriodTrips,
    laws: Mapping[tuple[object, ...], TripLaw],
    scores: bool = True,
    numbers: dict[tuple[object, ...], _Number] | None = None,
) -> PeriodSums:
    """Convolve a period's trips: the margin, and each team's points if ``scores``.

    The two trips of a number are added up first (``numbers`` keeps them for the
    next period), so the long running law is convolved once per number.
    """
    if numbers is None:
        numbers = {}
    home: Law = np.ones(1)
    away: Law = np.ones(1)
    margin: Law = np.ones(1)
    offset = 0
    lost = 0.0
    mean_home = mean_away = 0.0
    trips = period.trips
    assert len(trips) % 2 == 0 and all(not t[0] for t in trips[::2]), "visitor, then home"
    for i in range(0, len(trips), 2):
        key = (trips[i][1], trips[i + 1][1])
        number = numbers.get(key)
        if number is None:
            number = numbers[key] = _number(laws[key[0]], laws[key[1]], scores)
        margin = np.convolve(margin, number.margin)
        offset += number.offset
        mean_home += number.mean_home
        mean_away += number.mean_away
        if scores:
            home = np.convolve(home, number.home)
            away = np.convolve(away, number.away)
        if i % 16 == 14:
            margin, offset, cut = _trim(margin, offset)
            lost += cut
    margin, offset, cut = _trim(margin, offset)
    if offset < 0:  # keep margin 0 inside the array: the tie is read there
        margin, offset = np.concatenate([np.zeros(-offset), margin]), 0
    if offset >= len(margin):
        margin = np.concatenate([margin, np.zeros(offset + 1 - len(margin))])
    return PeriodSums(home, away, margin, offset, mean_home, mean_away, lost + cut)


def _joint(period: PeriodTrips, laws: Mapping[tuple[object, ...], TripLaw], cap: int) -> Law:
    """Return the joint law of (home points, away points) of a period, both below ``cap``.

    Needed only on the diagonal (tied periods); fast breaks make the two dependent.
    Points only grow, so cutting at ``cap`` changes nothing below it.
    """
    joint: Law = np.ones((1, 1))
    for home_has_ball, key in period.trips:
        law = laws[key]
        own, fast = law.own, law.fast
        ball, other = (0, 1) if home_has_ball else (1, 0)
        shape = list(joint.shape)
        shape[ball] = min(cap, shape[ball] + len(own) - 1)
        shape[other] = min(cap, shape[other] + len(fast) - 1)
        out = np.zeros(shape)
        rows, cols = joint.shape
        for k, p in enumerate(own):
            if p and k < shape[ball]:
                if ball == 0:
                    n = min(rows, shape[0] - k)
                    out[k : k + n, :cols] += p * joint[:n, :]
                else:
                    n = min(cols, shape[1] - k)
                    out[:rows, k : k + n] += p * joint[:, :n]
        for j, p in enumerate(fast):
            if p and j < shape[other]:
                if other == 0:
                    n = min(rows, shape[0] - j)
                    out[j : j + n, :cols] += p * joint[:n, :]
                else:
                    n = min(cols, shape[1] - j)
                    out[:rows, j : j + n] += p * joint[:, :n]
        joint = out
    return joint


def _diagonal(
    period: PeriodTrips, laws: Mapping[tuple[object, ...], TripLaw], sums: PeriodSums
) -> Law:
    """Return P(home points = away points = h) of a period, for each h."""
    if not any(laws[key].fast.any() for _, key in period.trips):
        length = min(len(sums.home), len(sums.away))
        return sums.home[:length] * sums.away[:length]  # independent: no fast breaks
    cap = min(_reach(sums.home), _reach(sums.away))
    joint = _joint(period, laws, cap)
    length = min(joint.shape)
    return np.array([joint[h, h] for h in range(length)])


def _reach(law: Law) -> int:
    """Return a length past which ``law`` has less than TAIL_EPSILON of its mass."""
    tail = np.cumsum(law[::-1])[::-1]
    above = np.nonzero(tail >= TAIL_EPSILON)[0]
    return int(above[-1]) + 2 if len(above) else 1


def to_map(law: Law, offset: int) -> dict[int, float]:
    """Return ``{value: p}`` for the entries of ``law`` inside its mass, tails cut."""
    lo = int(np.searchsorted(np.cumsum(law), TAIL_EPSILON))
    hi = len(law) - int(np.searchsorted(np.cumsum(law[::-1]), TAIL_EPSILON))
    values = law[lo:hi].tolist()
    return {i - offset: p for i, p in enumerate(values, lo) if p > 0}


def _add_at(target: Law, law: Law, at: int = 0) -> Law:
    """Return ``target`` with ``law`` added from index ``at`` on (grown when needed)."""
    end = at + len(law)
    if end > len(target):
        target = np.concatenate([target, np.zeros(end - len(target))])
    target[at:end] += law
    return target


def _add_centered(target: Law, zero: int, law: Law, law_zero: int) -> tuple[Law, int]:
    """Return ``target + law`` for two laws over margins, each with its index of 0."""
    new_zero = max(zero, law_zero)
    out = np.concatenate([np.zeros(new_zero - zero), target])
    return _add_at(out, law, new_zero - law_zero), new_zero


def endless_overtimes(home_label: str, away_label: str) -> EndlessGameError:
    """Return the error for cards whose overtime periods end tied every time."""
    return EndlessGameError(
        [
            "the game cannot end: overtime periods end tied every time "
            f"({home_label} and {away_label} cannot score)"
        ]
    )


@dataclass(slots=True)
class Overtimes:
    """The final margin law, overtimes added, and what the overtimes add to the game."""

    margin: Law
    zero: int
    tied: float  # P(overtime)
    expected_overtimes: float
    extra_home: float
    extra_away: float


def add_overtimes(
    margin: Law,
    zero: int,
    overtimes: Sequence[tuple[Law, int, float, float]],
    labels: tuple[str, str],
) -> Overtimes:
    """Add the overtimes to regulation's margin law (``margin``, margin 0 at ``zero``).

    Each overtime is (its margin law from a tie, the index of margin 0, its expected home
    and away points); the last one repeats for ever, a geometric series.
    """
    margin = margin.copy()
    tied = float(margin[zero])
    margin[zero] = 0.0
    expected_overtimes = extra_home = extra_away = 0.0
    reach = tied  # P(this overtime is played)
    for i, (law, offset, mean_home, mean_away) in enumerate(overtimes):
        q = float(law[offset])
        decided = law.copy()
        decided[offset] = 0.0
        if i == len(overtimes) - 1:
            if q > 1.0 - 1e-12:
                raise endless_overtimes(*labels)
            times = reach / (1.0 - q)
        else:
            times = reach
        expected_overtimes += times
        extra_home += times * mean_home
        extra_away += times * mean_away
        margin, zero = _add_centered(margin, zero, times * decided, offset)
        reach *= q
    return Overtimes(margin, zero, tied, expected_overtimes, extra_home, extra_away)


def overtime_scores(
    home: Law, away: Law, tie: Law, overtimes: Sequence[tuple[Law, Law, Law]]
) -> tuple[Law, Law]:
    """Add the overtimes to the score laws of the decided games (``home``, ``away``) from
    the law of the tied score ``tie``; each overtime is (home points of its decided games,
    away points of them, its tied points), the last one repeating until the tie's mass is
    below TAIL_EPSILON."""
    played = 0
    while tie.sum() >= TAIL_EPSILON and played < MAX_PERIODS:
        home_decided, away_decided, diag = overtimes[min(played, len(overtimes) - 1)]
        home = _add_at(home, convolve(tie, home_decided))
        away = _add_at(away, convolve(tie, away_decided))
        tie = convolve(tie, diag)
        tie = tie[: _reach(tie)]
        played += 1
    return home, away


def _solve(walk: Walk, scores: bool) -> GameOdds:
    regulation, overtimes = walk.periods()
    laws = walk.laws
    numbers: dict[tuple[object, ...], _Number] = {}
    reg = period_sums(regulation, laws, scores, numbers)
    ots = [period_sums(period, laws, scores, numbers) for period in overtimes]
    game = walk.game
    added = add_overtimes(
        reg.margin,
        reg.offset,
        [(ot.margin, ot.offset, ot.mean_home, ot.mean_away) for ot in ots],
        (game.home.team.label, game.away.team.label),
    )
    margin, zero = added.margin, added.zero
    p_home = float(margin[zero + 1 :].sum())
    p_away = float(margin[:zero].sum())
    home_map: dict[int, float] = {}
    away_map: dict[int, float] = {}
    lost = 1.0 - float(margin.sum())
    if scores:
        home_final, away_final, lost = _score_laws(regulation, overtimes, laws, reg, ots)
        home_map = to_map(home_final, -20)
        away_map = to_map(away_final, -20)
    return GameOdds(
        p_home_win=p_home,
        p_away_win=p_away,
        p_overtime=added.tied,
        expected_overtimes=added.expected_overtimes,
        expected_home_pts=20.0 + reg.mean_home + added.extra_home,
        expected_away_pts=20.0 + reg.mean_away + added.extra_away,
        margin=to_map(margin, zero),
        home_score=home_map,
        away_score=away_map,
        lost=max(0.0, lost),
    )


def _score_laws(
    regulation: PeriodTrips,
    overtimes: list[PeriodTrips],
    laws: Mapping[tuple[object, ...], TripLaw],
    reg: PeriodSums,
    ots: list[PeriodSums],
) -> tuple[Law, Law, float]:
    """Return the final score laws (points past the 20-20 start) and the mass left out."""
    tie = _diagonal(regulation, laws, reg)
    home = reg.home.copy()
    away = reg.away.copy()
    home[: len(tie)] -= tie
    away[: len(tie)] -= tie
    decided = []
    for period, ot in zip(overtimes, ots, strict=True):
        diag = _diagonal(period, laws, ot)
        home_decided = ot.home.copy()
        home_decided[: len(diag)] -= diag
        away_decided = ot.away.copy()
        away_decided[: len(diag)] -= diag
        decided.append((home_decided, away_decided, diag))
    home, away = overtime_scores(home, away, tie, decided)
    np.maximum(home, 0.0, out=home)  # the subtraction of the diagonal can leave -1e-20
    np.maximum(away, 0.0, out=away)
    lost = max(1.0 - float(home.sum()), 1.0 - float(away.sum()))
    return home, away, lost


def game_odds(
    home: TeamCard,
    away: TeamCard,
    *,
    rules: GameRules = ADVANCED,
    neutral: bool = False,
    home_plan: Plan | None = None,
    away_plan: Plan | None = None,
) -> GameOdds:
    """Return the exact law of a game ``play_game`` would play: margin, scores and more.

    Raise :class:`StrategyNotSolvedError` when ``rules.strategy`` is on and
    :class:`~simulator.vabg.engine.EndlessGameError` for cards that cannot end a game.
    """
    walk = Walk(home, away, rules, neutral, home_plan, away_plan)
    return _solve(walk, scores=True)


def matchup_odds(
    home: TeamCard, away: TeamCard, *, rules: GameRules = ADVANCED, neutral: bool = False
) -> GameOdds:
    """Return the odds of a game without the score laws: P(win), overtime, points, margin."""
    walk = Walk(home, away, rules, neutral, None, None)
    return _solve(walk, scores=False)


# -- a whole field at once -----------------------------------------------------------------
#
# ``field_odds`` gives what ``matchup_odds`` gives, for many pairs of one field together.
# Who is on the floor and who is tired depends on a team's own card, never on the
# opponent's (§2, §12), so each team's walk of the periods is taken once per role. The
# trip laws of every pair of lineups met are then built with NumPy over all the pairs at
# once, from the same reads (the d20 tables, the engine's steal and block searches, the
# 11-66 kinds), and a period's margin is the product of its trips' characteristic
# functions: a discrete Fourier transform of each trip law, raised to the number of times
# the trip is played, multiplied and transformed back. The transforms round at about
# 1e-16 absolute, so entries at the round-off's level are dropped (FIELD_FLOOR,
# FIELD_NOISE); the results agree with ``matchup_odds`` to 1e-13
# (tests/simulator/vabg/test_odds.py).

FIELD_POINTS = 512
"""Margins computed per period: -256..255 (doubled for a chunk that reaches the ends)."""
FIELD_FLOOR = 1e-17
"""Margin entries below this after the transforms are round-off and set to 0..."""
FIELD_NOISE = 4.0
"""... and so are those below this many times the largest negative entry of the law."""
FIELD_CHUNK = 128
"""Pairs solved together: a chunk's arrays take about 40 MB at their peak."""

_X = range(DUNK_TOP_MIN, DUNK_TOP_MAX + 1)
_KIND_COUNTS = np.array(
    [[len(ROLLS_BY_KIND[x][kind]) for kind in RollKind] for x in _X], dtype=np.int64
)
_FOUL_COUNTS = np.array(
    [
        [sum(1 for roll in ROLLS_BY_KIND[x][RollKind.FOUL_TRY] if roll >= r) for r in range(68)]
        for x in _X
    ],
    dtype=np.int64,
)
_TURNOVER_COUNTS = np.array(
    [
        [
            sum(1 for roll in ROLLS_BY_KIND[x][RollKind.TURNOVER_TRY] if turns_over_on(roll, c))
            for c in range(68)
        ]
        for x in _X
    ],
    dtype=np.int64,
)


class _FieldStates:
    """Every state (one side's five on the floor and their tiredness) met by the field's
    walks, with what a trip law reads of it as offense and as defense."""

    def __init__(self, rules: GameRules, dunk_tops: set[int]) -> None:
        self.rules = rules
        self.dunk_tops = sorted(dunk_tops)
        self.carriers: list[npt.NDArray[np.float64]] = []  # (5, 2): d8 weight per (idx, halved)
        self.none: list[float] = []  # shot-clock turnovers
        self.main: list[list[tuple[float, ...]]] = []
        self.shot: list[list[tuple[float, ...]]] = []
        self.ft: list[list[float]] = []
        self.ints: list[
            list[list[int]]
        ] = []  # off_reb, def_reb, dunk_top, dunk_adjust, to, foul, tired
        self.table: list[int] = []  # index of the defense's search counts
        self.labels: list[str] = []
        self.searches: dict[tuple[object, ...], int] = {}
        self.search_rows: list[npt.NDArray[np.int64]] = []  # (5, 2, 33, 8) per defense
        self.turnover_delta = np.zeros(33, dtype=np.int64)  # by effective dunk top

    def capture(self, game: GameState, laws: TripLaws, side: Side, key: tuple[object, ...]) -> int:
        """Add the state ``side`` is in now; return its index."""
        rules = self.rules
        lineup = side.lineup
        if not self.labels:
            self.turnover_delta = np.array([game.turnover_delta[x] for x in _X])
        carriers = np.zeros((5, 2))
        ball, none = _ball(side, rules.halved_any_defender)
        for (idx, halved), weight in ball.items():
            carriers[idx, int(halved)] = weight
        self.carriers.append(carriers)
        self.none.append(none)
        self.main.append([_main_read(p) for p in lineup])
        self.shot.append([_shot_read(p) for p in lineup])
        self.ft.append([_free_throw(p) for p in lineup])
        self.ints.append(
            [
                [p.off_reb for p in lineup],
                [p.def_reb for p in lineup],
                [p.dunk_top for p in lineup],
                [p.dunk_adjust for p in lineup],
                [p.to for p in lineup],
                [p.foul for p in lineup],
                [p.tired for p in lineup],
            ]
        )
        self.labels.append(side.team.label)
        # The engine's steal and block searches for every effective dunk top the field
        # can bring against this defense, keyed by what they read.
        profile = _profile(side)
        adjusts = tuple(p.dunk_adjust for p in lineup)
        search = (profile, adjusts)
        row = self.searches.get(search)
        if row is None:
            counts = np.zeros((5, 2, 33, 8), dtype=np.int64)  # missed, lost, runs x5, blocked
            halves = {False, rules.halved_any_defender}
            for idx in range(5):
                xs = {effective_dunk_top(top, adjusts[idx]) for top in self.dunk_tops}
                for halved in halves:
                    for x in xs:
                        kinds = ROLLS_BY_KIND[x]
                        cell = counts[idx, int(halved), x - DUNK_TOP_MIN]
                        rolls = kinds[RollKind.STEAL_TRY]
                        if rolls:
                            missed, lost, runs = laws._steal(
                                side, key, idx, rolls, game.steal_delta[x], halved
                            )
                            cell[0], cell[1] = missed, lost
                            cell[2:7] = runs
                        rolls = kinds[RollKind.BLOCK_TRY]
                        if rolls:
                            cell[7] = laws._block(side, key, idx, rolls, halved)
            row = self.searches[search] = len(self.search_rows)
            self.search_rows.append(counts)
        self.table.append(row)
        return len(self.labels) - 1

    def freeze(self) -> None:
        """Turn the lists into arrays (after every walk)."""
        self.a_carriers = np.array(self.carriers)
        self.a_none = np.array(self.none)
        self.a_main = np.array(self.main)
        self.a_shot = np.array(self.shot)
        self.a_ft = np.array(self.ft)
        ints = np.array(self.ints, dtype=np.int64)
        (
            self.off_reb,
            self.def_reb,
            self.dunk_top,
            self.dunk_adjust,
            self.to,
            self.foul,
            self.tired,
        ) = (ints[:, k, :] for k in range(7))
        self.a_table = np.array(self.table, dtype=np.int64)
        self.a_search = np.array(self.search_rows)
        # rules.foul_reach for every (card count, tiredness).
        self.foul_reach = np.array(
            [[foul_reach(c, t) for t in (0, 1)] for c in range(int(self.foul.max(initial=0)) + 1)],
            dtype=np.int64,
        )
        # rules.turnover_reach for every (card count, effective dunk top, tiredness).
        self.turnover_reach = np.array(
            [
                [
                    [turnover_reach(c, int(change), t) for t in (0, 1)]
                    for change in self.turnover_delta
                ]
                for c in range(int(self.to.max(initial=0)) + 1)
            ],
            dtype=np.int64,
        )


@dataclass(slots=True)
class _TeamWalk:
    """One team's states in one role, per period and number (first to last)."""

    periods: list[npt.NDArray[np.int64]]  # regulation, then overtimes; the last repeats


def _walk_team(
    team: TeamCard, rules: GameRules, neutral: bool, states: _FieldStates
) -> tuple[_TeamWalk, _TeamWalk]:
    """Walk the engine's periods for ``team`` at home and away (a game against itself:
    each side's lineups and tiredness read its own card only)."""

    def record(off: Side, de: Side, n: int, kind: TripKind = TripKind.PLAIN, /) -> None:
        if off is game.away:
            away_now.append(index(game.away))
            home_now.append(index(game.home))

    game = GameState(
        team, team, _NoDice(), rules, neutral, {HOME: None, AWAY: None}, DEFAULT_POLICY, record
    )
    laws = TripLaws(game)
    seen: dict[tuple[object, ...], int] = {}
    home_now: list[int] = []
    away_now: list[int] = []

    def index(side: Side) -> int:
        key = side_state(side)
        found = seen.get(key)
        if found is None:
            found = seen[key] = states.capture(game, laws, side, key)
        return found

    home_periods: list[npt.NDArray[np.int64]] = []
    away_periods: list[npt.NDArray[np.int64]] = []

    def close() -> None:
        home_periods.append(np.array(home_now, dtype=np.int64))
        away_periods.append(np.array(away_now, dtype=np.int64))
        home_now.clear()
        away_now.clear()

    home, away = game.home, game.away
    game.play_period(away.rotation, home.rotation)
    close()
    length = rules.overtime_possessions
    starters = home.starters + away.starters
    while True:  # as Walk.periods: until every starter is tired
        settled = not rules.tired_players or all(p.tired for p in starters)
        game.period += 1
        game.play_period([away.starters] * length, [home.starters] * length)
        close()
        if settled:
            break
        assert len(home_periods) <= 3 + 67 // length, "every starter tires by his 67th number"
    return _TeamWalk(home_periods), _TeamWalk(away_periods)


def _field_chains(
    s: _FieldStates,
    shooters: npt.NDArray[np.int64],
    others: npt.NDArray[np.int64],
    needed: npt.NDArray[np.bool_],
) -> tuple[Law, Law]:
    """Return the putback chains (see :class:`_Chain`) of many (shooting side, other
    side) pairs of states: the laws after a missed shot and after a missed free throw,
    one row each, padded to a common length."""
    count = len(shooters)
    o_reb = s.off_reb[shooters]
    d_reb = s.def_reb[others]
    rows = np.arange(count)
    o_best = np.argmax(o_reb, axis=1)  # the first longest: ties go to the lower slot
    d_best = np.argmax(d_reb, axis=1)
    best_is_offense = o_reb[rows, o_best] >= d_reb[rows, d_best]
    w_shot = np.zeros((count, 5))
    w_ft = np.zeros((count, 5))
    for d20 in range(1, 21):
        if d20 == 10 or d20 == 20:
            add = np.where(best_is_offense, 6 / 120, 0.0)
            w_shot[rows, o_best] += add
            w_ft[rows, o_best] += add
            continue
        if d20 < 10:
            spot = REBOUND_CHART[d20]
            share = np.clip(o_reb[:, spot], 0, 6) / 120
        else:
            spot = REBOUND_CHART[d20 - 10]
            share = (6 - np.clip(d_reb[:, spot], 0, 6)) / 120
        w_shot[:, spot] += share
        if free_throw_rebounder(d20) is None:
            w_ft[:, spot] += share
    reads = s.a_shot[shooters]
    ft = s.a_ft[shooters]
    m3, m2, fouled, x3, x2 = (reads[:, :, k] for k in range(5))
    steps = []
    for w in (w_shot, w_ft):
        foul = w * fouled
        a = np.stack(
            [
                1.0 - w.sum(axis=1),
                (foul * (1 - ft) * ft).sum(axis=1),
                (w * m2).sum(axis=1) + (foul * ft * ft).sum(axis=1),
                (w * m3).sum(axis=1),
            ]
        )
        b = (w * (x3 + x2)).sum(axis=1)
        c0 = (foul * (1 - ft) * (1 - ft)).sum(axis=1)
        c1 = (foul * ft * (1 - ft)).sum(axis=1)
        steps.append((a, b, c0, c1))
    (a_s, b_s, c0_s, c1_s), (a_f, b_f, c0_f, c1_f) = steps
    m11, m12, m21, m22 = 1.0 - b_s, -c0_s, -b_f, 1.0 - c0_f
    det = m11 * m22 - m12 * m21
    stuck = needed & (det <= 1e-12)
    if stuck.any():
        label = s.labels[int(shooters[np.argmax(stuck)])]
        raise EndlessGameError(
            [
                f"the game cannot end: {label} can win back every rebound "
                "of its own misses without ever scoring"
            ]
        )
    det = np.where(det <= 1e-12, 1.0, det)
    shot: list[Law] = []
    ft_law: list[Law] = []
    prev = np.zeros(count)
    k = 0
    while True:
        r1 = c1_s * prev
        r2 = c1_f * prev
        if k < 4:
            r1 = r1 + a_s[k]
            r2 = r2 + a_f[k]
        s_k = (m22 * r1 - m12 * r2) / det
        f_k = (m11 * r2 - m21 * r1) / det
        shot.append(s_k)
        ft_law.append(f_k)
        prev = f_k
        k += 1
        if k >= 4 and not ((s_k + f_k)[needed] >= SERIES_EPSILON).any():
            break
        if k >= SERIES_TERMS:
            label = s.labels[int(shooters[np.argmax(needed & (s_k + f_k >= SERIES_EPSILON))])]
            raise EndlessGameError(
                [
                    f"the game cannot end: {label} can go on missing free "
                    "throws and winning the rebounds back without end"
                ]
            )
    return np.stack(shot, axis=1), np.stack(ft_law, axis=1)


def _field_parts(
    s: _FieldStates, off: npt.NDArray[np.int64], de: npt.NDArray[np.int64]
) -> tuple[Law, Law, Law, Law, Law, Law, Law, Law, Law]:
    """Return the parts of the trips of many (offense, defense) pairs of states (see
    :meth:`TripLaws._parts`): direct points (5), to_shot, to_ft (4), the 33-36 foul's two
    shots (direct 3, to_ft 3) and one-and-one (direct 3, to_ft 3), and the fast breaks'
    direct (4), to_shot and to_ft (3)."""
    count = len(off)
    # rules.effective_dunk_top of each carrier against his slot's defender, as an index.
    top = s.dunk_top[off] + s.dunk_adjust[de]  # (count, 5)
    low = int(top.min(initial=0))
    tops = [
        effective_dunk_top(v, 0) - DUNK_TOP_MIN for v in range(low, int(top.max(initial=0)) + 1)
    ]
    x = np.array(tops, dtype=np.int64)[top - low]
    kinds = _KIND_COUNTS[x]  # (count, 5, 7)
    reach = np.clip(s.foul_reach[s.foul[de], s.tired[de]], 0, 67)
    fouls = _FOUL_COUNTS[x, reach]
    turnover = s.turnover_reach[s.to[off], x, s.tired[off]]
    turnovers = _TURNOVER_COUNTS[x, np.clip(turnover, 0, 67)]
    table = s.a_table[de]
    slots = np.arange(5)[None, :]
    main = np.zeros((count, 5))
    dunk = np.zeros((count, 5))
    fouled = np.zeros((count, 5))
    fast = np.zeros((count, 5))
    blocked = np.zeros(count)
    zero = s.a_none[off].copy()
    carriers = s.a_carriers[off]
    for halved in (0, 1):
        u = carriers[:, :, halved] / 36
        if not u.any():
            continue
        found = s.a_search[table[:, None], slots, halved, x]  # (count, 5, 8)
        to_main = (
            kinds[:, :, RollKind.NOTHING]
            + found[:, :, 0]
            + kinds[:, :, RollKind.BLOCK_TRY]
            - found[:, :, 7]
            + kinds[:, :, RollKind.FOUL_TRY]
            - fouls
            + kinds[:, :, RollKind.TURNOVER_TRY]
            - turnovers
        )
        lost = kinds[:, :, RollKind.STOP] + found[:, :, 1] + turnovers
        main += u * to_main
        zero += (u * lost).sum(axis=1)
        fast += np.einsum("ci,cij->cj", u, found[:, :, 2:7].astype(np.float64))
        blocked += (u * found[:, :, 7]).sum(axis=1)
        fouled += u * fouls
        dunk += u * kinds[:, :, RollKind.DUNK]
    reads = s.a_main[off]
    m3, m2, foul, call, miss = (reads[:, :, k] for k in range(5))
    shots = s.a_shot[off]
    s3, s2, sfoul, x3, x2 = (shots[:, :, k] for k in range(5))
    ft = s.a_ft[off]
    missed = 1 - ft
    direct = np.zeros((count, 5))
    to_ft = np.zeros((count, 4))
    w = main * foul
    direct[:, 0] = zero + (main * call).sum(axis=1)
    direct[:, 1] = (w * missed * ft).sum(axis=1)
    direct[:, 2] = (main * m2 + w * ft * ft).sum(axis=1)
    direct[:, 3] = (main * m3).sum(axis=1)
    to_ft[:, 0] = (w * missed * missed).sum(axis=1)
    to_ft[:, 1] = (w * ft * missed).sum(axis=1)
    to_shot = blocked + (main * miss).sum(axis=1)
    # Dunks, and the 33-36 fouls: and one, two shots on a missed 2, three on a missed 3.
    direct[:, 3] += (dunk * s3).sum(axis=1)
    direct[:, 2] += (dunk * (1 - s3)).sum(axis=1)
    w = fouled
    direct[:, 4] += (w * s3 * ft).sum(axis=1)
    to_ft[:, 3] += (w * s3 * missed).sum(axis=1)
    direct[:, 3] += (w * s2 * ft).sum(axis=1)
    to_ft[:, 2] += (w * s2 * missed).sum(axis=1)
    v = w * x2
    direct[:, 2] += (v * ft * ft).sum(axis=1)
    direct[:, 1] += (v * missed * ft).sum(axis=1)
    to_ft[:, 1] += (v * ft * missed).sum(axis=1)
    to_ft[:, 0] += (v * missed * missed).sum(axis=1)
    for made in range(3):
        before = w * x3 * comb(2, made) * ft**made * missed ** (2 - made)
        direct[:, made + 1] += (before * ft).sum(axis=1)
        to_ft[:, made] += (before * missed).sum(axis=1)
    v = w * sfoul
    plain_direct = np.zeros((count, 3))
    plain_ft = np.zeros((count, 3))
    plain_direct[:, 2] = (v * ft * ft).sum(axis=1)
    plain_direct[:, 1] = (v * missed * ft).sum(axis=1)
    plain_ft[:, 1] = (v * ft * missed).sum(axis=1)
    plain_ft[:, 0] = (v * missed * missed).sum(axis=1)
    bonus_direct = np.zeros((count, 3))
    bonus_ft = np.zeros((count, 3))
    bonus_direct[:, 2] = (v * ft * ft).sum(axis=1)
    bonus_ft[:, 0] = (v * missed).sum(axis=1)
    bonus_ft[:, 1] = (v * ft * missed).sum(axis=1)
    # Fast breaks: the stealer's bonus d20 (§8).
    shots = s.a_shot[de]
    f3, f2, ffoul, fx3, fx2 = (shots[:, :, k] for k in range(5))
    fft = s.a_ft[de]
    fmissed = 1 - fft
    f_direct = np.zeros((count, 4))
    f_ft = np.zeros((count, 3))
    v = fast * ffoul
    f_direct[:, 3] = (fast * f3).sum(axis=1)
    f_direct[:, 2] = (fast * f2 + v * fft * fft).sum(axis=1)
    f_direct[:, 1] = (v * fmissed * fft).sum(axis=1)
    f_ft[:, 1] = (v * fft * fmissed).sum(axis=1)
    f_ft[:, 0] = (v * fmissed * fmissed).sum(axis=1)
    f_shot = (fast * (fx3 + fx2)).sum(axis=1)
    return (
        direct,
        to_shot,
        to_ft,
        plain_direct,
        plain_ft,
        bonus_direct,
        bonus_ft,
        np.concatenate([f_direct, f_shot[:, None], f_ft], axis=1),
        fast.sum(axis=1),
    )


def _settle_rows(
    direct: Law, to_shot: Law, to_ft: Law, shot: Law | None, ft: Law | None, length: int
) -> Law:
    """:func:`_settle` for many rows at once, padded to ``length``."""
    out = np.zeros((len(direct), length))
    out[:, : direct.shape[1]] += direct
    if shot is None or ft is None:
        out[:, 0] += to_shot
        out[:, : to_ft.shape[1]] += to_ft
        return out
    out[:, : shot.shape[1]] += to_shot[:, None] * shot
    width = ft.shape[1]
    for k in range(to_ft.shape[1]):
        out[:, k : k + width] += to_ft[:, k : k + 1] * ft
    return out


def _number_flags(rules: GameRules, period: int, length: int) -> npt.NDArray[np.int64]:
    """Return chart * 2 + one-and-one for each number of a period, first to last."""
    flags = []
    for i in range(length):
        n = length - i
        chart = rules.rebound_chart and chart_number(n)
        bonus = one_and_one(period, n)
        flags.append(2 * chart + bonus)
    return np.array(flags, dtype=np.int64)


def _field_chunk(
    s: _FieldStates,
    walks: Mapping[int, tuple[_TeamWalk, _TeamWalk]],
    chunk: list[tuple[int, int]],
    rules: GameRules,
    points: int,
) -> list[GameOdds] | None:
    """Solve a chunk of pairs; None when a margin reaches past ``points`` / 2."""
    offs: list[npt.NDArray[np.int64]] = []
    des: list[npt.NDArray[np.int64]] = []
    flags: list[npt.NDArray[np.int64]] = []
    groups: list[npt.NDArray[np.int64]] = []
    homes: list[npt.NDArray[np.int64]] = []
    spans: list[tuple[int, int]] = []
    flag_cache: dict[tuple[int, int], npt.NDArray[np.int64]] = {}
    group = 0
    for h, a in chunk:
        home_periods, away_periods = walks[h][0].periods, walks[a][1].periods
        count = max(len(home_periods), len(away_periods))
        spans.append((group, count))
        for p in range(count):
            hs = home_periods[min(p, len(home_periods) - 1)]
            aw = away_periods[min(p, len(away_periods) - 1)]
            length = len(hs)
            f = flag_cache.get((min(p, 1), length))
            if f is None:
                f = flag_cache[(min(p, 1), length)] = _number_flags(rules, p, length)
            offs += [aw, hs]
            des += [hs, aw]
            flags += [f, f]
            groups.append(np.full(2 * length, group, dtype=np.int64))
            homes += [np.zeros(length, dtype=np.int64), np.ones(length, dtype=np.int64)]
            group += 1
    off, de, flag = np.concatenate(offs), np.concatenate(des), np.concatenate(flags)
    grp, home_off = np.concatenate(groups), np.concatenate(homes)
    total = len(s.labels)
    pairs_u, pair_of = np.unique(off * total + de, return_inverse=True)
    o_u, d_u = pairs_u // total, pairs_u % total
    variants, variant_of = np.unique(pair_of * 4 + flag, return_inverse=True)
    vb = variants // 4
    vchart = (variants >> 1) & 1
    vbonus = (variants & 1).astype(bool)[:, None]
    (direct, to_shot, to_ft, plain_d, plain_f, bonus_d, bonus_f, fast_parts, runs) = _field_parts(
        s, o_u, d_u
    )
    count_u = len(o_u)
    d = direct[vb]
    d[:, :3] += np.where(vbonus, bonus_d[vb], plain_d[vb])
    tf = to_ft[vb]
    tf[:, :3] += np.where(vbonus, bonus_f[vb], plain_f[vb])
    ts = to_shot[vb]
    fp = fast_parts[vb]
    charted = np.flatnonzero(vchart)
    plain = np.flatnonzero(vchart == 0)
    length = 5
    shot = ft = None
    if len(charted):
        needed = np.zeros(2 * count_u, dtype=bool)
        needed[vb[charted]] = True
        needed[count_u + vb[charted]] = runs[vb[charted]] > 0
        shot, ft = _field_chains(s, np.concatenate([o_u, d_u]), np.concatenate([d_u, o_u]), needed)
        length = max(5, shot.shape[1] + 3)
    count_v = len(variants)
    own = np.zeros((count_v, length))
    fast = np.zeros((count_v, length))
    own[plain] = _settle_rows(d[plain], ts[plain], tf[plain], None, None, length)
    fast[plain] = _settle_rows(fp[plain, :4], fp[plain, 4], fp[plain, 5:], None, None, length)
    if shot is not None and ft is not None:
        rows = vb[charted]
        own[charted] = _settle_rows(
            d[charted], ts[charted], tf[charted], shot[rows], ft[rows], length
        )
        back = count_u + rows
        fast[charted] = _settle_rows(
            fp[charted, :4], fp[charted, 4], fp[charted, 5:], shot[back], ft[back], length
        )
    own[:, 0] += fast[:, 0]  # a fast break that scores nothing: the trip scores nothing
    fast[:, 0] = 0.0
    # Each trip's characteristic function of the margin (home minus away): its margin
    # law laid out circularly (negative margins at the end) and transformed.
    vhome = np.zeros(count_v, dtype=bool)
    vhome[variant_of] = home_off == 1
    up = np.where(vhome[:, None], own, fast)  # margins +j
    down = np.where(vhome[:, None], fast, own)  # margins -j
    circle = np.zeros((count_v, points))
    circle[:, :length] = up
    circle[:, 0] += down[:, 0]
    circle[:, points - length + 1 :] += down[:, :0:-1]
    chars = np.fft.rfft(circle, axis=1)
    keys, times = np.unique(grp * count_v + variant_of, return_counts=True)
    key_group, key_variant = keys // count_v, keys % count_v
    starts = np.flatnonzero(np.concatenate([[True], key_group[1:] != key_group[:-1]]))
    # The k-th distinct trip of each period, for k = 0, 1, ...: one product per k.
    rank = np.arange(len(keys)) - np.repeat(starts, np.diff(np.append(starts, len(keys))))
    exponents = times[:, None].astype(np.complex128)
    products = np.ones((group, points // 2 + 1), dtype=np.complex128)
    for k in range(int(rank.max()) + 1):
        at = np.flatnonzero(rank == k)
        products[key_group[at]] *= np.power(chars[key_variant[at]], exponents[at])
    margins = np.fft.fftshift(np.fft.irfft(products, n=points, axis=1), axes=1)
    edge = margins[:, :8].sum(axis=1) + margins[:, -8:].sum(axis=1)
    if float(np.abs(edge).max()) > 1e-14:
        return None
    # The transforms round at about 1e-16 of the largest entry (more for laws near a
    # point mass): what is left below FIELD_NOISE times the largest negative entry,
    # which can only be round-off, is dropped.
    floor = np.maximum(FIELD_FLOOR, -FIELD_NOISE * margins.min(axis=1, keepdims=True))
    margins[margins < floor] = 0.0
    steps = np.arange(length)
    mean_own, mean_fast = (own * steps).sum(axis=1), (fast * steps).sum(axis=1)  # no BLAS threads
    by_trip_own, by_trip_fast = mean_own[variant_of], mean_fast[variant_of]
    home_mean: Law = np.bincount(
        grp, np.where(home_off == 1, by_trip_own, by_trip_fast), group
    ).astype(np.float64)
    away_mean: Law = np.bincount(
        grp, np.where(home_off == 1, by_trip_fast, by_trip_own), group
    ).astype(np.float64)
    return [
        _field_result(
            margins[first : first + count],
            home_mean[first : first + count],
            away_mean[first : first + count],
            s.labels[int(walks[h][0].periods[0][0])],
            s.labels[int(walks[a][1].periods[0][0])],
        )
        for (first, count), (h, a) in zip(spans, chunk, strict=True)
    ]


def _field_result(
    margins: Law, home_mean: Law, away_mean: Law, home_label: str, away_label: str
) -> GameOdds:
    """Add up one pair's periods (see :func:`_solve`); every margin is centred."""
    zero = margins.shape[1] // 2
    margin = margins[0].copy()
    tied = float(margin[zero])
    margin[zero] = 0.0
    expected_overtimes = extra_home = extra_away = 0.0
    reach = tied
    last = len(margins) - 1
    for i in range(1, last + 1):
        ot = margins[i]
        q = float(ot[zero])
        if i == last:
            if q > 1.0 - 1e-12:
                raise endless_overtimes(home_label, away_label)
            times = reach / (1.0 - q)
        else:
            times = reach
        expected_overtimes += times
        extra_home += times * float(home_mean[i])
        extra_away += times * float(away_mean[i])
        decided = times * ot
        decided[zero] = 0.0
        margin += decided
        reach *= q
    return GameOdds(
        p_home_win=float(margin[zero + 1 :].sum()),
        p_away_win=float(margin[:zero].sum()),
        p_overtime=tied,
        expected_overtimes=expected_overtimes,
        expected_home_pts=20.0 + float(home_mean[0]) + extra_home,
        expected_away_pts=20.0 + float(away_mean[0]) + extra_away,
        margin=to_map(margin, zero),
        lost=max(0.0, 1.0 - float(margin.sum())),
    )


def field_odds(
    teams: Sequence[TeamCard],
    pairs: Iterable[tuple[int, int]] | None = None,
    *,
    rules: GameRules = ADVANCED,
    neutral: bool = False,
) -> dict[tuple[int, int], GameOdds]:
    """Return :func:`matchup_odds` for many pairs of a field at once, keyed by (home
    index, away index) into ``teams``; by default every ordered pair (every pair with
    the lower index at home on a neutral court). The same odds to 1e-13, about seven
    times faster per pair (docs/odds.md, "Speed").

    Raise :class:`StrategyNotSolvedError` when ``rules.strategy`` is on and
    :class:`~simulator.vabg.engine.EndlessGameError` for cards that cannot end a game.
    """
    if rules.strategy:
        raise StrategyNotSolvedError(
            "this solver sums independent trips, and the coach policy reads the score: "
            "the game with it on is solved by simulator.vabg.coachodds (exact_field_odds)"
        )
    if pairs is None:
        every = range(len(teams))
        pairs = itertools.combinations(every, 2) if neutral else itertools.permutations(every, 2)
    wanted = list(pairs)
    dunk_tops = {
        team.dunk_top if card.dunk_top is None else card.dunk_top
        for team in teams
        for card in team.players
    }
    states = _FieldStates(rules, dunk_tops)
    walks = {
        t: _walk_team(teams[t], rules, neutral, states)
        for t in sorted({t for pair in wanted for t in pair})
    }
    states.freeze()
    out: dict[tuple[int, int], GameOdds] = {}
    for start in range(0, len(wanted), FIELD_CHUNK):
        chunk = wanted[start : start + FIELD_CHUNK]
        points = FIELD_POINTS
        while True:
            solved = _field_chunk(states, walks, chunk, rules, points)
            if solved is not None:
                break
            points *= 2
        out.update(zip(chunk, solved, strict=True))
    return out
