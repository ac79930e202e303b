"""The table-top sheets of grid court and six dice (``simulator/<game>/sheet.py``).

Every prefix of seeded games is replayed: the die the sheet asks for must be the one the
engine reads next (whose roll, which die of it, what for), and the finished game must be
the seeded game, event for event.
"""

from __future__ import annotations

import pytest

from simulator.dice import DieRefused, GameOverError, ScriptedDice, SeededDice
from simulator.games import TeamName
from simulator.gridcourt import GridRules
from simulator.gridcourt import play_game as grid_play
from simulator.gridcourt import sheet as grid_sheet
from simulator.gridcourt.events import Roll
from simulator.sixdice import ScriptRanOut, SixDiceRules
from simulator.sixdice import play_game as six_play
from simulator.sixdice import sheet as six_sheet

HOME = TeamName("Kentucky", 2012)
AWAY = TeamName("Kansas", 2008)


def prefixes(n: int) -> list[int]:
    """Every prefix of a short game; of a long one the first 300, then every 7th, the last."""
    if n <= 400:
        return list(range(n))
    return sorted({*range(300), *range(300, n, 7), n - 2, n - 1})


class Written:
    """Seeded d6 rolls, each written down in the order the game asks for it."""

    def __init__(self, seed: int) -> None:
        self._dice = SeededDice(seed)
        self.values: list[int] = []

    def d6(self) -> int:
        value = self._dice.d6()
        self.values.append(value)
        return value

    def d8(self) -> int:
        raise AssertionError("a board game reads only d6 rolls")

    def d20(self) -> int:
        raise AssertionError("a board game reads only d6 rolls")

    def record(self):  # type: ignore[no-untyped-def]
        return self._dice.record()


@pytest.mark.parametrize(
    ("seed", "rules"),
    [(1, GridRules()), (2, GridRules(width=13, level=2, pieces=3)), (3, GridRules(pieces=4))],
)
def test_grid_court_asks_for_each_die_of_the_roll_the_engine_reads_next(seed, rules) -> None:
    written = Written(seed)
    played = grid_play(HOME, AWAY, written, rules)
    values = written.values
    wanted = []  # (team, role, start, size) for every die, from the engine's own rolls
    for event in played.events:
        if isinstance(event, Roll):
            start = len(wanted)
            wanted += [(event.team, event.role, start, len(event.dice))] * len(event.dice)
    assert len(wanted) == len(values)
    for i in prefixes(len(values)):
        position = grid_sheet.replay(HOME, AWAY, values[:i], rules=rules)
        need = position.need
        assert need is not None and position.result is None
        assert (need.team, need.role, need.start, need.size) == wanted[i]
        assert need.index == i - need.start + 1
        assert position.last_roll_start() == (wanted[i - 1][2] if i else 0)
    final = grid_sheet.replay(HOME, AWAY, values, rules=rules)
    assert final.need is None and final.result is not None
    assert final.result.events == played.events == final.events
    assert final.score == {"home": played.home.score, "away": played.away.score}


def test_grid_court_refuses_a_die_outside_one_to_six_and_dice_after_the_end() -> None:
    written = Written(4)
    grid_play(HOME, AWAY, written)
    values = written.values
    with pytest.raises(DieRefused) as refused:
        grid_sheet.replay(HOME, AWAY, [*values[:5], 7, 1])
    assert (refused.value.index, refused.value.value) == (5, 7)
    assert refused.value.need.start <= 5
    with pytest.raises(GameOverError) as over:
        grid_sheet.replay(HOME, AWAY, [*values, 2, 2])
    assert (over.value.used, over.value.extra) == (len(values), 2)


@pytest.mark.parametrize(
    ("seed", "rules"),
    [(1, SixDiceRules()), (2, SixDiceRules(chip_reroll=True)), (3, SixDiceRules(faces="BBPPSF"))],
)
def test_six_dice_asks_for_each_die_of_the_roll_the_engine_reads_next(seed, rules) -> None:
    written = Written(seed)
    played = six_play(HOME, AWAY, written, rules=rules)
    values = written.values
    previous = None
    previous_i = -1
    for i in prefixes(len(values)):
        if i != previous_i + 1:
            previous = None  # a prefix skipped: nothing to say of the one before
        previous_i = i
        position = six_sheet.replay(HOME, AWAY, values[:i], rules=rules)
        need = position.need
        assert need is not None and position.result is None
        with pytest.raises(ScriptRanOut) as ran_out:  # the engine's own word on what it wants
            six_play(HOME, AWAY, ScriptedDice(d6=values[:i]), rules=rules)
        assert (need.what, need.team) == (ran_out.value.what, ran_out.value.side)
        assert need.start <= i < need.start + need.size and need.index == i - need.start + 1
        if previous is not None and previous.index < previous.size:
            assert (need.start, need.size, need.what) == (
                previous.start,
                previous.size,
                previous.what,
            )
        elif previous is not None:
            assert need.index == 1 and need.start == i
        previous = need
    assert previous is not None and previous.index == previous.size  # the last die ends it
    final = six_sheet.replay(HOME, AWAY, values, rules=rules)
    assert final.need is None and final.result is not None
    assert final.result.events == played.events == final.events
    assert [d for roll in final.rolls for d in roll.dice] == values
    assert sum(len(roll.events) for roll in final.rolls) == len(final.events) - 1  # not Start


def test_six_dice_refuses_a_die_outside_one_to_six_and_dice_after_the_end() -> None:
    written = Written(5)
    six_play(HOME, AWAY, written)
    values = written.values
    with pytest.raises(DieRefused) as refused:
        six_sheet.replay(HOME, AWAY, [*values[:8], 0])
    assert (refused.value.index, refused.value.value) == (8, 0)
    assert (refused.value.need.what, refused.value.need.index) == ("jump ball", 3)
    with pytest.raises(GameOverError) as over:
        six_sheet.replay(HOME, AWAY, [*values, 6])
    assert (over.value.used, over.value.extra) == (len(values), 1)
