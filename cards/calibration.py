"""Play the field's cards against each other and compare the scores with the author's.

The author published, for 22 teams of the 96-team field, the points each team's cards
score and allow a game against the field (``predicted_pts``, ``predicted_allowed``). This
module plays every team against the rest of the field with the engine (advanced rules,
neutral court) and reports each team's simulated points for and against beside those
figures, with the mean absolute error. A team without published figures is compared with
the target the card calculator set its dunk range for (docs/cards.md §10.1): the field's
average 67 plus half its rating for, minus half its rating against.

Pure: no Django, files or clock. Every game's seed comes from the master seed and the two
teams' names, so the same field and seed give the same figures, and a pair's games do not
change when other teams join the field.

>>> schedule(["A", "B", "C", "D"], opponents=None, seed=1)
[('A', 'B'), ('A', 'C'), ('A', 'D'), ('B', 'C'), ('B', 'D'), ('C', 'D')]
>>> mean_absolute_error([1.0, -3.0, None])
2.0
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from cards.calculator import FIELD_MEAN_POINTS
from simulator import SeededDice
from simulator.vabg import TeamCard, play_game, preset

PUBLISHED = "published"
RATING = "rating"
FIELD_AVERAGE = "field average"
SRS_OFFSET = 21.0
"""The average great team is 21 points better than an average Division I team (the author,
card_method_notes.md §7): a real season's SRS less 21 is its rating against the field."""


class Entry(NamedTuple):
    """One team of the field with the author's figures (``None`` where not published).

    ``rating`` is the team's net points a game against the field (0 = an average great
    team), used only for a figure the author did not publish; ``pts_inferred`` and
    ``allowed_inferred`` mark published figures the sources mark with ``?``.
    """

    team: TeamCard
    published_pts: float | None = None
    published_allowed: float | None = None
    rating: float | None = None
    pts_inferred: bool = False
    allowed_inferred: bool = False


class Figure(NamedTuple):
    """A team's simulated points a game (for or against) beside the figure it should match."""

    simulated: float
    stderr: float
    target: float
    source: str
    """``published``, ``rating`` (67 ± half the rating) or ``field average`` (67)."""
    inferred: bool = False
    """The published figure is marked ``?`` (inferred) in the source."""

    @property
    def error(self) -> float:
        """Return simulated minus target: positive when the cards score (or allow) too much."""
        return self.simulated - self.target


@dataclass(frozen=True, slots=True)
class TeamRow:
    """One team's simulated points for and against, beside its published or rated figures."""

    label: str
    school: str
    season: int
    games: int
    opponents: int
    scored: Figure
    allowed: Figure
    rating: float | None

    @property
    def published(self) -> bool:
        """Return whether either figure is the author's."""
        return PUBLISHED in (self.scored.source, self.allowed.source)


@dataclass(frozen=True, slots=True)
class PairTotals:
    """The games two teams played each other: points of the first named, then the second."""

    games: int
    points_for: int
    points_against: int


@dataclass(frozen=True, slots=True)
class Errors:
    """Mean absolute errors (``None`` when no figure counts) and mean signed errors."""

    scored: float | None
    allowed: float | None
    both: float | None
    bias_scored: float | None
    bias_allowed: float | None
    figures: int


@dataclass(frozen=True, slots=True)
class Calibration:
    """Everything one calibration run measured, and how it was run."""

    rows: tuple[TeamRow, ...]
    published: Errors
    """Over the figures the author published: the calibration's headline."""
    targets: Errors
    """Over the other figures, against the card calculator's targets (rating or 67)."""
    field_average: float
    """Points a team scores a game, over every game played."""
    games: int
    games_per_pair: int
    opponents: int | None
    seed: int
    rules: str
    pairs: dict[tuple[str, str], PairTotals]

    def pair(self, first: str, second: str) -> PairTotals:
        """Return what ``first`` scored and allowed against ``second`` (by label)."""
        if (first, second) in self.pairs:
            return self.pairs[first, second]
        totals = self.pairs[second, first]
        return PairTotals(totals.games, totals.points_against, totals.points_for)


def rating_target(rating: float | None) -> tuple[float, float, str]:
    """Return the points for and against the calculator aims a team's cards at (cards.md §10.1).

    >>> rating_target(16)
    (75.0, 59.0, 'rating')
    >>> rating_target(None)
    (67.0, 67.0, 'field average')
    """
    if rating is None:
        return FIELD_MEAN_POINTS, FIELD_MEAN_POINTS, FIELD_AVERAGE
    return FIELD_MEAN_POINTS + rating / 2, FIELD_MEAN_POINTS - rating / 2, RATING


def game_seed(seed: int, first: str, second: str, game: int) -> int:
    """Return the dice seed of one game of a pair, the same whichever team is named first."""
    a, b = sorted((first, second))
    digest = hashlib.blake2b(f"{seed}\x1f{a}\x1f{b}\x1f{game}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def schedule(labels: Sequence[str], *, opponents: int | None, seed: int) -> list[tuple[str, str]]:
    """Return the pairs that play, each once, in a fixed order.

    Without ``opponents`` (or with at least ``len(labels) - 1``) every team meets every other.
    Otherwise the teams are shuffled by the seed and each meets the ``k`` nearest after it and
    before it in that circle, ``k`` being half of ``opponents`` rounded up: every team has the
    same number of opponents (``opponents`` rounded up to even).
    """
    names = sorted(labels)
    n = len(names)
    if opponents is None or opponents >= n - 1:
        return [(names[i], names[j]) for i in range(n) for j in range(i + 1, n)]
    if opponents < 1:
        raise ValueError(f"opponents must be at least 1, got {opponents}")
    circle = names[:]
    random.Random(seed).shuffle(circle)
    pairs: set[tuple[str, str]] = set()
    for step in range(1, math.ceil(opponents / 2) + 1):
        for p, name in enumerate(circle):
            a, b = sorted((name, circle[(p + step) % n]))
            pairs.add((a, b))
    return sorted(pairs)


def calibrate(
    entries: Iterable[Entry | tuple[TeamCard, float | None, float | None]],
    *,
    games: int = 2,
    opponents: int | None = None,
    seed: int = 0,
    strategy: bool = False,
    progress: Callable[[int], None] | None = None,
) -> Calibration:
    """Play the field against itself and compare each team's scores with its figures.

    Each pair of :func:`schedule` plays ``games`` games on a neutral court with the advanced
    rules (the coach policy on with ``strategy``), the two teams taking turns to be listed
    first (the listed-second team has the first possession of each number). ``progress`` is
    called with the number of games after each pair.
    """
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    field = [Entry(*e) for e in entries]
    by_label: dict[str, Entry] = {}
    for entry in field:
        label = entry.team.label
        if label in by_label:
            raise ValueError(f"{label} is in the field twice")
        by_label[label] = entry
    if len(by_label) < 2:
        raise ValueError(f"the field needs at least 2 teams, got {len(by_label)}")
    rules = preset("advanced", strategy=strategy)
    sums = {label: [0, 0, 0, 0, 0] for label in by_label}  # games, for, for², against, against²
    met: dict[str, set[str]] = {label: set() for label in by_label}
    pairs: dict[tuple[str, str], PairTotals] = {}
    for a, b in schedule(list(by_label), opponents=opponents, seed=seed):
        team = {a: by_label[a].team, b: by_label[b].team}
        points = {a: 0, b: 0}
        for g in range(games):
            first, second = (a, b) if g % 2 == 0 else (b, a)
            result = play_game(
                team[first], team[second], SeededDice(game_seed(seed, a, b, g)),
                rules=rules, neutral=True,
            )  # fmt: skip
            for label, own, other in (
                (first, result.home.score, result.away.score),
                (second, result.away.score, result.home.score),
            ):
                s = sums[label]
                s[0] += 1
                s[1] += own
                s[2] += own * own
                s[3] += other
                s[4] += other * other
                points[label] += own
        pairs[a, b] = PairTotals(games, points[a], points[b])
        met[a].add(b)
        met[b].add(a)
        if progress is not None:
            progress(games)
    rows = tuple(_row(by_label[label], sums[label], len(met[label])) for label in sorted(by_label))
    played = sum(s[0] for s in sums.values())
    return Calibration(
        rows=rows,
        published=errors(rows, PUBLISHED),
        targets=errors(rows, RATING, FIELD_AVERAGE),
        field_average=sum(s[1] for s in sums.values()) / played,
        games=played // 2,
        games_per_pair=games,
        opponents=opponents,
        seed=seed,
        rules=rules.name,
        pairs=pairs,
    )


def _row(entry: Entry, s: list[int], opponents: int) -> TeamRow:
    n, pf, pf2, pa, pa2 = s
    pts, allowed, source = rating_target(entry.rating)
    scored = Figure(*_mean_se(n, pf, pf2), pts, source)
    against = Figure(*_mean_se(n, pa, pa2), allowed, source)
    if entry.published_pts is not None:
        scored = scored._replace(
            target=float(entry.published_pts), source=PUBLISHED, inferred=entry.pts_inferred
        )
    if entry.published_allowed is not None:
        against = against._replace(
            target=float(entry.published_allowed), source=PUBLISHED, inferred=entry.allowed_inferred
        )
    team = entry.team
    return TeamRow(
        label=team.label,
        school=team.school,
        season=team.season,
        games=n,
        opponents=opponents,
        scored=scored,
        allowed=against,
        rating=entry.rating,
    )


def _mean_se(n: int, total: int, squares: int) -> tuple[float, float]:
    """Return the mean of ``n`` values and its standard error (0 for a single value)."""
    mean = total / n
    if n < 2:
        return mean, 0.0
    variance = max(0.0, (squares - n * mean * mean) / (n - 1))
    return mean, math.sqrt(variance / n)


def mean_absolute_error(errors: Iterable[float | None]) -> float | None:
    """Return the mean of the absolute values, ``None`` ignored; ``None`` when none is left."""
    values = [abs(e) for e in errors if e is not None]
    return sum(values) / len(values) if values else None


def errors(rows: Iterable[TeamRow], *sources: str) -> Errors:
    """Return the errors over the figures whose target comes from one of ``sources``."""
    rows = list(rows)
    scored = [r.scored.error for r in rows if r.scored.source in sources]
    allowed = [r.allowed.error for r in rows if r.allowed.source in sources]
    return Errors(
        scored=mean_absolute_error(scored),
        allowed=mean_absolute_error(allowed),
        both=mean_absolute_error(scored + allowed),
        bias_scored=sum(scored) / len(scored) if scored else None,
        bias_allowed=sum(allowed) / len(allowed) if allowed else None,
        figures=len(scored) + len(allowed),
    )
