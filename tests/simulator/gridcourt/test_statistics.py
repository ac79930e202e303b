"""What seeded grid-court games average out to, against the figures the rulings quote.

gridcourt-rulings.md §3: with the default policies at level 0 with 5 pieces a game
averages 77 turns, 126 dice and 26 shots, and the loser scores about 12. Seeds 0 to
``GAMES - 1`` are played once each (a few seconds); each tolerance is ``SIGMAS``
standard errors of the sample's own mean plus the rounding of the quoted figure. The
seeds are fixed, so the test never flakes; a rule read differently moves the means.
"""

from __future__ import annotations

import math
import statistics

import pytest

from simulator import SeededDice
from simulator.games import TeamName
from simulator.gridcourt import STANDARD, play_game
from simulator.gridcourt.events import Roll, Shot

GAMES = 200
SIGMAS = 4


@pytest.fixture(scope="module")
def games() -> dict[str, list[int]]:
    home, away = TeamName("Home", 2000), TeamName("Away", 2000)
    figures: dict[str, list[int]] = {"turns": [], "dice": [], "shots": [], "loser": []}
    for seed in range(GAMES):
        result = play_game(home, away, SeededDice(seed), STANDARD)
        rolls = [e for e in result.events if type(e) is Roll]
        figures["turns"].append(len(rolls))
        figures["dice"].append(sum(len(e.dice) for e in rolls))
        figures["shots"].append(sum(1 for e in result.events if type(e) is Shot))
        figures["loser"].append(result.loser.score)
    return figures


@pytest.mark.parametrize(
    ("figure", "quoted", "rounding"),
    [("turns", 77, 0.5), ("dice", 126, 0.5), ("shots", 26, 0.5), ("loser", 12, 1.0)],
)
def test_the_averages_are_those_the_rulings_quote(games, figure, quoted, rounding):
    sample = games[figure]
    mean = statistics.fmean(sample)
    error = statistics.stdev(sample) / math.sqrt(len(sample))
    assert abs(mean - quoted) <= SIGMAS * error + rounding, (figure, mean, error)


def test_a_game_reads_two_dice_an_offensive_turn_and_one_a_defensive_turn(games):
    # 126 dice in 77 turns: 49 offensive and 28 defensive turns on average.
    for turns, dice in zip(games["turns"], games["dice"], strict=True):
        assert turns < dice <= 2 * turns
