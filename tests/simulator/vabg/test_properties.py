"""Property tests: identities every seeded game must satisfy, whatever the teams and dice.

Games are drawn over random seeds, both presets, home court and neutral site, with and
without the coach policy, between the fixture teams and random valid ``vabg-team/1``
rosters (5-10 players, any card values the format allows, seasons either side of 1987).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from simulator import DiceScriptExhausted, GameResult, ScriptedDice, SeededDice
from simulator.dice import DiceRecord, DiceSource
from simulator.results import LINE_FIELDS
from simulator.vabg import (
    ADVANCED,
    BASIC,
    EndlessGameError,
    TeamCard,
    play_game,
    read_team_file,
    team_from_json,
)
from simulator.vabg.coaching import Coach
from simulator.vabg.engine import rules_coach
from simulator.vabg.events import (
    Block,
    Call,
    Enter,
    Foul,
    FreeThrow,
    Opening,
    PeriodEnd,
    Rebound,
    Shot,
    Steal,
    Trip,
    Turnover,
    box_score,
)

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "teams"
FIXTURE_TEAMS = [
    read_team_file(FIXTURES / name)
    for name in ("kentucky-2012.json", "kansas-2008.json", "san-diego-state-2011.json")
]
OT_LENGTH = ADVANCED.overtime_possessions
assert BASIC.overtime_possessions == OT_LENGTH

EXAMPLES = settings(  # how many examples: the Hypothesis profile (tests/conftest.py)
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


class RecordingDice:
    """Pass a source's rolls through and remember them, one list per die."""

    def __init__(self, source: DiceSource) -> None:
        self.source = source
        self.rolls: dict[str, list[int]] = {"d8": [], "d6": [], "d20": []}

    def d8(self) -> int:
        roll = self.source.d8()
        self.rolls["d8"].append(roll)
        return roll

    def d6(self) -> int:
        roll = self.source.d6()
        self.rolls["d6"].append(roll)
        return roll

    def d20(self) -> int:
        roll = self.source.d20()
        self.rolls["d20"].append(roll)
        return roll

    def record(self) -> DiceRecord:
        return self.source.record()


# -- strategies -------------------------------------------------------------------------


@st.composite
def d20_columns(draw: st.DrawFn) -> dict[str, str | None]:
    """Split 1-20 into the five outcomes at four cut points; empty ranges are null."""
    cuts = sorted(draw(st.lists(st.integers(0, 20), min_size=4, max_size=4)))
    out: dict[str, str | None] = {}
    low = 0
    for key, high in zip(("3PM", "2PM", "FOUL", "3PX", "2PX"), [*cuts, 20], strict=True):
        out[key] = None if high == low else (f"{low + 1}-{high}" if high > low + 1 else str(high))
        low = high
    return out


@st.composite
def player_cards(draw: st.DrawFn) -> dict[str, Any]:
    """A player's card values, any the format allows (the name, slot and role apart)."""
    doc: dict[str, Any] = {
        "positions": draw(POSITIONS),
        "extra_ball": draw(st.integers(0, 2)),
        "can_play": draw(st.integers(0, 66)),
        "steal_top": draw(st.integers(10, 30)),
        "block_top": draw(st.integers(20, 40)),
        "foul_from": draw(st.integers(33, 37)),
        "turnover_top": draw(st.integers(40, 46)),
        "d20": draw(D20_COLUMNS),
        "free_throw_top": draw(st.integers(0, 20)),
        "off_reb": draw(st.integers(0, 20)),
        "def_reb": draw(st.integers(0, 20)),
    }
    ppg = draw(PPG)
    if ppg is not None:
        doc["ppg"] = ppg
    if draw(st.integers(0, 9)) == 0:
        doc["dunk_top"] = draw(st.integers(34, 66))
    if draw(st.integers(0, 9)) == 0:
        doc["dunk_adjust"] = draw(st.integers(-32, 32))
    return doc


# Each strategy is built once: a strategy object made afresh for every player (a composite
# called with its name, slot and role) is labelled and validated again on every draw, which
# cost more than the game each example plays. The draws, and so the cards, are the same.
D20_COLUMNS = d20_columns()
POSITIONS = st.lists(st.integers(0, 5), min_size=1, max_size=3, unique=True)
PPG = st.none() | st.floats(0, 40, allow_nan=False).map(lambda x: round(x, 1))
PLAYER_CARDS = player_cards()
RESERVE_SLOTS = st.lists(st.integers(1, 5), max_size=5)
SEASONS = st.sampled_from([1965, 1986, 1987, 2012])


def player_doc(card: dict[str, Any], name: str, slot: int, role: str) -> dict[str, Any]:
    return {"name": name, "slot": slot, "role": role, **card}


@st.composite
def random_teams(draw: st.DrawFn, school: str) -> TeamCard:
    """Return a valid roster of 5-10 players with any card values the format allows."""
    reserve_slots = draw(RESERVE_SLOTS)
    players = [player_doc(draw(PLAYER_CARDS), f"{school} {s}", s, "starter") for s in range(1, 6)]
    players += [
        player_doc(draw(PLAYER_CARDS), f"{school} {s}{chr(97 + i)}", s, "reserve")
        for i, s in enumerate(reserve_slots)
    ]
    doc = {
        "format": "vabg-team/1",
        "school": school,
        "season": draw(SEASONS),
        "dunk_top": draw(st.integers(34, 66)),
        "dunk_adjust": draw(st.integers(-32, 32)),
        "players": draw(st.permutations(players)),
    }
    return team_from_json(doc)


TEAMS = {
    school: st.sampled_from(FIXTURE_TEAMS) | random_teams(school) for school in ("Home", "Away")
}


def teams(school: str) -> st.SearchStrategy[TeamCard]:
    return TEAMS[school]


rules_options = st.builds(
    lambda preset, strategy: replace(preset, strategy=strategy),
    st.sampled_from([BASIC, ADVANCED]),
    st.booleans(),
)
seeds = st.integers(0, 2**63)


@st.composite
def games(draw: st.DrawFn) -> GameResult:
    home, away = draw(teams("Home")), draw(teams("Away"))
    try:
        return play_game(
            home,
            away,
            SeededDice(draw(seeds)),
            rules=draw(rules_options),
            neutral=draw(st.booleans()),
        )
    except EndlessGameError:
        reject()  # random cards that can never end a game (test_termination.py)


# -- helpers ----------------------------------------------------------------------------


def openings(result: GameResult) -> dict[tuple[str, str], Opening]:
    return {(e.team, e.player): e for e in result.events if isinstance(e, Opening)}


def sides(result: GameResult):
    return (("home", result.home), ("away", result.away))


# -- the box score ----------------------------------------------------------------------


@EXAMPLES
@given(games())
def test_every_line_adds_up_from_its_opening_credits_and_its_shots(result):
    opening = openings(result)
    for key, team in sides(result):
        assert team.score == sum(p.pts for p in team.players)
        assert sum(opening[key, p.name].pts for p in team.players) == 20
        for p in team.players:
            start = opening[key, p.name]
            assert p.pts == start.pts + 2 * (p.fgm - p.tpm) + 3 * p.tpm + p.ftm, p
            assert p.reb == start.reb + p.oreb + p.dreb, p
            assert p.fgm <= p.fga and p.tpm <= p.tpa and p.tpm <= p.fgm and p.tpa <= p.fga, p
            assert p.ftm <= p.fta, p
            assert all(getattr(p, name) >= 0 for name in LINE_FIELDS), p
        assert team.team_turnovers >= 0
        assert team.totals.to == sum(p.to for p in team.players) + team.team_turnovers


def tally(events: list[Any], ot_length: int) -> tuple[dict[str, Any], int]:
    """Count every box-score figure from the events alone, by the credits of
    vabg-rulings.md §13: a tally of this test's own, sharing nothing with ``box_score``.

    Return, per team, its lines (player -> Counter of figures), team turnovers and
    points by period, and the number of overtimes.
    """
    teams: dict[str, Any] = {
        key: {"lines": {}, "team_to": 0, "periods": Counter()} for key in ("home", "away")
    }
    entered: dict[tuple[str, int], list[tuple[tuple[int, int], str]]] = {}
    ends = 0

    def line(team: str, name: str) -> Counter[str]:
        return teams[team]["lines"].setdefault(name, Counter())

    for e in events:
        if isinstance(e, Opening):
            line(e.team, e.player).update(pts=e.pts, reb=e.reb, stl=e.stl, blk=e.blk, pf=e.pf)
            teams[e.team]["periods"][0] += e.pts
        elif isinstance(e, Shot):
            got = line(e.team, e.player)
            got.update(fga=1, tpa=int(e.value == 3))
            if e.made:
                got.update(fgm=1, tpm=int(e.value == 3), pts=e.value)
                teams[e.team]["periods"][e.period] += e.value
        elif isinstance(e, FreeThrow):
            line(e.team, e.player).update(fta=1, ftm=int(e.made), pts=int(e.made))
            teams[e.team]["periods"][e.period] += int(e.made)
        elif isinstance(e, Rebound):
            line(e.team, e.player).update(reb=1, **{"oreb" if e.offensive else "dreb": 1})
        elif isinstance(e, Steal):
            line(e.team, e.player)["stl"] += 1
        elif isinstance(e, Block):
            line(e.team, e.player)["blk"] += 1
        elif isinstance(e, Foul):
            line(e.team, e.player)["pf"] += 1
        elif isinstance(e, Turnover):
            if e.player is None:
                teams[e.team]["team_to"] += 1
            else:
                line(e.team, e.player)["to"] += 1
        elif isinstance(e, Enter):
            # In play order a later number is a larger (period, -number).
            entered.setdefault((e.team, e.slot), []).append(((e.period, -e.number), e.player))
        elif isinstance(e, PeriodEnd):
            ends += 1
    overtimes = ends - 1
    # §13 poss: each possession number a player is on the floor, 44 + ot_length per
    # overtime, whoever has the ball.
    numbers = [(0, -n) for n in range(44, 0, -1)]
    numbers += [(p, -n) for p in range(1, overtimes + 1) for n in range(ot_length, 0, -1)]
    for (team, _slot), stints in entered.items():
        for number in numbers:
            on_floor = [name for since, name in stints if since <= number][-1]
            line(team, on_floor)["poss"] += 1
    return teams, overtimes


@EXAMPLES
@given(games())
def test_the_box_score_returned_is_the_one_an_independent_tally_of_the_events_gives(result):
    counted, overtimes = tally(list(result.events), OT_LENGTH)
    assert result.overtimes == overtimes
    for key, team in sides(result):
        mine = counted[key]
        assert {p.name for p in team.players} == set(mine["lines"])
        for p in team.players:
            assert {f: getattr(p, f) for f in LINE_FIELDS} == {
                f: mine["lines"][p.name][f] for f in LINE_FIELDS
            }, p.name
        assert team.team_turnovers == mine["team_to"]
        assert team.periods == tuple(mine["periods"][i] for i in range(1 + overtimes))
        assert team.score == sum(mine["periods"].values())


@EXAMPLES
@given(games())
def test_the_lines_the_engine_counts_are_those_its_events_give(result):
    """The engine counts each line as it makes the events; ``events.box_score`` rebuilds
    them from the stored events alone (a replayed or imported game): both must agree."""
    home, away, overtimes = box_score(result.events, ot_length=result.rules.overtime_possessions)
    assert (home, away, overtimes) == (result.home, result.away, result.overtimes)


@EXAMPLES
@given(games())
def test_the_engines_running_score_agrees_with_the_box_score_and_never_ends_tied(result):
    ends = [e for e in result.events if isinstance(e, PeriodEnd)]
    assert len(ends) == 1 + result.overtimes
    assert (ends[-1].home, ends[-1].away) == (result.home.score, result.away.score)
    assert all(e.home == e.away for e in ends[:-1])  # §1: a tie goes to overtime
    assert result.home.score != result.away.score
    for _key, team in sides(result):
        assert len(team.periods) == 1 + result.overtimes
        assert sum(team.periods) == team.score


@EXAMPLES
@given(games())
def test_each_slot_is_on_the_floor_for_every_possession_number(result):
    # §13: poss counts the numbers a player is on the floor, 44 per slot plus 5 per
    # overtime; extra possessions, putbacks and fast breaks add nothing.
    numbers = 44 + OT_LENGTH * result.overtimes
    for _key, team in sides(result):
        assert sum(p.poss for p in team.players) == 5 * numbers
        assert all(p.poss <= numbers for p in team.players)


@EXAMPLES
@given(games())
def test_each_team_plays_44_trips_plus_10_per_overtime_and_extras_come_in_pairs(result):
    kinds = Counter((e.team, e.kind) for e in result.events if isinstance(e, Trip))
    numbers = 44 + OT_LENGTH * result.overtimes
    assert kinds["home", ""] == kinds["away", ""] == numbers
    calls = Counter(e.call for e in result.events if isinstance(e, Call))
    # §8/§10: each extra possession or 2a/1a round gives both teams exactly one trip.
    rounds = calls["extra possession"] + calls["intentional foul"]
    for key in ("home", "away"):
        assert kinds[key, "extra"] + kinds[key, "foul"] == rounds
    assert set(calls) <= {"extra possession", "intentional foul", "no call on the road"}
    if not result.rules.strategy:
        assert rounds == 0
    if result.neutral or not result.rules.home_court:
        assert calls["no call on the road"] == 0


@EXAMPLES
@given(games())
def test_every_event_is_credited_to_a_player_of_the_right_team(result):
    rosters = {key: {p.name for p in team.players} for key, team in sides(result)}
    other = {"home": "away", "away": "home"}
    for e in result.events:
        if isinstance(e, Shot | FreeThrow | Rebound | Steal | Block):
            assert e.player in rosters[e.team], e
        elif isinstance(e, Turnover):
            assert e.player is None or e.player in rosters[e.team], e
        elif isinstance(e, Foul):
            assert e.player in rosters[e.team] and e.fouled in rosters[other[e.team]], e


@EXAMPLES
@given(games())
def test_a_fast_break_follows_every_fast_break_steal_and_only_under_its_rule(result):
    events = list(result.events)
    for i, e in enumerate(events):
        if isinstance(e, Steal) and e.fast_break:
            assert result.rules.fast_breaks
            assert isinstance(events[i + 1], Turnover) and events[i + 1].cause == "steal"
            # §8: the stealer shoots at once, or is fouled by the opponent in his slot.
            bonus = events[i + 2]
            if isinstance(bonus, Shot):
                assert (bonus.team, bonus.player) == (e.team, e.player)
                assert bonus.how.startswith("fast break")
            else:
                assert isinstance(bonus, Foul) and bonus.fouled == e.player, bonus


@EXAMPLES
@given(games())
def test_without_the_rebound_chart_the_offense_never_rebounds(result):
    if not result.rules.rebound_chart:
        assert not any(isinstance(e, Rebound) and e.offensive for e in result.events)
        assert all(p.oreb == 0 for _key, team in sides(result) for p in team.players)


@EXAMPLES
@given(games())
def test_strategy_choices_are_made_only_by_a_trailing_team_inside_their_windows(result):
    # §8: the extra possessions only in the last 5, by a team that fast-broke and still
    # trails; §10: intentional fouls only for 2a and 1a and tries for 3 only by a
    # trailing team. The score is followed from the events.
    score = {"home": 0, "away": 0}
    other = {"home": "away", "away": "home"}
    running: tuple[int, int, str] | None = None  # a fast break being played
    trailing_runners: set[tuple[int, int, str]] = set()  # a trailing team fast-broke there
    for e in result.events:
        if running is not None and isinstance(e, Trip | Call | PeriodEnd):
            # The fast break is over: did its team still trail?
            period, number, team = running
            if score[team] < score[other[team]]:
                trailing_runners.add((period, number, team))
            running = None
        if isinstance(e, Opening):
            score[e.team] += e.pts
        elif isinstance(e, Steal) and e.fast_break:
            running = (e.period, e.number, e.team)
        elif isinstance(e, Shot) and e.how == "jumper (try for 3)":
            assert result.rules.strategy and score[e.team] < score[other[e.team]], e
        elif isinstance(e, Call) and e.call == "intentional foul":
            assert result.rules.strategy and e.number in (2, 1), e
            assert score[e.team] < score[other[e.team]], e
        elif isinstance(e, Call) and e.call == "extra possession":
            assert result.rules.strategy and e.number <= 5, e
            # ... and the call is that team's (it was always the visitor's)
            assert (e.period, e.number, e.team) in trailing_runners, e
        if isinstance(e, Shot) and e.made:
            score[e.team] += e.value
        elif isinstance(e, FreeThrow) and e.made:
            score[e.team] += 1


# -- dice -------------------------------------------------------------------------------


@st.composite
def setups(draw: st.DrawFn) -> dict[str, Any]:
    return {
        "home": draw(teams("Home")),
        "away": draw(teams("Away")),
        "seed": draw(seeds),
        "rules": draw(rules_options),
        "neutral": draw(st.booleans()),
    }


def play_setup(setup: dict[str, Any], dice: DiceSource, coach: Coach | None = None) -> GameResult:
    try:
        return play_game(
            setup["home"],
            setup["away"],
            dice,
            rules=setup["rules"],
            neutral=setup["neutral"],
            coach=coach,
        )
    except EndlessGameError:
        reject()  # random cards that can never end a game (test_termination.py)


def setup_coach(setup: dict[str, Any]) -> Coach:
    """The coach ``play_game`` would solve for the setup (the rules' own, by the engine's
    ``rules_coach``), solved once for a test that plays the setup twice: the exact coach's
    solve costs several times the game, and it reads no dice. (That play_game solving it
    itself gives the same game twice is test_the_same_seed_plays_the_same_game's.)"""
    try:
        return rules_coach(
            setup["home"], setup["away"], rules=setup["rules"], neutral=setup["neutral"]
        )
    except EndlessGameError:
        reject()  # random cards that can never end a game (test_termination.py)


def same_game(a: GameResult, b: GameResult) -> bool:
    return (a.home, a.away, a.overtimes, tuple(a.events)) == (
        b.home,
        b.away,
        b.overtimes,
        tuple(b.events),
    )


@EXAMPLES
@given(setups())
def test_the_same_seed_plays_the_same_game(setup):
    first = play_setup(setup, SeededDice(setup["seed"]))
    again = play_setup(setup, SeededDice(setup["seed"]))
    assert first == again
    assert first.dice.seed == setup["seed"]


@EXAMPLES
@given(setups())
def test_a_seeded_games_rolls_replayed_as_a_script_play_the_same_game(setup):
    coach = setup_coach(setup)
    recorder = RecordingDice(SeededDice(setup["seed"]))
    seeded = play_setup(setup, recorder, coach)
    script = ScriptedDice(**recorder.rolls)
    replayed = play_setup(setup, script, coach)
    assert same_game(seeded, replayed)
    assert replayed.dice.script == {k: tuple(v) for k, v in recorder.rolls.items()}
    # Every recorded roll was read again, no more and no fewer.
    for die in ("d8", "d6", "d20"):
        with pytest.raises(DiceScriptExhausted):
            getattr(script, die)()


@EXAMPLES
@given(setups(), st.sampled_from(["d8", "d6", "d20"]))
def test_a_script_one_roll_short_stops_the_game_naming_the_die(setup, die):
    coach = setup_coach(setup)
    recorder = RecordingDice(SeededDice(setup["seed"]))
    play_setup(setup, recorder, coach)
    rolls = dict(recorder.rolls)
    rolls[die] = rolls[die][:-1]
    with pytest.raises(DiceScriptExhausted) as caught:
        play_setup(setup, ScriptedDice(**rolls), coach)
    assert caught.value.stream == die
    assert caught.value.used == len(rolls[die])
    assert f"a {die} was wanted" in str(caught.value)
