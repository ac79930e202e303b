"""The exact odds of a six-dice game to 21 (sixdice-rulings.md), from the dice math.

Between two rolls the game is a Markov chain: who has the ball, the pawn's depth, who holds
the chip, both scores and who rolls one die fewer next (§2.9). A main roll (with the shot,
free throws, passes, pushes and dunks that follow it) and an inbound race (§2.8, solved as
a chain of its own over the distance moved and the defense's dice still standing) each move
it to a position of the same kind. A tied jump ball is rolled again, so either team wins it
with probability 1/2. Nothing is sampled:

- the chance of each reading of 5 or 6 dice is multinomial over the four symbols of the
  rules' ``faces``;
- positions with the same scores form a block of 128 that no roll leaves except by scoring,
  so the blocks are solved from 20-20 down, each one linear system ``(I - A) V = B`` whose
  matrix ``A`` (the rolls that score nothing) is the same for every block;
- the law of the final score flows forward from the jump ball through the same blocks.

The policy's choices are asked of the policy itself (default :data:`DEFAULT_POLICY`), once
per kind of question: a tie within a team (§4.1) by role, depth and the tied symbols; the
Ball action (§4.2) by depth and n; pushing out (§4.2) by depth; the chip (§4.3, §2.11) by
the contest's values and, for a reroll, the holder's Balls (the others shown as one
non-Ball face). The answers must not read the score or the die order, as the default
policy's do not; a main-roll reroll is not modelled (the default never asks for one).
Everything here is pure: the chain is solved with NumPy.

>>> odds = exact_odds()
>>> round(odds.p_home_win, 3), odds.method
(0.5, 'exact')
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from simulator.games import MatchOdds
from simulator.sixdice.policy import (
    ADVANCE,
    DEFAULT_POLICY,
    MAIN_CONTEST,
    SHOOT,
    SHOT_CONTEST,
    Contest,
    Policy,
    Tie,
)
from simulator.sixdice.rules import (
    BALL,
    DEFLECTED,
    FREE_THROW,
    NO_LOOK,
    PASS,
    SHOT,
    STANDARD,
    SYMBOLS,
    SixDiceRules,
)
from simulator.sixdice.state import (
    ARC,
    AWAY,
    DEFENSE,
    HALF,
    HOME,
    INBOUND,
    OFFENSE,
    SIDES,
    TARGET,
    GameState,
    other,
)
from simulator.sixdice.style import DEFAULT_STYLE, SixDiceStyle, game_policy

Vector = npt.NDArray[np.float64]

MAIN_STATES = [
    (offense, depth, chip, penalty)
    for offense in SIDES
    for depth in range(1, HALF + 1)
    for chip in SIDES
    for penalty in range(4)
]
"""The positions before a main roll; ``penalty`` is a bit set: 1 away, 2 home (§2.9)."""
INBOUND_STATES = [(team, chip, penalty) for team in SIDES for chip in SIDES for penalty in range(4)]
"""The positions before an inbound race: the inbounder, the chip, the penalties."""
SIZE = len(MAIN_STATES) + len(INBOUND_STATES)
"""Positions in a block (one pair of scores): 112 before a main roll, 16 before a race."""
_MAIN_INDEX = {s: i for i, s in enumerate(MAIN_STATES)}
_INBOUND_INDEX = {s: len(MAIN_STATES) + i for i, s in enumerate(INBOUND_STATES)}
_BIT = {AWAY: 1, HOME: 2}
FT_BALLS = 3
"""§2.7: three Balls make a free throw."""

SCORING = [(side, points) for side in SIDES for points in (1, 2, 3, 12)]
"""The kinds of scoring move: a team and 1, 2 or 3 points, or ``12``: two free throws made
one after the other (the game ends at 21 between them, G13)."""


def main_index(offense: str, depth: int, chip: str, penalty: frozenset[str] = frozenset()) -> int:
    """Return the index in a block of the position before a main roll."""
    return _MAIN_INDEX[(offense, depth, chip, _bits(penalty))]


def inbound_index(team: str, chip: str, penalty: frozenset[str] = frozenset()) -> int:
    """Return the index in a block of the position before ``team``'s inbound race."""
    return _INBOUND_INDEX[(team, chip, _bits(penalty))]


def _bits(penalty: frozenset[str] | set[str]) -> int:
    return sum(_BIT[side] for side in penalty)


def _readings(faces: str, k: int) -> list[tuple[float, dict[str, int]]]:
    """Return each count of symbols ``k`` dice can show, with its probability."""
    q = {s: faces.count(s) / 6 for s in SYMBOLS}
    out = []
    for counts in itertools.product(range(k + 1), repeat=len(SYMBOLS)):
        if sum(counts) != k:
            continue
        c = dict(zip(SYMBOLS, counts, strict=True))
        p = float(math.factorial(k))
        for s in SYMBOLS:
            p *= q[s] ** c[s] / math.factorial(c[s])
        if p > 0:
            out.append((p, c))
    return out


def _binomial(k: int, q: float) -> list[float]:
    """Return P(exactly j of ``k`` dice show a face of probability ``q``), j = 0..k."""
    return [math.comb(k, j) * q**j * (1 - q) ** (k - j) for j in range(k + 1)]


@dataclass
class _Moves:
    """The moves out of each position of a block, by what they score."""

    still: Vector
    """``SIZE x SIZE``: the moves that score nothing."""
    scoring: dict[tuple[str, int], Vector]
    """``SIZE x SIZE`` for each kind of :data:`SCORING`: where the game goes on if it does."""


class _Builder:
    """Work out every position's moves from the dice and the policy's answers."""

    def __init__(self, rules: SixDiceRules, policy: Policy) -> None:
        self.rules = rules
        self.policy = policy
        self.qb = rules.faces.count(BALL) / 6
        self.qs = rules.faces.count(SHOT) / 6
        self.still = np.zeros((SIZE, SIZE))
        self.scoring = {kind: np.zeros((SIZE, SIZE)) for kind in SCORING}
        # A representative die value for each symbol the faces show (the policy sees dice).
        self.value_of = {s: rules.faces.index(s) + 1 for s in SYMBOLS if s in rules.faces}
        self.other_value = next(
            (v for v in range(1, 7) if rules.face(v) != BALL), self.value_of[BALL]
        )
        self._plays: dict[tuple[str, str, int, int], dict[tuple[str, int], float]] = {}
        self._shots: dict[
            tuple[str, int, str, int], list[tuple[float, int, tuple[str, int] | None]]
        ] = {}
        self._races: dict[tuple[bool, bool], dict[tuple[str, int], float]] = {}

    # -- what a team plays ------------------------------------------------------------------

    def plays(self, offense: str, role: str, depth: int, k: int) -> dict[tuple[str, int], float]:
        """Return the law of a team's (play, n) on a main roll of ``k`` dice (§2.2, §4.1);
        ``offense`` is the team on offense, so a policy of two styles asks the right one."""
        key = (offense, role, depth, k)
        if key not in self._plays:
            state = GameState.main_roll(offense, depth, other(offense))
            law: dict[tuple[str, int], float] = {}
            for p, c in _readings(self.rules.faces, k):
                n = max(c.values())
                tied = tuple(s for s in SYMBOLS if c[s] == n)
                play = (
                    tied[0]
                    if len(tied) == 1
                    else self.policy.choose_play(Tie(tied, n), role, state)
                )
                law[(play, n)] = law.get((play, n), 0.0) + p
            self._plays[key] = law
        return self._plays[key]

    def _contest(self, kind: str, holder: str, values: Mapping[str, int]) -> Contest:
        rival = other(holder)
        return Contest(kind, holder, (), (), values[holder], (), (), values[rival])

    # -- the moves --------------------------------------------------------------------------

    def add(
        self, origin: int, p: float, target: int, scored: tuple[str, int] | None = None
    ) -> None:
        if scored is None:
            self.still[origin, target] += p
        else:
            self.scoring[scored][origin, target] += p

    def build(self) -> _Moves:
        for offense, depth, chip, penalty in MAIN_STATES:
            self.main_roll(
                main_index(offense, depth, chip, _sides(penalty)), offense, depth, chip, penalty
            )
        for team, chip, penalty in INBOUND_STATES:
            self.inbound_race(inbound_index(team, chip, _sides(penalty)), team, chip, penalty)
        return _Moves(self.still, self.scoring)

    def main_roll(self, origin: int, offense: str, depth: int, chip: str, penalty: int) -> None:
        defense = other(offense)
        k_off = 5 if penalty & _BIT[offense] else 6
        k_def = 5 if penalty & _BIT[defense] else 6
        off_law = self.plays(offense, OFFENSE, depth, k_off)
        def_law = self.plays(offense, DEFENSE, depth, k_def)
        state = GameState.main_roll(offense, depth, chip)
        for ((op, on), po), ((dp, dn), pd) in itertools.product(off_law.items(), def_law.items()):
            p = po * pd
            values = {offense: on, defense: dn}
            new_chip = chip
            if on != dn:
                winner = offense if on > dn else defense
            elif self.policy.use_chip(self._contest(MAIN_CONTEST, chip, values), state):
                winner, new_chip = chip, other(chip)  # §2.2, G16: the chip wins the tie
            else:
                winner = other(chip)
            if winner == offense:
                self.offense_wins(origin, p, offense, depth, new_chip, op, on)
            else:
                self.defense_wins(origin, p, offense, depth, new_chip, dp, dn)

    def offense_wins(
        self, origin: int, p: float, offense: str, depth: int, chip: str, play: str, n: int
    ) -> None:
        """§2.3; both teams have rolled, so no penalty is left but a pass's (G10)."""
        defense = other(offense)
        if play == BALL:
            if n == 6:  # G8: a slam dunk
                self.add(origin, p, inbound_index(defense, chip), (offense, 2))
                return
            action = self.policy.ball_action(n, GameState.main_roll(offense, depth, chip))
            if action == SHOOT:
                self.shot(origin, p, offense, depth, chip, 0)
            elif action == ADVANCE:
                self.advance(origin, p, offense, depth, n, chip, frozenset())
            else:
                raise ValueError(f"ball_action must answer advance or shoot, got {action!r}")
        elif play == PASS:
            penalized = frozenset({defense}) if self.rules.pass_penalty(NO_LOOK) else frozenset()
            self.advance(origin, p, offense, depth, 3, chip, penalized)
        elif play == SHOT:
            self.shot(origin, p, offense, depth, chip, 0)
        else:
            self.free_throws(origin, p, offense, chip, 0)

    def defense_wins(
        self, origin: int, p: float, offense: str, depth: int, chip: str, play: str, n: int
    ) -> None:
        """§2.4."""
        defense = other(offense)
        if play == BALL:
            self.push(origin, p, offense, depth, n, chip, frozenset())
        elif play == PASS:
            penalized = frozenset({offense}) if self.rules.pass_penalty(DEFLECTED) else frozenset()
            self.push(origin, p, offense, depth, 3, chip, penalized)
        elif play == SHOT:
            self.add(origin, p, main_index(defense, 1, chip))  # a steal at d 1
        elif play == FREE_THROW:
            self.free_throws(origin, p, defense, chip, 0)  # G12: then the offense inbounds

    def advance(
        self,
        origin: int,
        p: float,
        offense: str,
        depth: int,
        sections: int,
        chip: str,
        penalty: frozenset[str],
    ) -> None:
        if depth + sections > HALF:  # G9: a dunk
            self.add(origin, p, inbound_index(other(offense), chip, penalty), (offense, 2))
        else:
            self.add(origin, p, main_index(offense, depth + sections, chip, penalty))

    def push(
        self,
        origin: int,
        p: float,
        offense: str,
        depth: int,
        sections: int,
        chip: str,
        penalty: frozenset[str],
    ) -> None:
        if depth - sections <= 0:  # G7: a steal at the defense's d n-d+1
            self.add(origin, p, main_index(other(offense), sections - depth + 1, chip, penalty))
        else:
            self.add(origin, p, main_index(offense, depth - sections, chip, penalty))

    def shot(
        self, origin: int, p: float, offense: str, depth: int, chip: str, penalty: int
    ) -> None:
        """§2.6: Balls +1 inside the arc, -1 outside; the chip (or its reroll) on a tie."""
        key = (offense, depth, chip, penalty)
        if key not in self._shots:
            self._shots[key] = self.shot_law(offense, depth, chip, penalty)
        for q, target, scored in self._shots[key]:
            self.add(origin, p * q, target, scored)

    def shot_law(
        self, offense: str, depth: int, chip: str, penalty: int
    ) -> list[tuple[float, int, tuple[str, int] | None]]:
        """Return where a shot from ``depth`` leads: (probability, position, what it scored)."""
        out: list[tuple[float, int, tuple[str, int] | None]] = []
        defense = other(offense)
        state = GameState.main_roll(offense, depth, chip)
        if depth >= ARC and self.policy.push_out(state):
            depth = ARC - 1
        inside = depth >= ARC
        points = 2 if inside else 3
        bonus = 1 if inside else -1
        k = {s: 5 if penalty & _BIT[s] else 6 for s in SIDES}
        laws = {s: _binomial(k[s], self.qb) for s in SIDES}
        holder = chip
        for b_off, b_def in itertools.product(range(k[offense] + 1), range(k[defense] + 1)):
            pb = laws[offense][b_off] * laws[defense][b_def]
            if pb == 0:
                continue
            balls = {offense: b_off, defense: b_def}
            values = {offense: b_off + bonus, defense: b_def}
            win, chip_moves = self.shot_contest(
                holder, values, balls, k[holder], bonus if holder == offense else 0, state
            )
            after = inbound_index(defense, other(holder) if chip_moves else holder)
            out.append((pb * win.get(defense, 0.0), after, None))
            out.append((pb * win.get(offense, 0.0), after, (offense, points)))
        return out

    def shot_contest(
        self,
        holder: str,
        values: Mapping[str, int],
        balls: Mapping[str, int],
        k_holder: int,
        holder_bonus: int,
        state: GameState,
    ) -> tuple[dict[str, float], bool]:
        """Return the law of the shot contest's winner and whether the chip went over."""
        rival = other(holder)
        if self.rules.chip_reroll:
            b = balls[holder]
            dice = (self.value_of[BALL],) * b + (self.other_value,) * (k_holder - b)
            faces = tuple(self.rules.face(v) for v in dice)
            contest = Contest(
                SHOT_CONTEST, holder, dice, faces, values[holder], (), (), values[rival]
            )
            chosen = self.policy.reroll(contest, state)
            if chosen:
                kept_balls = sum(
                    1
                    for i in range(1, k_holder + 1)
                    if i not in chosen and dice[i - 1] == self.value_of[BALL]
                )
                law = _binomial(len(chosen), self.qb)
                win: dict[str, float] = {}
                for j, pj in enumerate(law):
                    value = kept_balls + j + holder_bonus
                    w = holder if value > values[rival] else rival  # §2.11: equal goes over
                    win[w] = win.get(w, 0.0) + pj
                return win, True
        if values[holder] != values[rival]:
            return {holder if values[holder] > values[rival] else rival: 1.0}, False
        if self.policy.use_chip(self._contest(SHOT_CONTEST, holder, values), state):
            return {holder: 1.0}, True
        return {rival: 1.0}, False

    def free_throws(self, origin: int, p: float, shooter: str, chip: str, penalty: int) -> None:
        """§2.7: three Balls make one and earn a second; then the other team inbounds."""
        k = 5 if penalty & _BIT[shooter] else 6
        first = sum(_binomial(k, self.qb)[FT_BALLS:])
        second = sum(_binomial(6, self.qb)[FT_BALLS:])
        after = inbound_index(other(shooter), chip)
        self.add(origin, p * (1 - first), after)
        self.add(origin, p * first * (1 - second), after, (shooter, 1))
        self.add(origin, p * first * second, after, (shooter, 12))

    def inbound_race(self, origin: int, team: str, chip: str, penalty: int) -> None:
        """§2.8, G14-G15: rounds until the inbounder has moved 7 or every S is set aside."""
        defense = other(team)
        key = (bool(penalty & _BIT[team]), bool(penalty & _BIT[defense]))
        if key not in self._races:
            self._races[key] = self.race(*key)
        for (result, depth), p in self._races[key].items():
            if result == "crossed":
                self.add(origin, p, main_index(team, 1, chip))
            else:
                self.add(origin, p, main_index(defense, depth, chip))

    def race(self, team_short: bool, defense_short: bool) -> dict[tuple[str, int], float]:
        """Return the law of an inbound race's end: crossed, or stolen at a depth.

        After the first round (where a penalized side rolls five dice, §2.9) a race is its
        distance moved and the defense's dice still standing; neither goes back, so the
        states are taken in order, a round that changes nothing summed as a series.
        """
        out: dict[tuple[str, int], float] = {}
        mass: dict[tuple[int, int], float] = {}

        def land(moved: int, standing: int, q: float) -> None:
            if moved >= HALF:  # G14: crossing wins a round the steal also completes
                out[("crossed", 0)] = out.get(("crossed", 0), 0.0) + q
            elif standing == 0:  # G15: stolen where the pawn stands
                out[("steal", HALF - moved)] = out.get(("steal", HALF - moved), 0.0) + q
            else:
                mass[(moved, standing)] = mass.get((moved, standing), 0.0) + q

        balls = _binomial(5 if team_short else 6, self.qb)
        caught = _binomial(5 if defense_short else 6, self.qs)
        for (b, pb), (c, pc) in itertools.product(enumerate(balls), enumerate(caught)):
            land(b, 6 - c, pb * pc)
        balls = _binomial(6, self.qb)
        for moved in range(HALF):
            for standing in range(6, 0, -1):
                p = mass.pop((moved, standing), 0.0)
                if p == 0.0:
                    continue
                caught = _binomial(standing, self.qs)
                scale = p / (1.0 - balls[0] * caught[0])
                for (b, pb), (c, pc) in itertools.product(enumerate(balls), enumerate(caught)):
                    if b or c:
                        land(moved + b, standing - c, scale * pb * pc)
        return out


def _sides(bits: int) -> frozenset[str]:
    return frozenset(side for side in SIDES if bits & _BIT[side])


def _after(score: int, points: int) -> int:
    """Return a score after a scoring move; two free throws stop at 21 between them (G13)."""
    if points == 12:
        return TARGET if score + 1 >= TARGET else score + 2
    return score + points


class SixDiceOdds:
    """Solve the chain for one rule set and policy: P(home wins) from any position, and
    the law of the final score from the jump ball.

    >>> chain = SixDiceOdds()
    >>> up = GameState.main_roll(HOME, 7, AWAY, home_score=20, away_score=0)
    >>> chain.p_home_win(up) > 0.99
    True
    """

    def __init__(self, rules: SixDiceRules = STANDARD, policy: Policy = DEFAULT_POLICY) -> None:
        self.rules = rules
        if rules.chip_reroll:
            losing = Contest(MAIN_CONTEST, AWAY, (), (), 0, (), (), 1)
            if policy.reroll(losing, GameState.main_roll(AWAY, 1, AWAY)):
                raise ValueError("the exact odds do not model a chip reroll of a main roll")
        moves = _Builder(rules, policy).build()
        self._moves = moves
        self._visits = np.linalg.inv(np.eye(SIZE) - moves.still)
        """``(I - A)^-1``: the expected visits to each position of a block before it scores."""
        self._home: dict[tuple[int, int], Vector] = {}
        for total in range(2 * (TARGET - 1), -1, -1):
            for away in range(max(0, total - TARGET + 1), min(total, TARGET - 1) + 1):
                home = total - away
                b = np.zeros(SIZE)
                for (side, points), move in moves.scoring.items():
                    new = {AWAY: away, HOME: home}
                    new[side] = _after(new[side], points)
                    if new[side] >= TARGET:
                        if side == HOME:
                            b += move.sum(axis=1)
                    else:
                        b += move @ self._home[(new[AWAY], new[HOME])]
                self._home[(away, home)] = self._visits @ b

    def p_home_win(self, state: GameState) -> float:
        """Return P(home wins) from a position between two rolls (before the jump ball, a
        main roll or an inbound race), or 1/0 once the game is over."""
        winner = state.winner
        if winner is not None:
            return 1.0 if winner == HOME else 0.0
        block = self._home[(state.away_score, state.home_score)]
        if state.offense is None:  # before the jump ball: either team wins it half the time
            return 0.5 * float(block[main_index(AWAY, 1, HOME)] + block[main_index(HOME, 1, AWAY)])
        return float(block[self._index(state)])

    def _index(self, state: GameState) -> int:
        assert state.offense is not None and state.chip is not None
        if state.phase == INBOUND:
            return inbound_index(state.offense, state.chip, state.penalty)
        return main_index(state.offense, state.depth, state.chip, state.penalty)

    def final_law(self, start: GameState | None = None) -> dict[tuple[int, int], float]:
        """Return the law of the final score ``(home, away)`` from ``start`` (a position
        between two rolls; default the jump ball)."""
        start = GameState() if start is None else start.check()
        if start.winner is not None:
            return {(start.home_score, start.away_score): 1.0}
        first = (start.away_score, start.home_score)
        mass: dict[tuple[int, int], Vector] = {first: np.zeros(SIZE)}
        if start.offense is None:
            mass[first][main_index(AWAY, 1, HOME)] = 0.5
            mass[first][main_index(HOME, 1, AWAY)] = 0.5
        else:
            mass[first][self._index(start)] = 1.0
        final: dict[tuple[int, int], float] = {}
        for total in range(sum(first), 2 * (TARGET - 1) + 1):
            for away in range(max(0, total - TARGET + 1), min(total, TARGET - 1) + 1):
                home = total - away
                entering = mass.pop((away, home), None)
                if entering is None:
                    continue
                visits = entering @ self._visits
                for (side, points), move in self._moves.scoring.items():
                    out = visits @ move
                    new = {AWAY: away, HOME: home}
                    new[side] = _after(new[side], points)
                    key = (new[AWAY], new[HOME])
                    if new[side] >= TARGET:
                        final[(key[1], key[0])] = final.get((key[1], key[0]), 0.0) + float(
                            out.sum()
                        )
                    elif key in mass:
                        mass[key] += out
                    else:
                        mass[key] = out
        return {k: v for k, v in sorted(final.items()) if v > 0}

    def match_odds(self) -> MatchOdds:
        """Return the game's law before the jump ball, as every game's odds read."""
        return MatchOdds(
            p_home_win=self.p_home_win(GameState()), final=self.final_law(), method="exact"
        )


@functools.lru_cache(maxsize=64)
def solved(
    rules: SixDiceRules = STANDARD,
    home: SixDiceStyle | None = None,
    away: SixDiceStyle | None = None,
) -> SixDiceOdds:
    """Return the chain of ``rules`` between two teams' styles (``None``: the default
    policy), solved once per process for each rule set and pair of styles."""
    return SixDiceOdds(rules, game_policy(home, away))


def exact_odds(
    rules: SixDiceRules = STANDARD,
    home: SixDiceStyle | None = None,
    away: SixDiceStyle | None = None,
) -> MatchOdds:
    """Return the exact law of a six-dice game under ``rules`` between two styles (the
    default policy when none is given)."""
    return solved(rules, _key(home), _key(away)).match_odds()


def _key(style: SixDiceStyle | None) -> SixDiceStyle | None:
    return None if style is None or style == DEFAULT_STYLE else style


def states_before_rolls(events: Sequence[Mapping[str, Any]]) -> list[tuple[int, GameState]]:
    """Return the position before each jump ball, main roll and inbound race of a stored game,
    with the index of the event that starts it, followed from the events alone (a chip won
    on a tie or rerolled goes over, a Pass's penalty waits for the penalized team's roll).
    """
    out: list[tuple[int, GameState]] = []
    chip: str | None = None
    score = {AWAY: 0, HOME: 0}
    penalty: set[str] = set()
    started = False
    for i, e in enumerate(events):
        kind = e.get("type")
        if kind == "jump_ball":
            if not started:
                out.append((i, GameState()))
                started = True
            if e.get("winner") is not None:
                chip = other(str(e["winner"]))
        elif kind == "main_roll":
            assert chip is not None
            offense, depth = str(e["offense"]), int(e["depth"])
            out.append(
                (
                    i,
                    GameState.main_roll(
                        offense,
                        depth,
                        chip,
                        away_score=score[AWAY],
                        home_score=score[HOME],
                        penalty=frozenset(penalty),
                    ),
                )
            )
            penalty.clear()
            if e.get("chip"):
                chip = other(str(e["winner"]))
        elif kind == "inbound_round" and e.get("round") == 1:
            assert chip is not None
            state = GameState.inbound(
                str(e["team"]),
                chip,
                away_score=score[AWAY],
                home_score=score[HOME],
                penalty=frozenset(penalty),
            )
            out.append((i, state))
            penalty.clear()
        elif kind == "chip_reroll":
            chip = other(str(e["team"]))
        elif kind == "shot" and e.get("chip"):
            won = e["team"] if e["made"] else other(str(e["team"]))
            chip = other(str(won))
        elif kind == "pass" and e.get("penalized"):
            penalty.add(str(e["penalized"]))
        elif kind == "score":
            score = {AWAY: int(e["away"]), HOME: int(e["home"])}
    return out
