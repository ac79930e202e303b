"""The stored simulation runs of grid court's odds, written by ``bench/gridcourt_odds.py``.

``TABLE[(width, level, pieces)] = (seed, [[home score, away score, games], ...])``.
"""

TABLE: dict[tuple[int, int, int], tuple[int, list[list[int]]]] = {}
