"""The exact coach plays to win, and the exact odds with the strategy choices on are the
engine's game (simulator/vabg/coachodds.py, simulator/vabg/coaching.py).

- **every choice of the exact coach is the better one**: at every decision state the
  action it takes wins at least as often, for the team that takes it, as the other, both
  values counted from the same backward values (and, for the trips and the fast-break
  extra possessions, counted again by hand from the trip laws);

The same three kinds of proof as without the strategy choices (tests/simulator/vabg/test_odds.py):

- **every law the policy may pick is the engine's own trip, face by face**: a trip played
  by a team trailing by enough to try for 3, an extra possession (2a, 1a, or owed after a
  fast break), a possession fouled on purpose, each enumerated through the engine's own
  code with the branching dice and compared to the law to 1e-12 (bounded by the mass cut
  where the putback loop runs);
- **seeded engine games with the exact coach** (and with the thresholds of older games)
  agree with the exact P(win), P(overtime), mean margin and margin histogram within
  sampling error;
- **hand-worked cases**: a policy that never acts gives the odds without it, to 1e-12;
  the laws sum to 1; the score laws and the margin law tell the same story.
"""

from __future__ import annotations

import csv
import hashlib
import json
import math
import shutil
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from simulator import SeededDice
from simulator.vabg import ADVANCED, BASIC, play_game, team_from_json
from simulator.vabg.coaching import DEFAULT_POLICY, CoachPolicy, Step, in_spans
from simulator.vabg.coachodds import (
    _WIN_ROWS,
    DECISIVE,
    REACH,
    CoachLiveOdds,
    _Back,
    _Decision,
    _Dist,
    _ends,
    _Program,
    _solved,
    coach_and_odds,
    coach_odds,
    solve_coach,
)
from simulator.vabg.engine import GameState, Side
from simulator.vabg.events import (
    AWAY,
    HOME,
    Call,
    FreeThrow,
    PeriodEnd,
    Shot,
    Steal,
    Trip,
    TripKind,
)
from simulator.vabg.liveodds import LiveOdds
from simulator.vabg.odds import TripLaws, game_odds, side_state
from simulator.vabg.rules import CoachKind, GameRules, preset
from tests.simulator.vabg.teams import (
    kansas_2008_json,
    kentucky_2012_json,
    rulebook_file_team,
    twin_team_json,
)
from tests.simulator.vabg.test_odds import (
    FIXTURES,
    assert_same_outcomes,
    build,
    chi_square_z,
    enumerate_play,
    fixture,
    plain_json,
    recording_game,
    short_handed_json,
    simulator,
)

Z_LIMIT = 4.0


def ran(events: list[Any]) -> tuple[bool]:
    """Whether the path had a fast break (the extra possession the policy may owe)."""
    return (any(isinstance(e, Steal) and e.fast_break for e in events),)


def as_keys(own: Any, fast: Any) -> dict[tuple[int, int, bool], float]:
    out = {(k, 0, False): float(p) for k, p in enumerate(own) if p}
    out.update({(0, j, True): float(p) for j, p in enumerate(fast) if p})
    return out


ALL_WAYS = frozenset({(False, False), (False, True), (True, False), (True, True)})
"""(trailing, extra): a trip played plain, as an extra possession, trying for 3, both."""


def variants_at(
    home: Any,
    away: Any,
    rules: GameRules,
    neutral: bool,
    wanted: set,
    ways: frozenset = ALL_WAYS,
    face_by_face: bool = True,
) -> list:
    """Walk the engine's periods with the policy on; at each wanted (period, number, side)
    enumerate each of ``ways`` the policy may play that trip, and the fouled trip on numbers
    2 and 1, and compare it with its law. Without ``face_by_face``, only the laws (the
    enumerated law None, no cut, no paths)."""
    found = []

    def recorder(off: Side, de: Side, n: int, kind: TripKind = TripKind.PLAIN, /) -> None:
        where = (game.period, n, off.key)
        if where not in wanted:
            return
        laws = TripLaws(game)
        chart = rules.rebound_chart and (n % 2 == 0 or n == 1)
        putbacks = 0 if chart else None
        for trailing in (False, True):
            off.score, de.score = (0, 10) if trailing else (0, 0)
            for extra in (False, True):
                if (trailing, extra) not in ways:
                    continue
                exact = laws.coach_law(
                    off, de, n, side_state(off), side_state(de), try3=trailing, extra=extra
                )

                def play(extra: bool = extra) -> None:
                    game.play_trip(off, de, n, TripKind.EXTRA if extra else TripKind.PLAIN)

                law, cut, paths = (
                    enumerate_play(game, off, de, play, putbacks, ran)
                    if face_by_face
                    else (None, 0.0, 0)
                )
                found.append(((where, trailing, extra), law, as_keys(*exact), cut, paths))
            off.score = de.score = 0
        if n <= 2:
            exact_fouled = laws.fouling_law(off, de)
            law, cut, paths = (
                enumerate_play(game, off, de, lambda: game.play_fouling_trip(off, de, n), None, ran)
                if face_by_face
                else (None, 0.0, 0)
            )
            found.append(((where, "fouled"), law, as_keys(exact_fouled, [0.0]), cut, paths))

    game = recording_game(home, away, rules, neutral, recorder)
    game.play_period(game.away.rotation, game.home.rotation)
    while any(period > game.period for period, _, _ in wanted):
        game.period += 1
        length = rules.overtime_possessions
        game.play_period([game.away.starters] * length, [game.home.starters] * length)
    return found


VARIANT_CASES = [
    # (id, home, away, rules, neutral, wanted (period, number, side with the ball), ways)
    (
        "shot-clock-re-rolls-tired-pre-1987-odd-numbers",
        short_handed_json(),
        "san-diego-state-2011",
        "advanced",
        False,
        {(0, 5, HOME), (0, 3, AWAY), (1, 7, HOME)},
        ALL_WAYS,
    ),
    (
        "basic-neutral-2-and-1",
        "san-diego-state-2011",
        "kansas-2008",
        "basic",
        True,
        {(0, 2, AWAY), (0, 1, HOME)},
        ALL_WAYS,
    ),
    # Each way alone is enumerated above; here (some 3 s of CPU a way: 220,000-280,000
    # paths) the plain trip and the try for 3 as an extra possession, the two ends.
    (
        "advanced-2-and-1-putbacks-bounded",
        short_handed_json(),
        "kentucky-2012",
        "advanced",
        False,
        {(0, 2, HOME)},
        frozenset({(False, False), (True, True)}),
    ),
]


@pytest.mark.source_engine
@pytest.mark.parametrize(
    ("home", "away", "rules", "neutral", "wanted", "ways"),
    [case[1:] for case in VARIANT_CASES],
    ids=[case[0] for case in VARIANT_CASES],
)
def test_every_law_the_policy_picks_is_the_engines_own_trip_face_by_face(
    home, away, rules, neutral, wanted, ways
):
    game_rules = preset(rules, strategy=True)
    found = variants_at(build(home), build(away), game_rules, neutral, wanted, ways)
    # The ways to play each trip (trailing or not, extra or not), and fouled on 2 and 1.
    assert len(found) == sum(len(ways) + (n <= 2) for _, n, _ in wanted)
    tried = reached = 0
    for what, law, exact, cut, paths in found:
        assert paths > 500, what
        assert_same_outcomes(law, exact, cut)
        tried += what[1] is True
        reached += any(k[2] for k in law)
    assert tried  # the try for 3 was played
    assert reached or not game_rules.fast_breaks  # fast breaks were reached


@pytest.mark.source_engine
def test_the_fouled_trip_re_rolls_as_each_rules_version_plays_it_face_by_face():
    # Only the visitors' slot 1 claims an extra number (the 6): a 7 or an 8 runs the shot
    # clock on the trip the home team fouls, and on the re-roll any 6-8 turns over (rules
    # version 4); versions 1-3 played the claimed 6. The law follows the engine either way.
    doc = twin_team_json("Away")
    for p in doc["players"]:
        p["extra_ball"] = 1 if p["role"] == "starter" and p["slot"] == 1 else 0
    home, away = team_from_json(twin_team_json("Home")), team_from_json(doc)
    today = preset("advanced", strategy=True)
    stored = {k: v for k, v in today.to_json().items() if k != "fouled_reroll_turnover"}
    before = GameRules.from_json({**stored, "version": 3})
    laws = {}
    for rules in (today, before):
        found = variants_at(home, away, rules, True, {(0, 2, AWAY)}, ways=frozenset())
        [(what, law, exact, cut, paths)] = found
        assert what == ((0, 2, AWAY), "fouled") and paths > 100
        assert_same_outcomes(law, exact, cut)
        laws[rules.fouled_reroll_turnover] = exact
    # The re-roll's 6 (1/8 of the 2/8 that re-roll) now scores nothing.
    assert sum(p for k, p in laws[True].items() if k[0] == 0) > sum(
        p for k, p in laws[False].items() if k[0] == 0
    )


def test_the_try_for_3_and_the_extra_possession_change_the_trip_laws():
    # The laws alone: that they are the engine's own trips, face by face, at this very
    # trip (each of the four ways), is the "shot-clock-re-rolls..." case above.
    assert (0, 5, HOME) in VARIANT_CASES[0][5] and VARIANT_CASES[0][6] == ALL_WAYS
    home, away = build(short_handed_json()), fixture("san-diego-state-2011")
    found = variants_at(
        home,
        away,
        preset("advanced", strategy=True),
        False,
        {(0, 5, HOME)},
        face_by_face=False,
    )
    laws = {what[1:]: exact for what, _, exact, _, _ in found}
    assert laws[(True, False)] != laws[(False, False)]  # a trailing team tries for 3
    assert laws[(False, True)] != laws[(False, False)]  # an extra trip: no putbacks...
    threes = sum(p for (k, _, _), p in laws[(True, False)].items() if k == 3)
    assert threes > sum(p for (k, _, _), p in laws[(False, False)].items() if k == 3)


# -- hand-worked cases ---------------------------------------------------------------------


NEVER = CoachPolicy(extra_possession_within=0, foul_deficit_max=0, try3_within=0)


@pytest.mark.parametrize(
    ("home", "away", "rules", "neutral"),
    [
        ("kentucky-2012", "kansas-2008", "advanced", False),
        (short_handed_json(), "san-diego-state-2011", "advanced", True),
        ("georgetown-1984", "villanova-1985", "basic", False),
    ],
    ids=["advanced-home", "short-handed-neutral", "basic-home"],
)
def test_a_policy_that_never_acts_gives_the_odds_without_it(home, away, rules, neutral):
    h, a = build(home), build(away)
    plain = game_odds(h, a, rules=preset(rules), neutral=neutral)
    coached = coach_odds(h, a, rules=preset(rules, strategy=True), neutral=neutral, coach=NEVER)
    assert coached.p_home_win == pytest.approx(plain.p_home_win, abs=1e-12)
    assert coached.p_overtime == pytest.approx(plain.p_overtime, abs=1e-12)
    assert coached.expected_overtimes == pytest.approx(plain.expected_overtimes, abs=1e-12)
    assert coached.expected_home_pts == pytest.approx(plain.expected_home_pts, abs=1e-9)
    assert coached.expected_away_pts == pytest.approx(plain.expected_away_pts, abs=1e-9)
    for mine, theirs in (
        (coached.margin, plain.margin),
        (coached.home_score, plain.home_score),
        (coached.away_score, plain.away_score),
    ):
        assert set(mine) == set(theirs)
        assert max(abs(mine[k] - theirs[k]) for k in theirs) < 1e-12


def test_the_policy_on_sums_to_one_and_its_score_laws_match_its_margin_law():
    h, a = fixture("kentucky-2012"), fixture("kansas-2008")
    rules = preset("advanced", strategy=True)
    odds = coach_odds(h, a, rules=rules)
    assert odds.lost < 1e-12
    assert odds.p_home_win + odds.p_away_win == pytest.approx(1.0, abs=1e-12)
    assert sum(odds.margin.values()) == pytest.approx(1.0, abs=1e-12)
    assert sum(odds.home_score.values()) == pytest.approx(1.0, abs=1e-12)
    assert sum(odds.away_score.values()) == pytest.approx(1.0, abs=1e-12)
    mean_margin = sum(m * p for m, p in odds.margin.items())
    home_mean = sum(s * p for s, p in odds.home_score.items())
    away_mean = sum(s * p for s, p in odds.away_score.items())
    assert home_mean == pytest.approx(odds.expected_home_pts, abs=1e-9)
    assert away_mean == pytest.approx(odds.expected_away_pts, abs=1e-9)
    assert home_mean - away_mean == pytest.approx(mean_margin, abs=1e-9)
    # Without the score laws: the same odds, from the margin alone.
    quick = coach_odds(h, a, rules=rules, scores=False)
    assert quick.p_home_win == pytest.approx(odds.p_home_win, abs=1e-13)
    assert quick.margin == pytest.approx(odds.margin, abs=1e-13)
    assert quick.home_score == {}
    # The coach plays a different game: the odds move.
    plain = game_odds(h, a, rules=preset("advanced"))
    assert abs(plain.p_home_win - odds.p_home_win) > 1e-4


def test_a_card_that_always_scores_never_lets_the_policy_act():
    threes = {"3PM": "1-20", "2PM": None, "FOUL": None, "3PX": None, "2PX": None}
    twos = {"3PM": None, "2PM": "1-20", "FOUL": None, "3PX": None, "2PX": None}
    home = team_from_json(plain_json("Threes", threes))
    away = team_from_json(plain_json("Twos", twos))
    for rules in (BASIC, ADVANCED):
        odds = coach_odds(home, away, rules=replace(rules, strategy=True))
        assert odds.margin == pytest.approx({44: 1.0}, abs=1e-12)
        assert odds.home_score == pytest.approx({152: 1.0}, abs=1e-12)


# -- the exact coach plays to win -----------------------------------------------------------

COACH_CASES = [
    ("kentucky-2012", "kansas-2008", "advanced", False),
    ("georgetown-1984", "georgetown-1984", "basic", True),
]
MARGINS = np.arange(-REACH, REACH + 1)


def spans_for(calls: Any, decision: _Decision) -> Any:
    """Return the margins where the coach the engine reads makes the decision's choice."""
    if decision.choice == "foul":
        return calls.foul
    if decision.choice == "home takes extra":
        return calls.home_extra
    if decision.choice == "away takes extra":
        return calls.away_extra
    return calls.try3[list(Step).index(Step(decision.choice))]


@pytest.mark.parametrize(("home", "away", "rules", "neutral"), COACH_CASES)
def test_at_every_decision_state_the_coachs_action_wins_at_least_as_often_as_the_other(
    home, away, rules, neutral
):
    h, a = fixture(home), fixture(away)
    game_rules = preset(rules, strategy=True)
    coach = solve_coach(h, a, rules=game_rules, neutral=neutral)
    game = _solved(h, a, game_rules, neutral, None, None, None)
    kinds: dict[str, int] = {}
    for p, numbers in enumerate(game.numbers):
        # The period once more from the same end values, keeping both values of each choice.
        record: list[_Decision] = []
        _Back(*_WIN_ROWS, record=record).period(numbers, _ends(game.solution.overtime[p]), None)
        assert len(record) >= 2 * len(numbers)  # at least a try for 3 on each trip
        for decision in record:
            row = 0 if decision.home else 1
            act, plain = decision.act[row], decision.plain[row]
            trailing = MARGINS < 0 if decision.home else MARGINS > 0
            spans = spans_for(coach.calls(p, decision.number), decision)
            chosen = np.array([in_spans(spans, int(m)) for m in MARGINS]) & trailing
            if decision.choice != "foul":  # (the foul's spans hold both teams' calls)
                assert not (np.array([in_spans(spans, int(m)) for m in MARGINS]) & ~trailing).any()
            assert (act[chosen] > plain[chosen]).all(), decision[:3]
            rest = trailing & ~chosen
            assert (plain[rest] * (1 + DECISIVE) >= act[rest]).all(), decision[:3]
            kinds[decision.choice] = kinds.get(decision.choice, 0) + int(chosen.sum())
    # Every kind of choice was met, and the coach makes each of them somewhere.
    assert set(kinds) == {
        *(step.value for step in Step),
        "foul",
        "home takes extra",
        "away takes extra",
    }
    # (On an extra possession the try for 3 is read only after a shot-clock re-roll.)
    made = {kind for kind, count in kinds.items() if count}
    assert made >= {"away", "home", "home owed", "foul", "home takes extra", "away takes extra"}


def by_hand(after: Any, own: Any, fast: Any, home_ball: bool, m: int, fast_after: Any = None):
    """Return (P(home wins), P(away wins)) before a trip at margin ``m``, counted outcome by
    outcome: the offense's points k, or the defense's fast-break points j."""

    def at(values: Any, x: int) -> tuple[float, float]:
        if x > REACH:
            return 1.0, 0.0
        if x < -REACH:
            return 0.0, 1.0
        return float(values[0][x + REACH]), float(values[1][x + REACH])

    sign = 1 if home_ball else -1
    home = away = 0.0
    for k, p in enumerate(own.tolist()):
        v, w = at(after, m + sign * k)
        home, away = home + p * v, away + p * w
    for j, p in enumerate(fast.tolist()):
        x = m - sign * j
        v, w = at(after if fast_after is None else fast_after(x), x)
        home, away = home + p * v, away + p * w
    return home, away


def test_the_coachs_choices_on_the_trips_are_the_better_ones_counted_by_hand():
    h, a = fixture("kentucky-2012"), fixture("kansas-2008")
    game_rules = preset("advanced", strategy=True)
    coach = solve_coach(h, a, rules=game_rules)
    game = _solved(h, a, game_rules, False, None, None, None)
    tables = game.solution.periods[0].tables
    acted = 0
    for i, (away, home) in enumerate(game.numbers[0]):
        n, calls = away.number, coach.calls(0, away.number)
        free, *owed = tables[2 * i + 1]

        def after_home_run(x: int, free: Any = free, owed: Any = owed, calls: Any = calls) -> Any:
            return owed[0] if owed and x < 0 and in_spans(calls.home_extra, x) else free

        for m in range(-40, 41, 3):
            # The visitor's trip: tries for 3 where the coach says so, and that wins more.
            plain = by_hand(free, *away.plain, False, m, after_home_run)
            tried = by_hand(free, *away.try3, False, m, after_home_run)
            takes = calls.tries_for_3(Step.AWAY, m)
            best, other = (tried, plain) if takes else (plain, tried)
            assert best[1] >= other[1] / (1 + DECISIVE), (n, m)
            assert tables[2 * i][0][:, m + REACH] == pytest.approx(best, abs=1e-12), (n, m)
            acted += takes
            if owed:  # the home team's fast break: it takes the extras where they win more
                if m < 0 and in_spans(calls.home_extra, m):
                    assert owed[0][0, m + REACH] > free[0, m + REACH]
                elif m < 0:
                    assert owed[0][0, m + REACH] <= free[0, m + REACH] * (1 + DECISIVE)
            if n > 5:  # the home team's trip, into the next number's start
                after = tables[2 * i + 2][0]
                plain = by_hand(after, *home.plain, True, m)
                tried = by_hand(after, *home.try3, True, m)
                takes = calls.tries_for_3(Step.HOME, m)
                best, other = (tried, plain) if takes else (plain, tried)
                assert best[0] >= other[0] / (1 + DECISIVE), (n, m)
                assert free[:, m + REACH] == pytest.approx(best, abs=1e-12), (n, m)
                acted += takes
    assert acted > 20


def number_margins(events: Any) -> dict[tuple[int, int], dict[str, Any]]:
    """Return, for each number of a played game, the margin before it, whether a foul was
    called, each side's fast breaks on its regular trips and the margin after each, and
    whether the extra possessions were played."""
    out: dict[tuple[int, int], dict[str, Any]] = {}
    home = away = 20
    ran_on: str | None = None
    current: tuple[int, int] | None = None
    for e in events:
        where = (getattr(e, "period", 0), getattr(e, "number", 0))
        if isinstance(e, Trip | Call) and where not in out:
            out[where] = {"before": home - away, "foul": False, "extra": False, "runs": []}
        if (
            ran_on is not None
            and current is not None
            and (
                isinstance(e, Trip | Call | PeriodEnd)
                and not (isinstance(e, Trip) and e.kind == "reroll")
            )
        ):
            last = out[current]["runs"]
            last[-1] = (*last[-1], home - away)  # the margin once the trip is over
            ran_on = None
        if isinstance(e, Call) and e.call == "intentional foul":
            out[where]["foul"] = True
        elif isinstance(e, Call) and e.call == "extra possession":
            out[where]["extra"] = True
        elif isinstance(e, Trip) and e.kind in ("", "reroll"):
            current = where
        elif isinstance(e, Trip):
            current = None  # an extra or fouled possession: its fast breaks owe nothing
        elif isinstance(e, Steal) and e.fast_break and current is not None:
            out[current]["runs"].append((e.team,))
            ran_on = e.team
        elif isinstance(e, Shot) and e.made:
            home, away = (home + e.value, away) if e.team == HOME else (home, away + e.value)
        elif isinstance(e, FreeThrow) and e.made:
            home, away = (home + 1, away) if e.team == HOME else (home, away + 1)
    return out


def test_the_engine_makes_exactly_the_calls_of_the_coach_it_is_given():
    h, a = fixture("kentucky-2012"), fixture("kansas-2008")
    rules = preset("advanced", strategy=True)
    coach = solve_coach(h, a, rules=rules)
    fouls = extras = 0
    for seed in range(300):
        result = play_game(h, a, SeededDice(seed), rules=rules, coach=coach)
        for (period, n), seen in number_margins(result.events).items():
            calls = coach.calls(period, n)
            if n <= 2:
                wanted = seen["before"] != 0 and in_spans(calls.foul, seen["before"])
                assert seen["foul"] == wanted, (seed, period, n, seen)
                fouls += wanted
            owed = False
            for team, after in seen["runs"] if n <= 5 else ():
                if team == HOME and after < 0:
                    owed = owed or calls.takes_extra(Step.AWAY, after)
                elif team == AWAY and after > 0:
                    owed = owed or calls.takes_extra(Step.HOME, after)
            assert seen["extra"] == owed, (seed, period, n, seen)
            extras += owed
    assert fouls > 20 and extras > 5


# Games played before the exact coach (rules version 2, the thresholds), recorded by that
# engine: the SHA-256 of their events' JSON (Kentucky 2012 hosting Kansas 2008, advanced
# rules with the strategy choices on).
OLD_GAMES = {
    0: "c9330d366710a0f7474620730918baee3dd97cd2f327161a255ee2a610bc58b9",
    5: "6cb275561b44d78fdcffadedfb5b2db3ec98de418799a4f26a0e530b1151eb99",
    12: "67ff0c08cdca5da86c7cbde9c68dd6eaac2f44bfb2593b00b708d538211a6cb2",
}


def test_a_game_stored_before_the_exact_coach_replays_as_it_was_played():
    # the teams as these games were recorded: the rulebook's dunk numbers, before the field
    # aimed the hand-made teams' own (a stored game keeps its team files)
    h, a = rulebook_file_team("kentucky-2012"), rulebook_file_team("kansas-2008")
    stored = {k: v for k, v in preset("advanced", strategy=True).to_json().items() if k != "coach"}
    rules = GameRules.from_json({**stored, "version": 2})
    assert rules.coach == CoachKind.THRESHOLDS
    assert rules.name == "advanced+strategy (thresholds)"
    for seed, digest in OLD_GAMES.items():
        again = play_game(h, a, SeededDice(seed), rules=rules)
        events = json.dumps([e.to_json() for e in again.events]).encode()
        assert hashlib.sha256(events).hexdigest() == digest, seed
        assert again.to_json()["rules"]["coach"] == "thresholds"
        # The exact coach plays the same dice differently.
        now = play_game(h, a, SeededDice(seed), rules=preset("advanced", strategy=True))
        assert now.to_json()["rules"]["coach"] == "exact"
    assert GameRules.from_json(preset("advanced", strategy=True).to_json()).coach == "exact"


def test_identical_teams_finish_closer_with_the_exact_coach_than_with_the_thresholds():
    rules = preset("advanced", strategy=True)

    def close(odds: Any) -> float:
        return sum(p for m, p in odds.margin.items() if abs(m) <= 3)

    for name in ("kentucky-2012", "georgetown-1984"):
        team = fixture(name)
        exact = coach_odds(team, team, rules=rules, neutral=True, scores=False)
        old = coach_odds(team, team, rules=rules, neutral=True, coach=DEFAULT_POLICY, scores=False)
        plain = game_odds(team, team, rules=preset("advanced"), neutral=True)
        # The thresholds gave points away; the exact coach gives fewer, but a trailing team
        # that plays for the win still spreads the margins wider than no choices at all.
        assert close(old) < close(exact) < close(plain), name
        assert exact.p_overtime > old.p_overtime, name


# -- seeded engine games --------------------------------------------------------------------

COACHED = [
    # (home, away, rules, neutral, coach): the exact coach, and the thresholds of old games
    ("kentucky-2012", "kansas-2008", "advanced", False, CoachKind.EXACT),
    ("georgetown-1984", "villanova-1985", "basic", True, CoachKind.EXACT),
    ("san-diego-state-2011", "san-diego-state-2011", "advanced", True, CoachKind.EXACT),
    ("san-diego-state-2011", "unlv-1991", "advanced", True, CoachKind.THRESHOLDS),
]
GAMES = 3_000  # each matchup: the policy-off proof (test_odds.py) plays 20,000


def _calls(events: list[Any]) -> bool:
    return any(isinstance(e, Call) and e.call != "no call on the road" for e in events)


@pytest.mark.parametrize(("home", "away", "rules", "neutral", "coach"), COACHED)
def test_seeded_engine_games_with_the_coach_agree_with_the_exact_law(
    home, away, rules, neutral, coach
):
    h, a = fixture(home), fixture(away)
    game_rules = replace(preset(rules, strategy=True), coach=coach)
    exact = coach_odds(h, a, rules=game_rules, neutral=neutral, scores=False)
    played = solve_coach(h, a, rules=game_rules, neutral=neutral)
    if coach == CoachKind.THRESHOLDS:
        played = DEFAULT_POLICY
    wins = overtimes = total = 0
    histogram: dict[int, int] = {}
    calls = 0  # of the first 100 games, those where the coach acts
    seed0 = 7_000_000 * (COACHED.index((home, away, rules, neutral, coach)) + 1)
    for seed in range(seed0, seed0 + GAMES):
        game = GameState(
            h, a, SeededDice(seed), game_rules, neutral, {HOME: None, AWAY: None}, played
        )
        game.play()
        calls += seed < seed0 + 100 and _calls(game.events)
        margin = game.home.score - game.away.score
        wins += margin > 0
        overtimes += game.period > 0
        total += margin
        histogram[margin] = histogram.get(margin, 0) + 1
    # The shortcut plays the same games as play_game, which solves the rules' coach itself.
    same = play_game(h, a, SeededDice(seed0), rules=game_rules, neutral=neutral)
    first = GameState(
        h, a, SeededDice(seed0), game_rules, neutral, {HOME: None, AWAY: None}, played
    )
    first.play()
    assert (same.home.score, same.away.score) == (first.home.score, first.away.score)
    assert calls > 10  # the coach acts in these games

    def z(observed: float, p: float) -> float:
        return (observed / GAMES - p) / math.sqrt(p * (1 - p) / GAMES)

    mean = sum(m * p for m, p in exact.margin.items())
    var = sum(m * m * p for m, p in exact.margin.items()) - mean**2
    z_chi, df = chi_square_z(histogram, dict(exact.margin), GAMES)
    report = {
        "win": z(wins, exact.p_home_win),
        "overtime": z(overtimes, exact.p_overtime),
        "mean margin": (total / GAMES - mean) / math.sqrt(var / GAMES),
        f"chi-square ({df} df)": z_chi,
    }
    print(f"{home} v {away} ({rules}+strategy, {coach}, neutral={neutral}): {report}")
    assert all(abs(value) < Z_LIMIT for value in report.values()), report


# -- the command line ----------------------------------------------------------------------


def test_the_odds_command_solves_the_game_with_the_coach_policy():
    done = simulator(
        "odds",
        FIXTURES / "kentucky-2012.json",
        FIXTURES / "kansas-2008.json",
        "--strategy",
        "--json",
    )
    assert done.returncode == 0, done.stderr
    printed = json.loads(done.stdout)
    exact = coach_odds(
        fixture("kentucky-2012"), fixture("kansas-2008"), rules=preset("advanced", strategy=True)
    )
    assert printed["p_home_win"] == pytest.approx(exact.p_home_win, abs=1e-15)
    assert printed["margin"] == pytest.approx(
        {str(m): p for m, p in exact.margin.items()}, abs=1e-15
    )
    assert sum(printed["home_score"].values()) == pytest.approx(1.0, abs=1e-12)
    text = simulator(
        "odds", FIXTURES / "kentucky-2012.json", FIXTURES / "kansas-2008.json", "--strategy"
    )
    assert "the coach policy on" in text.stdout and f"{exact.p_home_win:8.4%}" in text.stdout


def test_pairs_with_the_coach_policy_on_a_neutral_court_give_both_orders(tmp_path):
    for name in ("kentucky-2012", "kansas-2008", "unlv-1991"):
        shutil.copy(FIXTURES / f"{name}.json", tmp_path)
    out = tmp_path / "pairs.csv"
    done = simulator(
        "odds", "--pairs", tmp_path, "--out", out, "--neutral", "--strategy", "--rules", "basic"
    )
    assert done.returncode == 0, done.stderr
    rows = {(r["home"], r["away"]): r for r in csv.DictReader(out.read_text().splitlines())}
    assert len(rows) == 6  # the visitor has the ball first, and the policy reads who leads
    exact = coach_odds(
        fixture("unlv-1991"),
        fixture("kansas-2008"),
        rules=preset("basic", strategy=True),
        neutral=True,
        scores=False,
    )
    assert float(rows[("unlv-1991", "kansas-2008")]["p_home_win"]) == pytest.approx(
        exact.p_home_win, abs=1e-11
    )


# -- the live win probability with the strategy choices on -----------------------------------


@pytest.mark.parametrize(
    ("rules", "neutral"), [("advanced", False), ("basic", True)], ids=["advanced", "basic"]
)
def test_the_live_odds_start_at_the_pregame_odds_and_agree_with_the_forward_program(rules, neutral):
    h, a = fixture("kentucky-2012"), fixture("kansas-2008")
    game_rules = preset(rules, strategy=True)
    live = CoachLiveOdds(h, a, rules=game_rules, neutral=neutral)
    pregame = coach_odds(h, a, rules=game_rules, neutral=neutral, scores=False)
    assert live.p_home_win(0, 0, 0) == pytest.approx(pregame.p_home_win, abs=1e-13)
    assert live.trips_in(0) == 88 and live.trips_in(3) == 20
    # From the start of a number with any margin, the forward program says the same (at 2
    # and 1 the chart's position is after the foul round: the pregame odds cover those).
    game = _solved(h, a, game_rules, neutral, None, None, None)
    overtime = live.p_home_win(1, 0, 0)
    for done, margin in [(0, 5), (40, -3), (70, 2), (78, 9), (80, -6), (82, 1), (82, -2)]:
        program = _Program(False)
        start = _Dist(np.ones((1, 1)), -margin)
        end = program.period(game.numbers[0][done // 2 :], game.masks[0][done // 2 :], start)
        law = end.a.sum(axis=1)
        ms = np.arange(len(law)) - end.zero
        forward = float(law[ms > 0].sum() + law[ms == 0].sum() * overtime)
        assert live.p_home_win(0, done, margin) == pytest.approx(forward, abs=1e-12), done
    # An extra possession owed changes the home trip's odds only where one can be owed.
    assert live.p_home_win(0, 87, -2, owed=True) != live.p_home_win(0, 87, -2)
    assert live.p_home_win(0, 77, -2, owed=True) == live.p_home_win(0, 77, -2)  # number 6
    assert live.p_home_win(0, 88, 1) == 1.0 and live.p_home_win(0, 88, -1) == 0.0
    assert live.p_home_win(0, 88, 0) == pytest.approx(overtime, abs=1e-15)


def test_with_a_policy_that_never_acts_the_live_odds_are_those_without_it():
    h, a = build(short_handed_json()), fixture("san-diego-state-2011")
    live = CoachLiveOdds(h, a, rules=preset("advanced", strategy=True), coach=NEVER)
    plain = LiveOdds(h, a, rules=preset("advanced"))
    for period, done, margin in [(0, 0, 0), (0, 17, 4), (0, 63, -7), (1, 5, 2), (2, 19, -1)]:
        assert live.p_home_win(period, done, margin) == pytest.approx(
            plain.p_home_win(period, done, margin), abs=1e-12
        )


def test_the_live_odds_of_a_game_take_the_coach_it_was_played_with():
    h, a = fixture("kentucky-2012"), fixture("kansas-2008")
    exact = preset("advanced", strategy=True)
    old = replace(exact, coach=CoachKind.THRESHOLDS)
    by_rules = CoachLiveOdds(h, a, rules=old)
    assert by_rules.coach == DEFAULT_POLICY
    assert by_rules.p_home_win(0, 0, 0) == pytest.approx(
        coach_odds(h, a, rules=exact, coach=DEFAULT_POLICY, scores=False).p_home_win, abs=1e-13
    )
    solved = solve_coach(h, a, rules=exact)
    given = CoachLiveOdds(h, a, rules=exact, coach=solved)
    assert given.coach is solved
    assert given.p_home_win(0, 0, 0) == CoachLiveOdds(h, a, rules=exact).p_home_win(0, 0, 0)
    assert by_rules.p_home_win(0, 0, 0) != pytest.approx(given.p_home_win(0, 0, 0), abs=1e-6)
    # The home team trailing by 2 after its fast break on the visitor's trip of 1 takes
    # the extra possessions (it has nothing to lose); at 6 it may not (§8: the last 5).
    assert given.home_takes_extra(0, 1, -2) and not given.home_takes_extra(0, 6, -2)
    assert not given.home_takes_extra(0, 1, 2)  # only a trailing team chooses


# The exact coach's decisions and odds of six pairs, pinned from the coach as it was solved
# before issue 25 set out to speed up its solver: stored games replay by solving the coach
# again, so a faster solver must make every choice the same. The teams are written here in
# code (the rulebook's two and two made-up ones), not read from the field's files, which the
# field builder rewrites.
PINNED_TEAMS = {
    "kentucky": kentucky_2012_json,
    "kansas": kansas_2008_json,
    "twin": twin_team_json,
    "short": short_handed_json,
}
PINNED_COACHES = [
    # (home, away, neutral, sha256 of the ExactCoach's repr (16 hex), P(home wins), P(OT))
    ("kentucky", "kansas", False, "e9ea1240a5b35903", 0.6299166673491156, 0.03915291598315931),
    ("kansas", "kentucky", True, "5cd9ca1abf482110", 0.48110705793431563, 0.03532739290284162),
    ("kentucky", "twin", True, "884e39144c8bf50b", 0.9276048870149738, 0.01492266937901717),
    ("twin", "kansas", False, "4faf9dc9956e6c15", 0.12957587448934638, 0.01941089739653843),
    ("short", "kentucky", False, "da846cc6927eebb0", 0.34067635992036494, 0.037390075235210714),
    ("kansas", "short", True, "ceea87e2a74c8146", 0.7468863903372931, 0.035000330901801664),
]


@pytest.mark.parametrize(("home", "away", "neutral", "digest", "p_home", "p_ot"), PINNED_COACHES)
def test_the_exact_coach_makes_the_same_choices_as_when_its_games_were_stored(
    home, away, neutral, digest, p_home, p_ot
):
    rules = preset("advanced", strategy=True)
    h, a = team_from_json(PINNED_TEAMS[home]()), team_from_json(PINNED_TEAMS[away]())
    coach = solve_coach(h, a, rules=rules, neutral=neutral)
    assert hashlib.sha256(repr(coach).encode()).hexdigest()[:16] == digest
    odds = coach_odds(h, a, rules=rules, neutral=neutral, scores=False)
    assert odds.p_home_win == pytest.approx(p_home, abs=1e-12)
    assert odds.p_overtime == pytest.approx(p_ot, abs=1e-12)


def test_one_solve_gives_the_exact_coach_and_the_odds_it_coaches_to() -> None:
    """``coach_and_odds``, what a league's table of odds keeps each pair's coach with: the
    very coach ``solve_coach`` solves and the very odds ``coach_odds`` gives, with it or
    solving it."""
    rules = preset("advanced", strategy=True)
    for home, away, neutral in (
        ("kentucky-2012", "kansas-2008", True),
        ("duke-1992", "kentucky-2012", False),
    ):
        h, a = fixture(home), fixture(away)
        coach, odds = coach_and_odds(h, a, rules=rules, neutral=neutral, scores=False)
        assert repr(coach) == repr(solve_coach(h, a, rules=rules, neutral=neutral))
        assert odds == coach_odds(h, a, rules=rules, neutral=neutral, scores=False)
        assert odds == coach_odds(h, a, rules=rules, neutral=neutral, scores=False, coach=coach)
    with pytest.raises(ValueError, match="exact coach"):
        coach_and_odds(h, a, rules=preset("advanced", strategy=True, version=2))
