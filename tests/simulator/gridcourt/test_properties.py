"""Grid court: what every seeded game must satisfy, whatever the seed and the options.

Pieces never overlap or leave the board and move one step at a time; the score equals
the points credited; the box score rebuilt from the stored (JSON) events is the game's;
every die read is a turn's die (§5); the same seed gives the same game.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from simulator import SeededDice
from simulator.dice import DiceRecord
from simulator.games import Result, TeamName, find_game
from simulator.gridcourt import GridRules, play_game
from simulator.gridcourt.court import ROWS
from simulator.gridcourt.events import (
    AWAY,
    HOME,
    OFFENSE,
    End,
    Reset,
    Roll,
    Score,
    Shot,
    Step,
    box_score,
    event_from_json,
)
from simulator.gridcourt.rules import TARGET

HOME_TEAM, AWAY_TEAM = TeamName("Kansas", 2008), TeamName("Kentucky", 2012)

rules_strategy = st.builds(
    GridRules,
    width=st.sampled_from((14, 13)),
    level=st.sampled_from((0, 0, 0, 1, 2)),  # level 2 games are 5 times longer
    pieces=st.sampled_from((3, 4, 5)),
)
seeds = st.integers(min_value=0, max_value=2**32)


class CountingDice(SeededDice):
    """Seeded dice that count the d6 rolls read."""

    __slots__ = ("read",)

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.read = 0
        roll = self.d6

        def d6() -> int:
            self.read += 1
            return roll()

        self.d6 = d6

    def record(self) -> DiceRecord:
        return super().record()


def play(seed: int, rules: GridRules) -> Result:
    return play_game(HOME_TEAM, AWAY_TEAM, SeededDice(seed), rules)


@settings(max_examples=25, deadline=None)
@given(seed=seeds, rules=rules_strategy)
def test_pieces_never_overlap_never_leave_the_board_and_step_one_cell_at_a_time(seed, rules):
    result = play(seed, rules)
    where: dict[str, list[tuple[int, int]]] = {}
    mover = role = None
    for e in result.events:
        if type(e) is Reset:
            where = {HOME: list(e.home), AWAY: list(e.away)}
        elif type(e) is Roll:
            mover, role = e.team, e.role
        elif type(e) is Step:
            assert e.team == mover
            assert where[e.team][e.piece - 1] == e.frm
            (r1, c1), (r2, c2) = e.frm, e.to
            if role == OFFENSE:
                assert abs(r1 - r2) + abs(c1 - c2) == 1  # the offense steps orthogonally
            assert max(abs(r1 - r2), abs(c1 - c2)) == 1
            where[e.team][e.piece - 1] = e.to
        else:
            continue
        cells = where[HOME] + where[AWAY]
        assert len(cells) == 2 * rules.pieces
        assert len(set(cells)) == len(cells)
        assert all(1 <= r <= ROWS and 1 <= c <= rules.width for r, c in cells)


@settings(max_examples=25, deadline=None)
@given(seed=seeds, rules=rules_strategy)
def test_the_score_equals_the_points_credited_and_the_winner_reaches_21(seed, rules):
    result = play(seed, rules)
    for side in (result.home, result.away):
        box = side.box
        assert side.score == box.score == sum(p.pts for p in box.pieces)
        assert box.totals.pts == side.score
        assert box.totals.fgm >= box.totals.tpm
        assert sum(p.pts for p in box.pieces) == 2 * box.totals.fgm + box.totals.tpm
    made = [e for e in result.events if type(e) is Shot and e.made]
    assert sum(e.points for e in made) == result.home.score + result.away.score
    end = result.events[-1]
    assert type(end) is End
    assert (end.home, end.away) == (result.home.score, result.away.score)
    assert result.winner.score >= TARGET > result.loser.score
    scores = [e for e in result.events if type(e) is Score]
    assert (scores[-1].home, scores[-1].away) == (end.home, end.away)


@settings(max_examples=15, deadline=None)
@given(seed=seeds, rules=rules_strategy)
def test_every_die_read_is_a_turns_die_and_the_stored_events_rebuild_the_box_score(seed, rules):
    dice = CountingDice(seed)
    result = play_game(HOME_TEAM, AWAY_TEAM, dice, rules)
    rolls = [e for e in result.events if type(e) is Roll]
    assert dice.read == sum(len(e.dice) for e in rolls)
    assert all(len(e.dice) == (2 if e.role == OFFENSE else 1) for e in rolls)
    assert len(rolls) == result.events[-1].turns
    stored = json.loads(json.dumps([e.to_json() for e in result.events]))
    events = [event_from_json(e) for e in stored]
    assert events == list(result.events)
    assert box_score(events) == (result.home.box, result.away.box)
    for team, side in ((HOME, result.home.box), (AWAY, result.away.box)):
        assert side.off_rolls == sum(e.role == OFFENSE for e in rolls if e.team == team)
        assert side.def_rolls == sum(e.role != OFFENSE for e in rolls if e.team == team)
        assert side.steps == sum(1 for e in result.events if type(e) is Step and e.team == team)


@settings(max_examples=10, deadline=None)
@given(seed=seeds, rules=rules_strategy)
def test_the_same_seed_gives_the_same_game(seed, rules):
    game = find_game("gridcourt")
    first, again = (game.play(HOME_TEAM, AWAY_TEAM, SeededDice(seed), rules) for _ in range(2))
    assert json.dumps(first.to_json()) == json.dumps(again.to_json())
    assert first.to_json()["dice"] == {"seed": seed}
    assert game.rules_from_json(first.to_json()["rules"]) == rules


PLAY_IN_A_FRESH_INTERPRETER = """
import contextlib, io, json, random, sys

before = random.getstate()
from simulator.cli import main

with contextlib.redirect_stdout(io.StringIO()) as out:
    status = main(["play", sys.argv[1], sys.argv[2], "--game", "gridcourt", "--seed", "3",
                   "--json"])
print(json.dumps({
    "django": sorted(name for name in sys.modules if name.startswith("django")),
    "random_untouched": random.getstate() == before,
    "status": status,
    "game": json.loads(out.getvalue())["game"],
}))
"""


def test_a_grid_court_game_imports_no_django_and_leaves_the_global_random_alone():
    root = Path(__file__).resolve().parents[3]
    teams = root / "fixtures" / "teams"
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            PLAY_IN_A_FRESH_INTERPRETER,
            str(teams / "kentucky-2012.json"),
            str(teams / "kansas-2008.json"),
        ],
        cwd=root,
        env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "django": [],
        "random_untouched": True,
        "status": 0,
        "game": "gridcourt",
    }
