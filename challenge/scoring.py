"""The challenge's arithmetic on whole pools at once: pure NumPy, no Django.

A pool's entries are an ``E x G`` matrix of team indexes (``-1``: no pick, or a team no
longer in the bracket), one column per bracket game in :func:`game_keys` order. Stored
results are a vector of ``G`` winner indexes (``-1``: not played yet). Everything below is a
handful of array operations over that matrix, so 10,000 entries cost milliseconds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from league import bracket as brackets

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


def game_keys(bracket: brackets.Bracket) -> list[str]:
    """Return the bracket's game keys in round order (the columns of a picks matrix)."""
    return [g.key for g in sorted(bracket.games, key=lambda g: g.round)]


def game_points(bracket: brackets.Bracket, round_points: Sequence[int]) -> FloatArray:
    """Return each game's points (its round's), in :func:`game_keys` order."""
    rounds = {g.key: g.round for g in bracket.games}
    return np.array([round_points[rounds[k] - 1] for k in game_keys(bracket)], dtype=np.float64)


def picks_matrix(
    picks: Sequence[Mapping[str, int]], keys: Sequence[str], index: Mapping[int, int]
) -> IntArray:
    """Return the ``E x G`` matrix of picked team indexes; ``-1`` where nothing (or a team
    no longer in the bracket) is picked."""
    out = np.full((len(picks), len(keys)), -1, dtype=np.int64)
    column = {k: j for j, k in enumerate(keys)}
    for e, entry in enumerate(picks):
        for key, team in entry.items():
            j = column.get(key)
            if j is not None:
                out[e, j] = index.get(team, -1)
    return out


def pick_row(picks: Mapping[str, int], keys: Sequence[str]) -> str:
    """Return an entry's picks as ``Entry.pick_row`` stores them: team ids in ``keys``
    order, comma-separated, 0 where nothing is picked."""
    return ",".join(str(int(picks.get(k, 0))) for k in keys)


def rows_matrix(
    rows: Sequence[str], games: int, index: Mapping[int, int], *, unpicked: int = -1
) -> IntArray:
    """Return the ``E x G`` picks matrix of many ``pick_row`` texts in one parse; a team id
    not in ``index`` (a team no longer in the bracket) becomes -1, and 0 (a game left
    unpicked) ``unpicked`` (-1 unless told)."""
    empty = ",".join(["0"] * games)
    text = ",".join(row or empty for row in rows)
    ids = np.fromstring(text, dtype=np.int64, sep=",") if rows else np.zeros(0, np.int64)
    if ids.size != len(rows) * games:
        raise ValueError(f"pick rows must hold {games} team ids each")
    top = max(max(index, default=0), int(ids.max(initial=0))) + 1
    lut = np.full(top, -1, dtype=np.int64)
    lut[0] = unpicked
    for team, i in index.items():
        lut[team] = i
    out: IntArray = lut[np.clip(ids, 0, top - 1)].reshape(len(rows), games)
    return out


@dataclass(frozen=True)
class Scores:
    """Each entry's live score: points so far, the most it can still reach, the picks
    still alive (undecided games whose picked team has not lost) and the picks right."""

    points: FloatArray
    max_points: FloatArray
    alive: IntArray
    correct: IntArray


def live_scores(
    picks: IntArray, winners: IntArray, eliminated: npt.NDArray[np.bool_], points: FloatArray
) -> Scores:
    """Score every entry against the stored results.

    ``winners[g]`` is the index of game g's winner (``-1``: unplayed); ``eliminated[t]``
    tells whether team t has lost a game. A pick scores its game's points when it names the
    winner; an unplayed game's pick can still score while its team has not lost.
    """
    correct = (picks == winners[None, :]) & (winners[None, :] >= 0)
    valid = picks >= 0
    dead_team = np.zeros_like(picks, dtype=bool)
    dead_team[valid] = eliminated[picks[valid]]
    alive = valid & (winners[None, :] < 0) & ~dead_team
    got = correct.astype(np.float64) @ points
    return Scores(
        points=got,
        max_points=got + alive.astype(np.float64) @ points,
        alive=alive.sum(axis=1).astype(np.int64),
        correct=correct.sum(axis=1).astype(np.int64),
    )


def game_law_matrix(
    bracket: brackets.Bracket,
    winners: Mapping[str, int],
    index: Mapping[int, int],
    p: FloatArray,
) -> FloatArray:
    """Return ``L[g, t]``, the exact chance that team t wins game g (``game_keys`` order),
    from the bracket program (``league.bracket.bracket_game_laws``) given the stored
    ``winners``."""
    laws = brackets.bracket_game_laws(bracket, winners, index, p)
    return np.stack([laws[k] for k in game_keys(bracket)])


def expected_scores(picks: IntArray, laws: FloatArray, points: FloatArray) -> FloatArray:
    """Return each entry's exact expected final score.

    By linearity of expectation, E[score] = sum over games of the game's points times the
    chance that the picked team wins that game: no sampling. A missing pick adds nothing.
    """
    g = np.arange(picks.shape[1])[None, :]
    chance = np.where(picks >= 0, laws[g, np.maximum(picks, 0)], 0.0)
    out: FloatArray = chance @ points
    return out


def simulate_winners(
    bracket: brackets.Bracket,
    winners: Mapping[str, int],
    index: Mapping[int, int],
    p: FloatArray,
    *,
    samples: int,
    seed: int,
) -> IntArray:
    """Return ``samples`` whole tournaments drawn from the exact pair odds given the stored
    ``winners``: an ``S x G`` matrix of winner indexes (``game_keys`` order)."""
    rng = np.random.default_rng(seed)
    keys = game_keys(bracket)
    by_key = {g.key: g for g in bracket.games}
    won: dict[str, IntArray] = {}
    out = np.empty((samples, len(keys)), dtype=np.int64)

    def side(source: brackets.Source) -> IntArray:
        if isinstance(source, brackets.Seeded):
            return np.full(samples, index[source.team_id], dtype=np.int64)
        if not isinstance(source, brackets.WinnerOf):
            raise brackets.BracketError("a reseeded bracket cannot be simulated here")
        return won[source.game_key]

    beats = np.nan_to_num(p, nan=0.5)
    for j, key in enumerate(keys):
        game = by_key[key]
        top, bottom = side(game.top), side(game.bottom)
        if key in winners:
            w = np.full(samples, index[winners[key]], dtype=np.int64)
        else:
            w = np.where(rng.random(samples) < beats[top, bottom], top, bottom)
        won[key] = w
        out[:, j] = w
    return out


def win_probabilities(
    picks: IntArray, outcomes: IntArray, points: FloatArray, *, chunk: int = 256
) -> tuple[FloatArray, FloatArray]:
    """Return each entry's chance of finishing first in its pool and its standard error.

    ``outcomes`` holds simulated tournaments (:func:`simulate_winners`). In each, every
    entry is scored; the top score wins, a tie shared equally (the tie-breaker, the final's
    total points, is not simulated). The standard error is that of the mean of the S
    draws' shares, sqrt((E[share^2] - p^2) / S): sqrt(p (1 - p) / S) where every draw has one
    winner (within 1.1 percentage points at S = 2,000), less where entries share draws
    (brackets level in every draw share each exactly: no error at all).
    """
    entries, games = picks.shape
    samples = outcomes.shape[0]
    wins = np.zeros(entries)
    squares = np.zeros(entries)
    # A game decided in every draw (stored, or with one team certain) adds the same to each
    # draw: counted once, and only the open games are compared draw by draw.
    fixed = np.all(outcomes == outcomes[:1], axis=0) if samples else np.ones(games, bool)
    base = np.zeros(entries, dtype=np.float32)
    for g in np.flatnonzero(fixed & (points != 0)):
        base += np.float32(points[g]) * (picks[:, g] == outcomes[0, g])
    open_games = np.flatnonzero(~fixed & (points != 0))
    for start in range(0, samples, chunk):
        block = outcomes[start : start + chunk]  # s x G
        scores = np.repeat(base[:, None], block.shape[0], axis=1)
        for g in open_games:
            scores += np.float32(points[g]) * (picks[:, g][:, None] == block[None, :, g])
        best = scores.max(axis=0)
        top = scores == best[None, :]
        share = top / top.sum(axis=0)[None, :]
        wins += share.sum(axis=1)
        squares += (share * share).sum(axis=1)
    prob = wins / samples
    error = np.sqrt(np.maximum(squares / samples - prob * prob, 0.0) / samples)
    return prob, error
