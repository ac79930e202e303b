"""The scripted scenarios of gridcourt-rulings.md §6, each replayed with scripted dice.

A attacks and is the visitor (team 1); B defends and is home. Positions list pieces 1..N.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from simulator import DiceScriptExhausted, ScriptedDice
from simulator.gridcourt import (
    DEFAULT_POLICY,
    GameOverError,
    GridRules,
    GridState,
    PolicyError,
    Table,
    box_score,
)
from simulator.gridcourt.court import MAKES, court
from simulator.gridcourt.events import (
    AWAY,
    HOME,
    OFFENSE,
    PAINT,
    SHOT_CLOCK,
    Announce,
    End,
    Rebound,
    Reset,
    Roll,
    Score,
    Shot,
    Steal,
    Step,
    Violation,
)
from simulator.gridcourt.policy import _path

A_SPOTS = [(1, 1), (1, 14), (9, 6), (7, 4), (7, 11)]
B_GUARDS = [(1, 3), (1, 12), (8, 6), (7, 5), (7, 10)]


def table(d6: Sequence[int], rules: GridRules | None = None, **policies: object) -> Table:
    return Table(ScriptedDice(d6=d6), rules or GridRules(), **policies)  # type: ignore[arg-type]


def position(t: Table, a: Sequence[tuple[int, int]], b: Sequence[tuple[int, int]], **kw: object):
    t.set_position(offense=AWAY, away=a, home=b, **kw)  # type: ignore[arg-type]
    return t


def since(t: Table, start: int) -> list[object]:
    return t.events[start:]


def dice_used_up(t: Table) -> bool:
    try:
        t.dice.d6()
    except DiceScriptExhausted:
        return True
    return False


# 1 ---------------------------------------------------------------------------------------


def test_1_a_reset_puts_the_offense_on_its_spots_and_each_defender_on_its_man():
    t = table([])
    t.start()
    assert t.state.cells(AWAY) == tuple(A_SPOTS)
    assert t.state.cells(HOME) == tuple(B_GUARDS)
    assert t.events == [Reset(AWAY, tuple(B_GUARDS), tuple(A_SPOTS))]


def test_1_with_13_columns_a_defender_with_no_inside_border_takes_the_nearest_inside_cell():
    t = table([], GridRules(width=13))
    t.start()
    assert t.state.cells(AWAY) == ((1, 1), (1, 13), (9, 6), (7, 4), (7, 10))
    assert t.state.cells(HOME) == ((1, 3), (1, 11), (8, 6), (6, 5), (6, 9))


# 2 ---------------------------------------------------------------------------------------


def test_2_an_opening_4_4_is_a_made_3_by_a1_and_b_rolls_next():
    t = table([4, 4])
    t.start()
    assert t.state.open_pieces() == (1, 2)
    assert t.state.shot_value(1) == t.state.shot_value(2) == 45
    t.turn()
    assert since(t, 1) == [
        Announce(AWAY, 1, (1, 1)),
        Roll(AWAY, OFFENSE, (4, 4), 0, (1, 2)),
        Shot(AWAY, 1, (1, 1), 8, 8, 0, 3, True),
        Score(home=0, away=3),
        Reset(AWAY, tuple(B_GUARDS), tuple(A_SPOTS)),
    ]
    assert t.state.offense == AWAY
    assert t.state.roller == HOME


# 3 ---------------------------------------------------------------------------------------


def test_3_a_miss_with_no_one_in_the_paint_is_a_defensive_rebound_and_b_scores_from_it():
    t = table([3, 4, 2, 5])
    t.start()
    t.turn()
    assert since(t, 3) == [
        Shot(AWAY, 1, (1, 1), 8, 7, 0, 3, False),
        Rebound(HOME, 1, offensive=False),
    ]
    assert (t.state.offense, t.state.roller) == (HOME, HOME)
    assert t.state.cells(HOME) == tuple(B_GUARDS)  # no reset
    assert 1 in t.state.open_pieces()
    assert t.state.shot_value(1) == 42
    t.turn()
    assert since(t, 5)[:4] == [
        Announce(HOME, 1, (1, 3)),
        Roll(HOME, OFFENSE, (2, 5), 0, (1, 2, 3, 4, 5)),
        Shot(HOME, 1, (1, 3), 7, 7, 0, 2, True),
        Score(home=2, away=0),
    ]
    assert type(t.events[-1]) is Reset
    assert (t.state.offense, t.state.roller) == (HOME, AWAY)


# 4 ---------------------------------------------------------------------------------------


def test_4_an_opening_1_1_is_a_steal_and_the_announced_shot_is_not_taken():
    t = table([1, 1])
    t.start()
    t.turn()
    assert since(t, 1) == [
        Announce(AWAY, 1, (1, 1)),
        Roll(AWAY, OFFENSE, (1, 1), 0, (1, 2)),
        Steal(HOME, 1, 1),
    ]
    assert (t.state.offense, t.state.roller, t.state.clock) == (HOME, HOME, 0)
    assert t.state.cells(AWAY) == tuple(A_SPOTS)
    home, away = box_score(t.events)
    assert away.line(1).to == 1
    assert home.line(1).stl == 1
    assert home.team_stl == away.team_to == 0


# 5 ---------------------------------------------------------------------------------------

A5 = [(4, 3), (1, 14), (3, 7), (4, 8), (10, 7)]
B5 = [(5, 5), (2, 13), (2, 7), (3, 8), (9, 7)]


def test_5_the_seeds_rebound_example_6_is_an_offensive_rebound_to_a3():
    t = position(table([3, 3]), A5, B5)
    assert t.state.open_pieces() == (1, 2)
    t.turn()
    assert since(t, 0) == [
        Announce(AWAY, 1, (4, 3)),
        Roll(AWAY, OFFENSE, (3, 3), 0, (1, 2)),
        Shot(AWAY, 1, (4, 3), 8, 6, 2, 3, False),
        Rebound(AWAY, 3, offensive=True),
    ]
    assert (t.state.offense, t.state.roller, t.state.clock) == (AWAY, HOME, 0)


def test_5_the_seeds_rebound_example_5_is_a_defensive_rebound_to_b3():
    t = position(table([2, 3]), A5, B5)
    t.turn()
    assert t.events[-2:] == [
        Shot(AWAY, 1, (4, 3), 8, 5, 2, 3, False),
        Rebound(HOME, 3, offensive=False),
    ]
    assert (t.state.offense, t.state.roller) == (HOME, HOME)
    assert t.state.cells(AWAY) == tuple(A5)  # the pieces stand where they were


# 6 ---------------------------------------------------------------------------------------

A6 = [(10, 1), (10, 14), (9, 1), (3, 8), (2, 7)]
B6 = [(9, 2), (9, 13), (8, 1), (4, 8), (5, 7)]


@pytest.mark.parametrize(
    ("dice", "last"),
    [
        ((1, 1), Steal(HOME, 4, 5)),  # B4 at (4,8) is nearest A5 (Chebyshev 2)
        ((1, 2), Rebound(AWAY, 5, offensive=True)),
        ((2, 2), Score(home=0, away=2)),
    ],
    ids=["steal", "offensive-rebound", "made-2"],
)
def test_6_the_restricted_area_shooter_is_open_on_all_four_sides(dice, last):
    t = position(table(dice), A6, B6)
    assert 5 in t.state.open_pieces()
    assert (t.state.shot_value(5), t.state.shot_value(4)) == (66, 60)
    t.turn()
    assert t.events[0] == Announce(AWAY, 5, (2, 7))
    shots = [e for e in t.events if type(e) is Shot]
    if dice != (1, 1):
        assert shots == [Shot(AWAY, 5, (2, 7), 4, sum(dice), 2, 2, dice == (2, 2))]
    assert last in t.events


# 7 ---------------------------------------------------------------------------------------


def defended_by(rules: GridRules, shooter: tuple[int, int], defender: tuple[int, int]) -> bool:
    state = GridState(rules)
    width = rules.width
    others_a = [(10, width), (10, width - 1)]
    others_b = [(10, 1), (10, 2)]
    state.place([defender, *others_b], [shooter, *others_a])
    return state.is_defended(1)


DEFENDED = [
    (14, (8, 2), [(7, 2), (8, 3)], [(8, 1), (9, 2), (7, 3), (7, 1)]),
    (14, (8, 7), [(7, 7)], [(8, 6), (8, 8), (9, 7), (7, 6), (7, 8)]),
    (14, (8, 13), [(7, 13), (8, 12)], [(8, 14)]),
    (14, (2, 8), [(1, 8), (2, 7), (2, 9), (3, 8)], [(3, 9), (1, 9)]),
    (14, (3, 7), [(2, 7)], [(3, 6), (3, 8), (4, 7)]),
    (14, (5, 5), [(4, 5), (5, 6)], [(5, 4)]),
    (13, (8, 2), [(7, 2), (8, 3)], []),
    (13, (8, 12), [(7, 12), (8, 11)], []),
    (13, (2, 8), [(1, 8), (2, 7), (2, 9), (3, 8)], []),
]


@pytest.mark.parametrize(("width", "shooter", "yes", "no"), DEFENDED)
def test_7_a_piece_is_defended_only_from_its_zones_border_cells(width, shooter, yes, no):
    rules = GridRules(width=width, pieces=3)
    for cell in yes:
        assert defended_by(rules, shooter, cell), cell
    for cell in no:
        assert not defended_by(rules, shooter, cell), cell


# 8 ---------------------------------------------------------------------------------------


def test_8_the_third_movement_roll_without_a_shot_is_a_shot_clock_violation_at_once():
    a = [(8, 2), (8, 13), (9, 7), (10, 4), (10, 11)]
    b = [(7, 2), (7, 13), (8, 7), (9, 4), (9, 11)]
    t = position(table([3, 4, 3, 4]), a, b, clock=2)
    assert t.state.open_pieces() == ()
    t.turn()
    assert not any(type(e) is Announce for e in t.events)
    steps = [e for e in t.events if type(e) is Step]
    # All 7 steps go to the crasher, A5, round B5 to the nearest empty paint cell.
    assert [(e.piece, e.to) for e in steps][-1] == (5, (5, 9))
    assert len(steps) == 7
    violation = t.events.index(Violation(AWAY, SHOT_CLOCK, None))
    assert type(t.events[violation + 1]) is Reset
    assert (t.state.offense, t.state.roller) == (HOME, HOME)
    t.turn()  # B rolls next: B does not get a defensive roll in between
    assert t.events[-4:] == [
        Announce(HOME, 1, (1, 1)),
        Roll(HOME, OFFENSE, (3, 4), 0, (1, 2)),
        Shot(HOME, 1, (1, 1), 8, 7, 0, 3, False),
        Rebound(AWAY, 1, offensive=False),
    ]
    assert t.state.offense == AWAY
    assert dice_used_up(t)
    _, away = box_score(t.events)
    assert (away.shot_clock_violations, away.team_to) == (1, 1)


# 9 ---------------------------------------------------------------------------------------

A9 = [(10, 1), (5, 7), (6, 8), (7, 3), (8, 12)]
B9 = [(9, 3), (4, 7), (5, 8), (6, 3), (7, 12)]


def test_9_on_the_last_legal_roll_any_open_shot_is_taken_and_a_12_makes_a_12():
    t = position(table([6, 6]), A9, B9, clock=2)
    assert t.state.open_pieces() == (1,)
    assert t.state.shot_value(1) == 3
    t.turn()
    assert t.events[:3] == [
        Announce(AWAY, 1, (10, 1)),
        Roll(AWAY, OFFENSE, (6, 6), 2, (1,)),
        Shot(AWAY, 1, (10, 1), 12, 12, 1, 3, True),  # k = 1: A2 stands in the paint
    ]
    assert t.state.score[AWAY] == 3


def test_9_with_time_left_the_same_12_is_spent_on_movement():
    t = position(table([6, 6]), A9, B9, clock=0)
    t.turn()
    assert not any(type(e) in (Announce, Shot) for e in t.events)
    assert 0 < sum(type(e) is Step for e in t.events) <= 12
    assert t.state.clock == 1


# 10 --------------------------------------------------------------------------------------


def test_10_a_boxed_in_piece_with_a_paint_count_of_1_commits_a_paint_violation():
    a = [(10, 1), (10, 14), (9, 1), (8, 14), (1, 7)]
    b = [(1, 6), (1, 8), (2, 7), (9, 14), (9, 2)]
    t = position(table([2, 3]), a, b, paint_counts={5: 1})
    assert 5 not in t.state.open_pieces()
    assert max(t.state.shot_value(p) for p in t.state.open_pieces()) == 3
    t.turn()
    assert not any(type(e) is Announce for e in t.events)
    assert Violation(AWAY, PAINT, 5) in t.events
    assert type(t.events[-1]) is Reset
    assert (t.state.offense, t.state.roller) == (HOME, HOME)
    _, away = box_score(t.events)
    assert (away.line(5).three_sec, away.line(5).to) == (1, 1)


# 11 --------------------------------------------------------------------------------------


def test_11_the_basket_that_reaches_21_ends_the_game_and_no_more_dice_are_read():
    a = [(9, 7), (10, 14), (9, 1), (8, 14), (10, 10)]
    b = [(9, 8), (9, 13), (8, 1), (7, 14), (9, 10)]
    t = position(table([3, 4]), a, b, score={AWAY: 19, HOME: 10})
    assert t.state.shot_value(1) == 42
    t.turn()
    assert t.events[-3:] == [
        Shot(AWAY, 1, (9, 7), 7, 7, 0, 2, True),
        Score(home=10, away=21),
        End(home=10, away=21, winner=AWAY, turns=1),
    ]
    assert t.state.over
    with pytest.raises(GameOverError):
        t.turn()
    assert dice_used_up(t)


# 12 --------------------------------------------------------------------------------------


def test_12_make_it_take_it_then_b1_covers_a1_and_a2_scores():
    t = table([4, 4, 1, 5, 6])
    t.start()
    t.turn()
    t.turn()
    assert t.events[-2:] == [Roll(HOME, "defense", (1,), 0), Step(HOME, 1, (1, 3), (1, 2))]
    assert t.state.open_pieces() == (2,)
    t.turn()
    assert Shot(AWAY, 2, (1, 14), 8, 11, 0, 3, True) in t.events
    assert t.state.score == {HOME: 0, AWAY: 6}
    assert dice_used_up(t)


# 13 --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cell", "points", "values"),
    [((9, 7), 2, (7, 8, 9)), ((9, 6), 3, (8, 9, 10)), ((8, 1), 3, (12, 12, 12)),
     ((7, 1), 3, (11, 12, 13))],
)  # fmt: skip
def test_13_points_come_from_the_arc_and_values_from_the_level(cell, points, values):
    for level, value in enumerate(values):
        c = court(14, level)
        i = c.index(cell)
        assert (c.points[i], c.value[i]) == (points, value)


class ShootPieceOne:
    """A test policy: announce piece 1 whenever it is open; otherwise play the default."""

    def place(self, role, state):
        return DEFAULT_POLICY.place(role, state)

    def announce(self, state):
        return 1 if 1 in state.open_pieces() else None

    def offense_steps(self, state, t):
        return DEFAULT_POLICY.offense_steps(state, t)

    def defense_steps(self, state, d):
        return DEFAULT_POLICY.defense_steps(state, d)


A13 = [(8, 2), (3, 7), (10, 13), (10, 12), (10, 11)]
B13 = [(2, 7), (9, 13), (9, 12), (9, 11), (10, 7)]  # B1 covers A2 in the paint


@pytest.mark.parametrize(
    ("dice", "rebound"),
    [((6, 6), Rebound(AWAY, 2, offensive=True)), ((5, 6), Rebound(HOME, 1, offensive=False))],
    ids=["12-offensive", "11-defensive"],
)
def test_13_a_13_is_never_made_but_its_rebound_range_still_counts(dice, rebound):
    rules = GridRules(width=13, level=2)
    t = Table(ScriptedDice(d6=dice), rules, away_policy=ShootPieceOne())  # type: ignore[arg-type]
    position(t, A13, B13)
    t.turn()
    shot = next(e for e in t.events if type(e) is Shot)
    assert (shot.v, shot.k, shot.made) == (13, 1, False)
    assert t.events[-1] == rebound


def test_13_the_default_policy_never_announces_a_13():
    rules = GridRules(width=13, level=2)
    t = position(table([], rules), A13, B13, clock=2)
    assert t.state.open_pieces() == (1,)
    assert t.state.shot_value(1) == 0 == MAKES[13]
    assert DEFAULT_POLICY.announce(t.state) is None


# 14 --------------------------------------------------------------------------------------


class Scripted:
    """A test policy that answers every movement question with the given steps."""

    def __init__(self, steps):
        self.steps = steps

    def place(self, role, state):
        return DEFAULT_POLICY.place(role, state)

    def announce(self, state):
        return None

    def offense_steps(self, state, t):
        return self.steps

    def defense_steps(self, state, d):
        return self.steps


A14 = [(5, 1), (10, 13), (10, 14)]
B14 = [(5, 2), (10, 1), (10, 2)]


def movement_table(d6, steps, role=AWAY):
    rules = GridRules(pieces=3)
    policy = {"away_policy" if role == AWAY else "home_policy": Scripted(steps)}
    t = table(d6, rules, **policy)
    return position(t, A14, B14, roller=role if role == AWAY else HOME)


def test_14_an_offense_piece_walks_round_a_defender_in_orthogonal_steps():
    t = movement_table([1, 2], [(1, (4, 1)), (1, (4, 2))])
    t.turn()
    assert t.state.cell(AWAY, 1) == (4, 2)
    c = court(14, 0)
    start = c.index((5, 1))
    occupied = {start, c.index((5, 2))}
    to = [i == c.index((5, 3)) for i in range(c.size)]
    assert len(_path(c, start, occupied, to)) == 4  # (4,1) (4,2) (4,3) (5,3): one too many


def test_14_a_fourth_step_on_a_roll_of_3_is_refused():
    walk = [(1, (4, 1)), (1, (4, 2)), (1, (4, 3)), (1, (5, 3))]
    t = movement_table([1, 2], walk)
    with pytest.raises(PolicyError, match="4 steps, the roll allows 3"):
        t.turn()


def test_14_an_offense_piece_cannot_step_diagonally():
    t = movement_table([1, 2], [(1, (4, 2))])
    with pytest.raises(PolicyError, match=r"cannot step from \(5, 1\) to \(4, 2\)"):
        t.turn()


def test_14_a_defender_may_step_diagonally():
    t = movement_table([1], [(1, (4, 1))], role=HOME)
    t.turn()
    assert t.state.cell(HOME, 1) == (4, 1)


def test_14_no_piece_may_step_onto_another():
    t = movement_table([1, 2], [(1, (5, 2))])
    with pytest.raises(PolicyError, match="it is taken"):
        t.turn()
