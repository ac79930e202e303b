"""The odds of a grid-court game, by seeded simulation of the engine itself.

A grid-court position holds ten pieces on a grid of 126 or 117 cells, the ball, the shot
clock and both scores: far too many states to solve exactly, so the odds are counted from
whole games played by :func:`simulator.gridcourt.engine.play_game` with the default
style (``simulator.gridcourt.style``), game ``i`` of a run on ``SeededDice(seed + i)``.
Teams carry only their coach's style into a game, so one run answers for every pairing of
default-style teams, and each other pairing of styles has a run of its own.
``p_home_win`` comes with its standard error ``sqrt(p (1 - p) / games)``; every other
figure (the law of the final score) is as exact as that sample.
:data:`simulator.gridcourt.oddstable.TABLE` holds the runs of the three printed levels
between default-style teams (``bench/gridcourt_odds.py`` writes it); other rules have no
odds until they are run.

>>> from simulator.gridcourt.rules import STANDARD
>>> simulated_odds(STANDARD, games=2, seed=1).games
2
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from typing import Any

from simulator.dice import SeededDice
from simulator.games import MatchOdds, TeamName
from simulator.gridcourt.engine import play_game
from simulator.gridcourt.oddstable import TABLE
from simulator.gridcourt.rules import GridRules
from simulator.gridcourt.style import DEFAULT_STYLE, GridStyle, policy_for

_HOME, _AWAY = TeamName("Home", 2000), TeamName("Away", 2000)


STYLE_GAMES = 1_000
"""Games in the run of a pairing of styles other than the default (standard error of
P(home wins) at most 1.6 points)."""
STYLE_SEED = 20261127


def simulated_odds(
    rules: GridRules,
    *,
    games: int,
    seed: int,
    home: GridStyle | None = DEFAULT_STYLE,
    away: GridStyle | None = DEFAULT_STYLE,
) -> MatchOdds:
    """Return the odds of ``games`` seeded games under ``rules`` (game ``i``: seed + i),
    each team playing its style (``None``: the rulings' §4 policy)."""
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games!r}")
    counts: dict[tuple[int, int], int] = {}
    home_policy, away_policy = policy_for(home), policy_for(away)
    for i in range(games):
        result = play_game(
            _HOME,
            _AWAY,
            SeededDice(seed + i),
            rules,
            home_policy=home_policy,
            away_policy=away_policy,
        )
        key = (result.home.score, result.away.score)
        counts[key] = counts.get(key, 0) + 1
    return odds_from_counts(counts, seed=seed)


def odds_from_counts(counts: Mapping[tuple[int, int], int], *, seed: int) -> MatchOdds:
    """Return the odds of a run from how many games ended at each ``(home, away)`` score."""
    games = sum(counts.values())
    home_wins = sum(n for (home, away), n in counts.items() if home > away)
    p = home_wins / games
    return MatchOdds(
        p_home_win=p,
        final={key: n / games for key, n in sorted(counts.items())},
        method="simulated",
        standard_error=math.sqrt(p * (1 - p) / games),
        games=games,
        seed=seed,
    )


@functools.lru_cache(maxsize=256)
def styled_odds(rules: GridRules, home: GridStyle | None, away: GridStyle | None) -> MatchOdds:
    """Return the odds of a pairing of styles: :data:`STYLE_GAMES` seeded games from
    :data:`STYLE_SEED`, played once per process (a pairing's run is the same every time)."""
    return simulated_odds(rules, games=STYLE_GAMES, seed=STYLE_SEED, home=home, away=away)


def table_odds(rules: GridRules) -> MatchOdds | None:
    """Return the stored run of ``rules``, or ``None`` when they were never run."""
    run = TABLE.get((rules.width, rules.level, rules.pieces))
    if run is None:
        return None
    seed, counts = run
    return odds_from_counts(_counts(counts), seed=seed)


def _counts(rows: Sequence[Sequence[int]]) -> dict[tuple[int, int], int]:
    return {(int(home), int(away)): int(n) for home, away, n in rows}


def table_entry(rules: GridRules, odds: MatchOdds) -> tuple[tuple[int, int, int], Any]:
    """Return the :data:`TABLE` entry of a run: the rules' key, its seed and score counts."""
    rows = [[home, away, round(p * odds.games)] for (home, away), p in odds.final.items()]
    return (rules.width, rules.level, rules.pieces), (odds.seed, rows)
