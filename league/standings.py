"""Compute standings from finished games: pure functions, no Django, no global random.

Teams are ordered by win percentage (wins / games; .000 with no games). Teams level on
it are separated by these steps, in order:

1. ``"head-to-head"``: the win percentage in the games among the tied teams only;
2. ``"conference record"``: the win percentage in conference games;
3. ``"point difference"``: points for minus points against, over all games;
4. ``"coin flip"``: a draw that depends only on the seed given and the team id, so the
   same seed and games always give the same order.

In steps 1 and 2 a team with no such games counts as .500, neither helped nor hurt.

The exact procedure for a tied group (two teams or more): take the first step whose
values are not all equal within the group. Order the group by that value, best first,
which splits it into smaller groups of equal value. A team alone in its smaller group is
placed and its row names that step as its ``tiebreaker``. A smaller group of two or more
starts again from step 1, with head-to-head counted among its own members only. So in a
three-way tie where A beat B, B beat C and C beat A, head-to-head leaves all three at
1-1 and conference record decides; if it puts A first and B and C level, B and C start
again from their own head-to-head game. The coin flip always separates everyone. A team
never tied has ``tiebreaker`` ``None``.

Games behind the leader (the first row) are ``((leader wins - wins) + (losses - leader
losses)) / 2``; they can be negative for a team that has played more games.

A conference's table (``by_conference=True``) is ordered as conferences order theirs: by
the conference record first (no conference game counts .000), the same steps then break
ties with the overall record in place of the conference record, and games behind are
counted on the conference record.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from fractions import Fraction
from typing import Any

HEAD_TO_HEAD = "head-to-head"
CONFERENCE_RECORD = "conference record"
POINT_DIFFERENCE = "point difference"
COIN_FLIP = "coin flip"
OVERALL_RECORD = "overall record"
TIEBREAKERS = (HEAD_TO_HEAD, CONFERENCE_RECORD, POINT_DIFFERENCE, COIN_FLIP)

_NEUTRAL_PCT = Fraction(1, 2)


class StandingsError(ValueError):
    """Raise for a game that cannot be counted; the message names the bad value."""


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """One final score. Games are taken in the order ``(game_date, round)``, then as given.

    On a neutral court ``home_id`` is only the team listed first.
    """

    home_id: int
    away_id: int
    home_score: int
    away_score: int
    neutral: bool = False
    conference_game: bool = False
    round: int = 0
    game_date: date | None = None

    @property
    def winner_id(self) -> int:
        """Return the id of the team that scored more."""
        return self.home_id if self.home_score > self.away_score else self.away_id


@dataclass(frozen=True, slots=True)
class Record:
    """Wins and losses, printed ``"W-L"``."""

    wins: int = 0
    losses: int = 0

    def __str__(self) -> str:
        return f"{self.wins}-{self.losses}"

    @property
    def games(self) -> int:
        """Return the number of games in the record."""
        return self.wins + self.losses

    @property
    def pct(self) -> float:
        """Return wins / games, 0.0 with no games."""
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class StandingsRow:
    """One team's line of the standings; ``rank`` counts from 1 and is never shared.

    ``streak`` is ``"W3"`` or ``"L1"`` for the current run, ``""`` before any game.
    ``tiebreaker`` names the step that placed the team among teams level on win
    percentage (see the module docstring), ``None`` when it was level with nobody.
    """

    rank: int
    team_id: int
    wins: int
    losses: int
    win_pct: float
    games_behind: float
    conference: Record
    home: Record
    away: Record
    neutral: Record
    points_for: int
    points_against: int
    streak: str
    tiebreaker: str | None

    @property
    def games(self) -> int:
        """Return the number of games played."""
        return self.wins + self.losses

    @property
    def point_difference(self) -> int:
        """Return points for minus points against."""
        return self.points_for - self.points_against


@dataclass(slots=True)
class _Tally:
    wins: int = 0
    losses: int = 0
    records: dict[str, Counter[bool]] = field(default_factory=dict)
    points_for: int = 0
    points_against: int = 0
    results: list[bool] = field(default_factory=list)  # True for a win, in game order

    def add(self, *, won: bool, where: str, conference: bool, scored: int, allowed: int) -> None:
        self.wins += won
        self.losses += not won
        self.records.setdefault(where, Counter())[won] += 1
        if conference:
            self.records.setdefault("conference", Counter())[won] += 1
        self.points_for += scored
        self.points_against += allowed
        self.results.append(won)

    def record(self, kind: str) -> Record:
        counts = self.records.get(kind, Counter())
        return Record(counts[True], counts[False])


def compute_standings(
    games: Iterable[FinishedGame],
    *,
    seed: int,
    team_ids: Iterable[int] | None = None,
    by_conference: bool = False,
) -> list[StandingsRow]:
    """Return the standings of ``team_ids`` (default: every team in ``games``), first first.

    Every game of a listed team counts toward its record, also games against teams that
    are not listed. ``seed`` decides the coin flips, the last tiebreaker.

    >>> rows = compute_standings(
    ...     [FinishedGame(1, 2, 70, 65), FinishedGame(2, 3, 80, 60), FinishedGame(3, 1, 71, 70)],
    ...     seed=7,
    ... )
    >>> [(r.team_id, str(Record(r.wins, r.losses)), r.tiebreaker) for r in rows]
    [(2, '1-1', 'point difference'), (1, '1-1', 'point difference'), (3, '1-1', 'point difference')]
    """
    ordered = sorted(
        enumerate(_checked_games(games)),
        key=lambda item: (item[1].game_date or date.min, item[1].round, item[0]),
    )
    played = [game for _, game in ordered]
    teams = _checked_team_ids(team_ids, played)
    if not teams:
        return []
    tallies = {team: _Tally() for team in teams}
    for game in played:
        for team, won, scored, allowed, where in (
            (
                game.home_id,
                game.home_score > game.away_score,
                game.home_score,
                game.away_score,
                "home",
            ),
            (
                game.away_id,
                game.away_score > game.home_score,
                game.away_score,
                game.home_score,
                "away",
            ),
        ):
            if team in tallies:
                tallies[team].add(
                    won=won,
                    where="neutral" if game.neutral else where,
                    conference=game.conference_game,
                    scored=scored,
                    allowed=allowed,
                )

    def overall(team: int) -> Fraction:
        tally = tallies[team]
        games_played = tally.wins + tally.losses
        return Fraction(tally.wins, games_played) if games_played else Fraction(0)

    def conference(team: int) -> Fraction:
        record = tallies[team].record("conference")
        return Fraction(record.wins, record.games) if record.games else Fraction(0)

    def won_lost(team: int) -> tuple[int, int]:
        if by_conference:
            record = tallies[team].record("conference")
            return record.wins, record.losses
        return tallies[team].wins, tallies[team].losses

    primary = conference if by_conference else overall
    placed: list[tuple[int, str | None]] = []
    by_pct = sorted(teams, key=primary, reverse=True)
    for pct in sorted({primary(team) for team in teams}, reverse=True):
        group = [team for team in by_pct if primary(team) == pct]
        placed += (
            [(group[0], None)]
            if len(group) == 1
            else _settle(group, played, tallies, seed, by_conference=by_conference)
        )

    leader_wins, leader_losses = won_lost(placed[0][0])
    rows = []
    for rank, (team, tiebreaker) in enumerate(placed, start=1):
        tally = tallies[team]
        wins, losses = won_lost(team)
        rows.append(
            StandingsRow(
                rank=rank,
                team_id=team,
                wins=tally.wins,
                losses=tally.losses,
                win_pct=float(overall(team)),
                games_behind=((leader_wins - wins) + (losses - leader_losses)) / 2,
                conference=tally.record("conference"),
                home=tally.record("home"),
                away=tally.record("away"),
                neutral=tally.record("neutral"),
                points_for=tally.points_for,
                points_against=tally.points_against,
                streak=_streak(tally.results),
                tiebreaker=tiebreaker,
            )
        )
    return rows


def _settle(
    group: list[int],
    games: Sequence[FinishedGame],
    tallies: dict[int, _Tally],
    seed: int,
    *,
    by_conference: bool = False,
) -> list[tuple[int, str | None]]:
    """Order a tied group by the first step that splits it; restart tied subgroups at step 1."""
    members = set(group)
    among = [g for g in games if g.home_id in members and g.away_id in members]

    def head_to_head(team: int) -> Fraction:
        wins = sum(1 for g in among if g.winner_id == team)
        played = sum(1 for g in among if team in (g.home_id, g.away_id))
        return Fraction(wins, played) if played else _NEUTRAL_PCT

    def conference_record(team: int) -> Fraction:
        record = tallies[team].record("conference")
        return Fraction(record.wins, record.games) if record.games else _NEUTRAL_PCT

    def overall_record(team: int) -> Fraction:
        tally = tallies[team]
        played = tally.wins + tally.losses
        return Fraction(tally.wins, played) if played else _NEUTRAL_PCT

    def point_difference(team: int) -> int:
        return tallies[team].points_for - tallies[team].points_against

    def coin_flip(team: int) -> tuple[float, int]:
        # Seeded by (seed, team) alone, so the draw does not depend on the order of work.
        return (random.Random(f"{seed}:{team}").random(), team)

    steps: list[tuple[str, Callable[[int], Any]]] = [
        (HEAD_TO_HEAD, head_to_head),
        (OVERALL_RECORD, overall_record)
        if by_conference
        else (CONFERENCE_RECORD, conference_record),
        (POINT_DIFFERENCE, point_difference),
        (COIN_FLIP, coin_flip),
    ]
    for name, value in steps:
        values = {team: value(team) for team in group}
        distinct = sorted(set(values.values()), reverse=True)
        if len(distinct) == 1:
            continue
        placed: list[tuple[int, str | None]] = []
        for level in distinct:
            sub = [team for team in group if values[team] == level]
            placed += (
                [(sub[0], name)]
                if len(sub) == 1
                else _settle(sub, games, tallies, seed, by_conference=by_conference)
            )
        return placed
    raise AssertionError("the coin flip separates every team")  # pragma: no cover


def _streak(results: list[bool]) -> str:
    if not results:
        return ""
    last = results[-1]
    run = 0
    for won in reversed(results):
        if won != last:
            break
        run += 1
    return f"{'W' if last else 'L'}{run}"


def _checked_games(games: Iterable[FinishedGame]) -> list[FinishedGame]:
    checked = list(games)
    for index, game in enumerate(checked):
        where = f"game {index} ({game.home_id} v {game.away_id})"
        if game.home_id == game.away_id:
            raise StandingsError(f"{where}: a team cannot play itself, team id {game.home_id}")
        for side, score in (("home_score", game.home_score), ("away_score", game.away_score)):
            if score < 0:
                raise StandingsError(f"{where}: {side} must be 0 or more, got {score}")
        if game.home_score == game.away_score:
            raise StandingsError(
                f"{where}: a finished game has a winner, got a tie {game.home_score}-"
                f"{game.away_score}"
            )
    return checked


def _checked_team_ids(team_ids: Iterable[int] | None, games: Sequence[FinishedGame]) -> list[int]:
    if team_ids is None:
        return sorted({team for game in games for team in (game.home_id, game.away_id)})
    teams = list(team_ids)
    duplicates = sorted(t for t, n in Counter(teams).items() if n > 1)
    if duplicates:
        raise StandingsError(f"team ids must be unique; repeated: {duplicates}")
    return teams
