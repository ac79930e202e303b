"""A season's finishing places sampled from the chance of each game left (any game).

Pure NumPy, no Django: :func:`league.odds.season_odds` (VABG, each game's exact P(home
wins)) and :func:`league.other_odds.season_odds` (six dice, grid court) hand it the games
played and the games left with their chances, and read the places back.

A sampled season is ordered as the standings order theirs (``league.standings``): a
conference's table by the conference record (no conference game counts .000), then the
overall record; a season without conferences by the overall record. The standings break
the ties left by head-to-head and the point difference; the sampler draws who wins, not
by how much, so teams still level there are ordered by a coin flip. A season with no game
left is its final table (``final``), so its odds never contradict its standings.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

TIEBREAK = (
    "a conference's places follow the conference record, then the overall record (a "
    "season without conferences, the overall record), as the standings do; teams still "
    "level are ordered by a coin flip, the sampler drawing who wins, not by how much (the "
    "standings' head-to-head and point difference); with no game left, the final table"
)

_BATCH = 1000


@dataclass(frozen=True, slots=True)
class Played:
    """A finished game: its two teams (indexes), who won, whether it counts in conference."""

    home: int
    away: int
    home_won: bool
    conference: bool


@dataclass(frozen=True, slots=True)
class Left:
    """A game to come: its two teams (indexes), P(home wins), whether it is a conference game."""

    home: int
    away: int
    p_home: float
    conference: bool


@dataclass(frozen=True, slots=True)
class Places:
    """Each team's chance of each place of its group, and its expected wins."""

    places: npt.NDArray[np.float64]
    """``places[i, k]``: P(team i finishes k-th of its group), over the group's size."""
    expected_wins: npt.NDArray[np.float64]


def sample_places(
    n: int,
    groups: Mapping[str, Sequence[int]],
    played: Sequence[Played],
    left: Sequence[Left],
    *,
    seasons: int,
    rng: np.random.Generator,
    final: Mapping[str, Sequence[int]] | None = None,
) -> Places:
    """Return the places of ``n`` teams in their ``groups`` (conference name: team indexes;
    "" for a season without conferences) over ``seasons`` sampled seasons.

    ``final`` (group: its indexes in the standings' order) is read when no game is left:
    every place is then certain, the standings' own.
    """
    width = max((len(m) for m in groups.values()), default=0)
    places = np.zeros((n, width))
    wins = np.zeros(n)
    conf_wins = np.zeros(n)
    games = np.zeros(n)
    conf_games = np.zeros(n)
    for g in played:
        winner = g.home if g.home_won else g.away
        wins[winner] += 1
        games[[g.home, g.away]] += 1
        if g.conference:
            conf_wins[winner] += 1
            conf_games[[g.home, g.away]] += 1
    for coming in left:
        games[[coming.home, coming.away]] += 1
        if coming.conference:
            conf_games[[coming.home, coming.away]] += 1
    if not left and final is not None:
        for members in final.values():
            for place, team in enumerate(members):
                places[team, place] = 1.0
        return Places(places, wins)
    # Every game left counted as won by the visitor, then moved by the sampled home wins:
    # each home win is +1 to the home team and -1 to the visitor, overall and (a conference
    # game) in conference, so one product of the home wins with the games' +1/-1 columns
    # counts every team's wins of a sampled season. In float32: every partial sum is a whole
    # number far below 2**24, so the counts are exact, and the product is half the work.
    rows = np.arange(len(left))
    home_of = np.array([g.home for g in left], dtype=np.intp)
    away_of = np.array([g.away for g in left], dtype=np.intp)
    is_conf = np.array([g.conference for g in left], dtype=bool)
    moves = np.zeros((len(left), 2 * n), dtype=np.float32)
    moves[rows, home_of] = 1.0
    moves[rows, away_of] = -1.0
    moves[:, n:] = moves[:, :n] * is_conf[:, None]
    base = wins + np.bincount(away_of, minlength=n)
    conf_base = conf_wins + np.bincount(away_of[is_conf], minlength=n)
    p = np.array([g.p_home for g in left])
    games_or_one = np.maximum(games, 1.0)
    conf_games_or_one = np.maximum(conf_games, 1.0)
    expected = np.zeros(n)
    done = 0
    while done < seasons:
        size = min(_BATCH, seasons - done)
        home_won = (rng.random((size, len(left))) < p).astype(np.float32)
        moved = (home_won @ moves).astype(float)
        total = base + moved[:, :n]
        conf = conf_base + moved[:, n:]
        expected += total.sum(axis=0)
        overall_pct = total / games_or_one
        conf_pct = conf / conf_games_or_one
        coin = rng.random((size, n))
        for name, members in groups.items():
            cols = np.array(members)
            keys = [coin[:, cols], overall_pct[:, cols]]
            if name:
                keys.append(conf_pct[:, cols])
            # lexsort sorts ascending by its last key first: best last, so read it reversed.
            order = np.lexsort(keys, axis=-1)[:, ::-1]
            for place in range(len(members)):
                np.add.at(places[:, place], cols[order[:, place]], 1.0)
        done += size
    return Places(places / seasons, expected / seasons)


def groups_of(conferences: Sequence[str]) -> dict[str, list[int]]:
    """Return each conference's team indexes, the teams given by index in the order given."""
    groups: dict[str, list[int]] = {}
    for i, name in enumerate(conferences):
        groups.setdefault(name, []).append(i)
    return groups


def place_rows(
    teams: Sequence[tuple[int, str, str]],
    groups: Mapping[str, Sequence[int]],
    played: Sequence[Played],
    sampled: Places,
) -> list[dict[str, object]]:
    """Return a row per team, (team id, name, conference) by index: its wins so far, expected
    wins, P(first) and the chance of each place of its conference; best chances first (then
    the better expected place: a season played out lists its teams in the standings' order,
    each in its one place)."""
    wins = [0] * len(teams)
    for g in played:
        wins[g.home if g.home_won else g.away] += 1
    p_first = sampled.places[:, 0] if sampled.places.shape[1] else np.zeros(len(teams))
    places = sampled.places @ np.arange(1, sampled.places.shape[1] + 1, dtype=np.float64)
    order = sorted(
        range(len(teams)),
        key=lambda i: (
            teams[i][2],
            -float(p_first[i]),
            float(places[i]),
            -float(sampled.expected_wins[i]),
            teams[i][1],
        ),
    )
    return [
        {
            "team_id": teams[i][0],
            "team": teams[i][1],
            "conference": teams[i][2],
            "wins": wins[i],
            "expected_wins": float(sampled.expected_wins[i]),
            "p_first": float(p_first[i]),
            "places": [float(x) for x in sampled.places[i, : len(groups[teams[i][2]])]],
        }
        for i in order
    ]
