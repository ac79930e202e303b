"""Coach styles: each parameter changes the choice it documents, and nothing else.

A style sets only the choices the seeds leave to a player (simulator/*/style.py); the
engines refuse any answer the rules forbid, so every game here is also a legal one.
"""

from __future__ import annotations

import json
import math

import pytest

from simulator import SeededDice
from simulator.dice import ScriptedDice
from simulator.games import InvalidTeamError, StyledTeam, TeamName, find_game
from simulator.gridcourt import GridRules
from simulator.gridcourt import odds as gridcourt_odds
from simulator.gridcourt.engine import Table
from simulator.gridcourt.odds import simulated_odds, styled_odds
from simulator.gridcourt.policy import DEFAULT_POLICY as GRID_RULINGS
from simulator.gridcourt.style import DEFAULT_STYLE as GRID_DEFAULT
from simulator.gridcourt.style import GridStyle, StylePolicy
from simulator.gridcourt.style import StyleError as GridStyleError
from simulator.sixdice.odds import exact_odds
from simulator.sixdice.policy import MAIN_CONTEST, SHOT_CONTEST, Contest
from simulator.sixdice.state import AWAY, HOME, GameState
from simulator.sixdice.style import DEFAULT_STYLE as DICE_DEFAULT
from simulator.sixdice.style import Sides, SixDiceStyle
from simulator.sixdice.style import StyleError as DiceStyleError
from simulator.sixdice.style import StylePolicy as DicePolicy

LEVEL1 = GridRules(level=1)
# Away on offense at level 1: A1 in the corner (base 8, a 3 needing 9: E 30) and A2 at
# (9,7) (base 7, a 2 needing 8: E 30) are open; A3-A5 each have a defender on a border.
OPEN_THREE_AND_TWO = {
    "away": [(1, 1), (9, 7), (10, 1), (10, 14), (5, 1)],
    "home": [(9, 1), (9, 14), (4, 1), (3, 10), (3, 5)],
}


def grid_state(clock: int, rules: GridRules = LEVEL1, **position: object):  # type: ignore[no-untyped-def]
    table = Table(ScriptedDice(d6=[]), rules)
    table.set_position(offense="away", clock=clock, **(position or OPEN_THREE_AND_TWO))  # type: ignore[arg-type]
    return table.state


# -- grid court ------------------------------------------------------------------------------


def test_three_point_appetite_picks_the_3_or_the_2_among_equal_shots() -> None:
    state = grid_state(clock=2)  # the last roll: the best open shot is always taken
    assert state.open_pieces() == (1, 2)
    assert StylePolicy(GridStyle(threes=200)).announce(state) == 1  # the corner 3
    assert StylePolicy(GridStyle(threes=50)).announce(state) == 2  # the 2 from (9,7)
    assert GRID_RULINGS.announce(state) == 2  # §4.2: equal E, the lower value


def test_patience_sets_the_shot_a_team_waits_for_by_the_shot_clock() -> None:
    quick, patient = StylePolicy(GridStyle(patience=20)), StylePolicy(GridStyle(patience=80))
    # The best open shot (the 2 from (9,7), A2: 30/36, equal to the corner 3 and on the
    # lower value) against the court's best, 66/36 (a 2 needing 4).
    assert quick.announce(grid_state(clock=0)) == 2
    assert patient.announce(grid_state(clock=0)) is None  # waits for a better shot
    assert patient.announce(grid_state(clock=1)) == 2  # settles for half of it
    assert patient.announce(grid_state(clock=2)) == 2  # any open shot on the last roll
    # The rulings' fixed bar (1 expected point) never takes it before the last roll.
    assert GRID_RULINGS.announce(grid_state(clock=1)) is None


def test_crashers_send_that_many_pieces_to_the_paint() -> None:
    def in_paint_after(policy: StylePolicy) -> set[int]:
        table = Table(ScriptedDice(d6=[]), GridRules(), home_policy=policy, away_policy=policy)
        table.start()
        state = table.state
        court = state.court
        pos = dict(enumerate(state.pos["away"], 1))
        for piece, cell in policy.offense_steps(state, 12):
            pos[piece] = court.index(cell)
        return {p for p, i in pos.items() if court.paint[i]}

    assert in_paint_after(StylePolicy(GridStyle(crashers=0))) == set()
    assert in_paint_after(StylePolicy(GridStyle(crashers=1))) == {5}
    assert in_paint_after(StylePolicy(GridStyle(crashers=2))) == {4, 5}


def test_a_trap_closes_the_ways_out_of_the_paint() -> None:
    table = Table(ScriptedDice(d6=[]), GridRules())
    table.set_position(
        offense="away",
        roller="home",
        away=[(10, 1), (10, 14), (9, 1), (8, 14), (2, 7)],
        home=[(1, 6), (3, 8), (4, 7), (9, 13), (9, 2)],
        paint_counts={5: 1},  # A5 has spent a roll in the paint: it must leave on the next
    )
    state = table.state
    court = state.court

    def ways_out(trap: bool) -> int:
        occupied, defense = set(state.occupied), list(state.pos["home"])
        for piece, cell in StylePolicy(GridStyle(trap=trap)).defense_steps(state, 3):
            occupied.discard(defense[piece - 1])
            defense[piece - 1] = court.index(cell)
            occupied.add(defense[piece - 1])
        return sum(1 for j in court.orthogonal[state.pos["away"][4]] if j not in occupied)

    assert ways_out(trap=False) == 3
    assert ways_out(trap=True) == 1


def test_the_default_style_beats_the_shot_clock_and_a_keen_style_takes_the_level_1_3() -> None:
    game = find_game("gridcourt")
    ruled = StyledTeam("A", 2000, None)  # "rulings": §4's policy
    styled = StyledTeam("B", 2000, GRID_DEFAULT)
    keen = StyledTeam("C", 2000, GridStyle(threes=200))

    def per_game(team: StyledTeam, rules: GridRules, games: int) -> tuple[float, float]:
        tpa = scv = 0
        for i in range(games):
            r = game.play(team, team, SeededDice(i), rules)
            tpa += r.home.box.totals.tpa + r.away.box.totals.tpa
            scv += r.home.box.shot_clock_violations + r.away.box.shot_clock_violations
        return tpa / games, scv / games

    # At level 1 a corner 3 needs a 9 (0.83 expected points against 1.17 for a 2 from a 7):
    # a coach who values shots by their points leaves it, one who likes 3s takes it.
    assert per_game(ruled, LEVEL1, 60)[0] < 1 and per_game(styled, LEVEL1, 60)[0] < 1
    assert per_game(keen, LEVEL1, 60)[0] > 10
    level2 = GridRules(level=2)
    assert per_game(styled, level2, 20)[1] < 15 < 30 < per_game(ruled, level2, 20)[1]


def test_grid_styles_are_validated_with_every_problem_named() -> None:
    with pytest.raises(GridStyleError) as caught:
        GridStyle.from_json({"threes": 300, "patience": "slow", "crashers": 2, "zone": True})
    assert caught.value.problems == (
        "zone: not a grid-court style parameter (they are: crashers, patience, threes, trap)",
    )
    with pytest.raises(GridStyleError) as caught:
        GridStyle.from_json({"threes": 300, "patience": "slow", "trap": "yes"})
    assert caught.value.problems == (
        "threes: must be an integer from 50 to 200, got 300",
        'patience: must be an integer from 20 to 80, got "slow"',
        'trap: must be true or false, got "yes"',
    )
    with pytest.raises(InvalidTeamError) as team_error:
        find_game("gridcourt").read_team(
            {"school": "X", "season": 2000, "styles": {"gridcourt": {"crashers": 3}}}
        )
    assert team_error.value.problems == (
        "styles.gridcourt.crashers: must be an integer from 0 to 2, got 3",
    )
    with pytest.raises(InvalidTeamError, match=r"styles\.gridcourt: must be an object"):
        find_game("gridcourt").read_team(
            {"school": "X", "season": 2000, "styles": {"gridcourt": 5}}
        )


@pytest.mark.parametrize("name", ["gridcourt", "sixdice"])
def test_the_parameters_a_style_lists_are_the_ones_it_accepts_with_their_defaults(name) -> None:
    """What the admin's team form lists: every parameter, each value it says it takes read
    as such, the values just past its ends refused, its default the default style's."""
    game = find_game(name)
    default = game.read_style({})
    listed = game.style_parameters()
    assert [p for p, _, _ in listed] == list(game.style_to_json(default))
    for parameter, values, default_text in listed:
        assert game.read_style({parameter: json.loads(default_text)}) == default
        if values.startswith("an integer from "):
            lo, hi = map(int, values.removeprefix("an integer from ").split(" to "))
            taken, refused = [lo, hi], [lo - 1, hi + 1]
        elif values == "true or false":
            taken, refused = [True, False], [1, "yes"]
        else:
            taken = json.loads("[" + values.removeprefix("one of ") + "]")
            refused = ["none of these"]
        for value in taken:
            game.read_style({parameter: value})
        for value in refused:
            with pytest.raises(InvalidTeamError, match=parameter):
                game.read_style({parameter: value})
    assert find_game("vabg").style_parameters() == []


def test_a_team_file_gives_its_style_and_rulings_names_the_rulings_policy() -> None:
    game = find_game("gridcourt")
    doc = {"school": "X", "season": 2000}
    assert game.read_team(doc) == StyledTeam("X", 2000, GRID_DEFAULT)
    assert game.read_team({**doc, "styles": {"gridcourt": "rulings"}}).style is None
    assert game.read_team({**doc, "styles": {"gridcourt": {"threes": 75}}}).style == GridStyle(
        threes=75
    )
    # Another game's style, or none for this one: the default.
    assert game.read_team({**doc, "styles": {"sixdice": {"chip": "shots"}}}).style == GRID_DEFAULT


def test_a_grid_court_pairing_of_styles_has_odds_that_match_seeded_games(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The pairing's run shortened to 300 games (the same code; its 1,000 took 14 s of the
    # suite), its per-process cache emptied on both sides of the test.
    monkeypatch.setattr(gridcourt_odds, "STYLE_GAMES", 300)
    styled_odds.cache_clear()
    try:
        _check_a_pairing_of_styles()
    finally:
        styled_odds.cache_clear()


def _check_a_pairing_of_styles() -> None:
    rules = GridRules()
    keen, shy = GridStyle(threes=200, patience=20), GridStyle(threes=50, patience=80)
    odds = styled_odds(rules, keen, shy)
    assert odds.method == "simulated" and odds.games == 300
    assert (
        find_game("gridcourt").odds(rules, StyledTeam("A", 1, keen), StyledTeam("B", 1, shy))
        == odds
    )
    # An independent run (other seeds) agrees within 4 standard errors of the difference.
    check = simulated_odds(rules, games=300, seed=77_000, home=keen, away=shy)
    gap = abs(odds.p_home_win - check.p_home_win)
    print(f"styled run {odds.p_home_win:.3f}, check {check.p_home_win:.3f}")
    assert gap < 4 * math.hypot(odds.standard_error, check.standard_error)
    # Both teams of the default style read the stored run of the level.
    default = find_game("gridcourt").odds(rules, StyledTeam("A", 1, GRID_DEFAULT), None)
    assert default is not None and default.games == 2_000


# -- six dice --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("style", "depth", "n", "action"),
    [
        (SixDiceStyle(), 2, 3, "advance"),  # §4.2: advance outside the arc
        (SixDiceStyle(threes="top"), 2, 3, "advance"),
        (SixDiceStyle(threes="top"), 3, 3, "shoot"),  # the top of the arc
        (SixDiceStyle(threes="outside"), 1, 2, "shoot"),
        (SixDiceStyle(threes="outside"), 3, 5, "advance"),  # 3 + 5 > 7: the dunk first
        (SixDiceStyle(), 5, 2, "shoot"),  # §4.2: the 2 inside the arc
        (SixDiceStyle(inside="drive"), 5, 2, "advance"),
    ],
)
def test_six_dice_ball_actions_follow_the_style(
    style: SixDiceStyle, depth: int, n: int, action: str
) -> None:
    assert DicePolicy(style).ball_action(n, GameState.main_roll(AWAY, depth, HOME)) == action


def test_six_dice_pushing_out_and_the_chip_follow_the_style() -> None:
    inside = GameState.main_roll(AWAY, 5, AWAY)
    assert not DicePolicy(SixDiceStyle(threes="outside")).push_out(inside)
    assert DicePolicy(SixDiceStyle(threes="always")).push_out(inside)
    main = Contest(MAIN_CONTEST, AWAY, (), (), 3, (), (), 3)
    shot = Contest(SHOT_CONTEST, AWAY, (), (), 3, (), (), 3)
    saver = DicePolicy(SixDiceStyle(chip="shots"))
    assert (saver.use_chip(main, inside), saver.use_chip(shot, inside)) == (False, True)
    assert DicePolicy(SixDiceStyle()).use_chip(main, inside)


def test_each_team_answers_with_its_own_style() -> None:
    sides = Sides(home=DicePolicy(SixDiceStyle(threes="outside")), away=DicePolicy(DICE_DEFAULT))
    assert sides.ball_action(2, GameState.main_roll(HOME, 2, AWAY)) == "shoot"
    assert sides.ball_action(2, GameState.main_roll(AWAY, 2, HOME)) == "advance"


def test_six_dice_styles_are_validated() -> None:
    with pytest.raises(DiceStyleError) as caught:
        SixDiceStyle.from_json({"threes": "lots", "chip": "never"})
    assert caught.value.problems == (
        'threes: must be one of never, top, outside, always, got "lots"',
        'chip: must be one of always, shots, got "never"',
    )
    with pytest.raises(InvalidTeamError) as team_error:
        find_game("sixdice").read_team(
            {"school": "X", "season": 2000, "styles": {"sixdice": {"pace": "fast"}}}
        )
    assert team_error.value.problems == (
        "styles.sixdice.pace: not a six-dice style parameter (they are: chip, inside, threes)",
    )


@pytest.mark.parametrize(
    "home",
    [SixDiceStyle(threes="outside"), SixDiceStyle(inside="drive"), SixDiceStyle(chip="shots")],
)
def test_six_dice_exact_odds_of_two_styles_match_seeded_games(home: SixDiceStyle) -> None:
    game = find_game("sixdice")
    a, b = StyledTeam("Home", 1, home), StyledTeam("Away", 1, DICE_DEFAULT)
    odds = game.odds(None, a, b)
    assert odds.method == "exact"
    assert odds.p_home_win != pytest.approx(exact_odds().p_home_win, abs=0.005)
    games = 1_500
    wins = sum(game.play(a, b, SeededDice(5_000 + i)).home.score >= 21 for i in range(games))
    p = wins / games
    se = math.sqrt(odds.p_home_win * (1 - odds.p_home_win) / games)
    print(f"{home.to_json()}: exact {odds.p_home_win:.4f}, seeded {p:.4f} (se {se:.4f})")
    assert abs(p - odds.p_home_win) < 4 * se


def test_a_plain_team_name_plays_the_default_style() -> None:
    game = find_game("sixdice")
    plain = game.play(TeamName("H", 1), TeamName("A", 1), SeededDice(3))
    styled = game.play(
        StyledTeam("H", 1, DICE_DEFAULT), StyledTeam("A", 1, DICE_DEFAULT), SeededDice(3)
    )
    assert plain.to_json() == styled.to_json()
